"""pokereval.kernels: the shared hand-value layer against the naive oracle, the named
constants (PH_SHIFT) and the starting-hand tables' kernel against a replay."""

"""Per-starting-hand tables built by Monte Carlo in independent chunks.

* :mod:`.simulate`  the per-class kernel and one chunk of work
* :mod:`.engine`    plan the chunks, run them, assemble the tables
* :mod:`.executors` where chunks run (this process, a process pool, Dask)
* :mod:`.store`     the on-disk checkpoints that make a build resumable

See docs/TABLES.md.
"""
from .engine import EquityTable, OrderingTable, build_equity, build_ordering

__all__ = ["EquityTable", "OrderingTable", "build_equity", "build_ordering"]

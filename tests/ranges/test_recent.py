"""The cache of recent ranges (pokereval.ranges.parse_range) and how to empty it."""
from pokereval import ranges


def test_clear_recent_forgets_what_was_read():
    a = ranges.parse_range("omaha", "KK**:$ss")
    assert ranges.parse_range("omaha", "KK**:$ss") is a
    ranges.clear_recent()
    b = ranges.parse_range("omaha", "KK**:$ss")
    assert b is not a  # read again
    assert b.holdings.tolist() == a.holdings.tolist() and b.weights.tolist() == a.weights.tolist()

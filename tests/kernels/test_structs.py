"""The named structures: player kinds as the C samplers read them, and the kernels' and
the C library's table types kept apart by name."""
import numpy as np

from pokereval import _native
from pokereval import kernels as K
from pokereval.api import equity
from pokereval._native import PlayerKind


def test_player_kinds_are_the_c_library_s_codes():
    # the samplers take kind[] as an int64 array: the members must be its codes
    assert [int(k) for k in PlayerKind] == [0, 1, 2]
    assert np.array(list(PlayerKind), dtype=np.int64).tolist() == [0, 1, 2]


def test_every_player_kind_reaches_the_ranged_walks():
    # Monte Carlo deals "**" as DEALT beside a LISTED range and an EXACT hand; the exact
    # walk lists every player's holdings: the two must agree within the sampling error
    hands, board = ["AA", "KhQh", "**"], "2c7d9hTs"
    exact = equity("holdem", hands, board=board, exact=True)
    mc = equity("holdem", hands, board=board, samples=40000, seed=3)
    for e, m in zip(exact.players, mc.players):
        assert abs(e.equity - m.equity) < 4 * 0.0025 + 1e-9
    assert exact.players[0].equity > 0.5


def test_the_c_tables_and_the_kernel_tables_are_different_types():
    assert type(_native.TABLES) is _native.CTables
    KT = K.kernel_tables()
    assert type(KT) is K.Tables and K.Tables is not _native.CTables
    assert KT.ph_offset is _native.TABLES.ph_offset and KT.hi_rank is _native.TABLES.hi_rank

"""The build-time kernel cache: writers in parallel processes, reuse of another tree's cache."""
import multiprocessing
import pickle
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _save_many(folder: str, worker: int, count: int) -> None:
    import pokereval._kernel_cache  # noqa: F401  (installs the locked save)
    from numba.core.caching import IndexDataCacheFile

    from pokereval._kernel_cache import kernel_source_hash

    cache = IndexDataCacheFile(folder, "k-1.py311", ("pokereval", kernel_source_hash(), "x"))
    for i in range(count):
        cache.save(("sig", worker, i), f"{worker}:{i}".encode() * 200)


def test_parallel_writers_of_one_function_lose_no_entry(tmp_path):
    """Processes saving different signatures of the same function at once (the parallel
    warm-up) each keep their entries, every index entry naming its own data file:
    Numba's read-modify-write of the index runs under a lock on the folder."""
    pytest.importorskip("fcntl")
    workers, count = 4, 60
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_save_many, args=(str(tmp_path), w, count)) for w in range(workers)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0] * workers
    from numba.core.caching import IndexDataCacheFile

    from pokereval._kernel_cache import kernel_source_hash

    cache = IndexDataCacheFile(str(tmp_path), "k-1.py311", ("pokereval", kernel_source_hash(), "x"))
    index = cache._load_index()
    assert len(index) == workers * count
    assert len(set(index.values())) == workers * count
    for w in range(workers):
        for i in range(count):
            assert cache.load(("sig", w, i)) == f"{w}:{i}".encode() * 200


def test_reuse_copies_only_entries_stamped_with_these_sources(tmp_path, monkeypatch):
    """``python -m pokereval.warmup --reuse DIR`` copies an index (and its data files)
    only when it was written by this Numba version with these kernel sources' hash."""
    import numba

    from pokereval import warmup
    from pokereval._kernel_cache import kernel_source_hash

    src = tmp_path / "src"
    src.mkdir()

    def index(name, stamp, version=numba.__version__, data=("d.1.nbc",)):
        with open(src / name, "wb") as f:
            pickle.dump(version, f)
            f.write(pickle.dumps((stamp, {("sig",): d for d in data})))
        for d in data:
            (src / d).write_bytes(b"x")

    ours = ("pokereval", kernel_source_hash(), "file")
    index("good-1.py311.nbi", ours, data=("good-1.py311.1.nbc",))
    index("stale-1.py311.nbi", ("pokereval", "0" * 64, "file"), data=("stale-1.py311.1.nbc",))
    index("old-1.py311.nbi", ours, version="0.1", data=("old-1.py311.1.nbc",))
    dest = tmp_path / "pkg" / "kernels" / "__pycache__"
    monkeypatch.setattr(warmup, "__file__", str(tmp_path / "pkg" / "warmup.py"))
    assert warmup.reuse_cache(str(src)) == 1
    assert sorted(p.name for p in dest.iterdir()) == ["good-1.py311.1.nbc", "good-1.py311.nbi"]


def test_warmup_groups_cover_every_job_once():
    from pokereval import warmup

    jobs = sorted(j for group in warmup.job_groups() for j in group)
    assert jobs == list(range(len(warmup.WARMUP) + len(warmup.CALLS)))

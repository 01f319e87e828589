"""Table-engine throughput and percent-cut latency (numbers for the notes, never asserted).

    python benchmarks/tables_bench.py

* chunks/s of one equity table slice (omaha, 1 opponent) through this process,
  a local pool of 2 processes and a Dask LocalCluster of 2 worker processes,
  for small chunks (engine overhead) and larger ones (kernel bound);
* the time of ``percent_holdings("omaha", 0, 0.15)``: cold (first call in a
  fresh process: classes from the on-disk cache, ordering loaded) and warm.
"""
import json
import statistics
import subprocess
import sys
import time

from pokereval.tables.engine import build_equity
from pokereval.tables.executors import InlineExecutor, open_executor

COLD = ("import time, pokereval as pe; t = time.perf_counter(); "
        "pe.percent_holdings('omaha', 0, 0.15); print(time.perf_counter() - t)")


def chunks_per_s(executor, chunk_trials, classes=(0, 2000), trials=100):
    n_chunks = -(-(classes[1] - classes[0]) // max(1, chunk_trials // trials))
    t = time.perf_counter()
    build_equity("omaha", opponents=1, trials=trials, classes=classes, progress=False,
                 executor=executor, chunk_trials=chunk_trials)
    return n_chunks / (time.perf_counter() - t)


def main():
    import pokereval as pe
    from distributed import Client, LocalCluster

    build_equity("omaha", opponents=1, trials=1, classes=(0, 10), progress=False,
                 executor=InlineExecutor())  # compile / load the kernel
    out = {}
    for label, ct, span in (("small chunks (1,000 class-trials)", 1000, (0, 2000)),
                            ("large chunks (50,000 class-trials)", 50000, (0, 16000))):
        row = {"this process": chunks_per_s(InlineExecutor(), ct, span)}
        with open_executor(2) as pool:
            chunks_per_s(pool, 1000, classes=(0, 400))  # start the workers, load the kernel
            row["local pool, 2 processes"] = chunks_per_s(pool, ct, span)
        with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cl, \
                Client(cl) as client:
            ex = client.get_executor()
            chunks_per_s(ex, 1000, classes=(0, 400))
            row["Dask LocalCluster, 2 processes"] = chunks_per_s(ex, ct, span)
        out[label] = {k: round(v, 1) for k, v in row.items()}
    cold = [float(subprocess.run([sys.executable, "-c", COLD], capture_output=True, text=True,
                                 check=True).stdout) for _ in range(3)]
    warm = []
    for _ in range(50):
        t = time.perf_counter()
        pe.percent_holdings("omaha", 0, 0.15)
        warm.append(time.perf_counter() - t)
    out["percent_holdings omaha 15% cold ms (3 fresh processes)"] = [round(c * 1e3, 1) for c in cold]
    out["percent_holdings omaha 15% warm ms (median of 50)"] = round(
        statistics.median(warm) * 1e3, 3)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()

"""A warm CLI kernel spot imports only the kernel modules (and libraries) it uses.

Run in a fresh interpreter: this test process has imported everything already."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import io, json, sys
from pokereval.cli import main
out, sys.stdout = sys.stdout, io.StringIO()
code = main(sys.argv[1:])
sys.stdout = out
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def loaded(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               POKEREVAL_QUIET_COMPILE="1")
    proc = subprocess.run([sys.executable, "-c", PROBE, "equity", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600, check=True)
    found = json.loads(proc.stdout.strip().splitlines()[-1])
    assert found["code"] == 0
    return set(found["modules"])


def test_stud_monte_carlo_loads_no_kernel_at_all():
    # fixed-hand stud is sampled in the C library: no Numba for a CLI stud answer
    modules = loaded("stud-hilo", "AsKs2c", "QhQd5s", "--samples", "2000", "--seed", "1")
    assert "pokereval._ffi" in modules
    assert not {m for m in modules if m.startswith(("numba", "pokereval.kernels"))}
    assert "numpy.ma" not in modules  # imported by Numba's typeof and np.unique otherwise


def test_board_monte_carlo_loads_the_board_sampler_only():
    modules = loaded("omaha-hilo", "AcAs3d4h", "KhKcJdTd", "--samples", "2000", "--seed", "1")
    assert "pokereval.kernels.montecarlo" in modules
    unused = {"pokereval.kernels." + m for m in ("ranged", "stud_walk")}
    assert not modules & unused, sorted(modules & unused)

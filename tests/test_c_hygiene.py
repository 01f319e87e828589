"""The C sources compile cleanly under strict warnings (the build itself uses -Wall -Wextra)."""
import shutil
import subprocess
from pathlib import Path

import pytest

CSRC = Path(__file__).resolve().parents[1] / "csrc"


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
@pytest.mark.parametrize("source", ["tables.c", "eval.c", "board_exact.c"])
def test_compiles_without_warnings(source, tmp_path):
    result = subprocess.run(
        ["gcc", "-std=c99", "-O2", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-I", str(CSRC),
         "-c", str(CSRC / source), "-o", str(tmp_path / "out.o")],
        capture_output=True, text=True)
    assert result.returncode == 0, result.stderr

"""The C sources compile cleanly under strict warnings (the build itself uses -Wall -Wextra),
and the tables compiled into the module are the ones the rules give."""
import shutil
import subprocess
from pathlib import Path

import pytest

CSRC = Path(__file__).resolve().parents[1] / "csrc"


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
@pytest.mark.parametrize("source", ["tables.c", "eval.c", "board_exact.c", "stud_mc.c", "ranged_mc.c", "pair_high.c", "gen_tables.c"])
def test_compiles_without_warnings(source, tmp_path):
    result = subprocess.run(
        ["gcc", "-std=c99", "-O2", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-I", str(CSRC),
         "-c", str(CSRC / source), "-o", str(tmp_path / "out.o")],
        capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_generated_tables_match_the_module(tmp_path):
    """The build compiles the tables in (csrc/gen_tables.c, see setup.py): what the
    generator writes from the rules now is what the imported module reads."""
    import re

    import numpy as np

    from pokereval._native import TABLES

    exe, header = tmp_path / "gen", tmp_path / "tables_prebuilt.h"
    subprocess.run(["gcc", "-std=c99", "-O2", "-I", str(CSRC), str(CSRC / "gen_tables.c"),
                    str(CSRC / "tables.c"), "-o", str(exe)], check=True)
    subprocess.run([str(exe), str(header)], check=True)
    arrays = {name: np.array(body.replace("\n", "").rstrip(",").split(","), dtype=np.int64)
              for name, body in re.findall(r"pe_(\w+)\[\d+\] = \{([^}]*)\};", header.read_text())}
    for field, view in TABLES._asdict().items():
        if field != "rank_weight":  # a constant in tables.c, not generated
            assert np.array_equal(arrays[field], view.astype(np.int64)), field

"""Valgrind memcheck of the C evaluator's entry points (benchmarks/c_entry_points.py).

    python benchmarks/valgrind_c.py              # runs valgrind (a few minutes), then reports
    python benchmarks/valgrind_c.py --log FILE   # only reads an existing valgrind log

CPython and cffi's module set-up produce reports of their own under valgrind (reads of
os.urandom bytes, one-time module allocations); this script counts every report and
the ones whose stack passes through pokereval's C code (eval.c, tables.c, the cffi
wrapper), and exits 1 if there is any of the latter.  Needs ``apt-get install valgrind``.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OURS = re.compile(r"\b(eval\.c|tables\.c|pokereval\._ffi\.c)")
KINDS = re.compile(r"(Invalid (read|write|free)|uninitialised|Conditional jump|definitely lost|"
                   r"Mismatched free|Syscall param|overlap)")


def reports(log: str):
    """Yield each valgrind report (a block of lines) of the log."""
    block: list[str] = []
    for line in log.splitlines():
        body = re.sub(r"^==\d+== ?", "", line)
        if not body.strip():
            if block:
                yield block
            block = []
        else:
            block.append(body)
    if block:
        yield block


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--log", help="read this valgrind log instead of running valgrind")
    args = parser.parse_args()
    log_path = args.log
    if log_path is None:
        log_path = str(ROOT / "valgrind-c.log")
        env = {**os.environ, "PYTHONMALLOC": "malloc"}
        subprocess.run(["valgrind", "--leak-check=full", "--errors-for-leak-kinds=definite",
                        "--num-callers=30", f"--log-file={log_path}", sys.executable,
                        str(ROOT / "benchmarks" / "c_entry_points.py"), "--rows", "100"],
                       env=env, check=True)
    text = Path(log_path).read_text(errors="replace")
    found = [b for b in reports(text) if KINDS.search(b[0])]
    ours = [b for b in found if any(OURS.search(line) for line in b)
            and not any("_cffi_init" in line for line in b)]  # cffi's own module set-up
    summary = re.findall(r"ERROR SUMMARY: .*", text)
    print(f"valgrind: {len(found)} reports in all ({summary[-1] if summary else 'no summary'}); "
          f"{len(ours)} in pokereval's C code")
    for block in ours:
        print("\n".join(block), "\n")
    return 1 if ours else 0


if __name__ == "__main__":
    sys.exit(main())

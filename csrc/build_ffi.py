"""cffi builder for pokereval's C evaluator (out-of-line API mode).

setup.py names this module in ``cffi_modules``; ``pip install .`` compiles csrc/*.c into
the extension ``pokereval._ffi``.

Build switches (environment variables):
  POKEREVAL_SANITIZE=1   compile with AddressSanitizer + UndefinedBehaviorSanitizer
                         (run Python with LD_PRELOAD=$(gcc -print-file-name=libasan.so)).
  POKEREVAL_CFLAGS="..." extra compiler flags, e.g. "-Werror".
"""
import os
import shlex
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent
SOURCES = ["tables.c", "eval.c", "board_exact.c", "stud_mc.c", "ranged_mc.c", "pair_high.c"]

flags = ["-O3", "-std=c99", "-Wall", "-Wextra", "-pthread"]
link = ["-pthread"]
if os.environ.get("POKEREVAL_SANITIZE") == "1":
    flags += ["-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined",
              "-fno-sanitize-recover=undefined"]
    link += ["-fsanitize=address,undefined"]
flags += shlex.split(os.environ.get("POKEREVAL_CFLAGS", ""))

ffibuilder = FFI()
ffibuilder.cdef((HERE / "pokereval.cdef").read_text())
ffibuilder.set_source(
    "pokereval._ffi",
    '#include "pokereval.h"',
    # setuptools wants source paths relative to setup.py
    sources=[os.path.relpath(HERE / s) for s in SOURCES],
    include_dirs=[os.path.relpath(HERE)],
    extra_compile_args=flags,
    extra_link_args=link,
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)

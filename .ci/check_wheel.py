#!/usr/bin/env python3
"""CI: the wheel holds the package and nothing else.

Allowed: pokereval/*.py and its subpackages' *.py (any depth), the web
page's static files, the compiled C extension
(pokereval/_ffi*.so), the py.typed marker, the Numba kernel cache that setup.py
fills at build time (pokereval/kernels/__pycache__/*.nbi, *.nbc) and the
dist-info (with LICENSE).  Every source file of the checkout's package must be there
(a subpackage missing from pyproject's package list fails here).

    python .ci/check_wheel.py dist/pokereval_hilo-*.whl
"""
import re
import sys
import zipfile
from pathlib import Path

ALLOWED = re.compile(r"""(
    pokereval/([a-z_]+/)*[a-z_0-9]+\.py
  | pokereval/web/static/[\w.-]+\.(html|css|js)
  | pokereval/orderings/[\w.-]+\.npz
  | pokereval/_ffi\.[\w.-]+\.(so|pyd)
  | pokereval/py\.typed
  | pokereval/kernels/__pycache__/[\w.-]+\.(nbi|nbc)
  | pokereval_hilo-[\w.]+\.dist-info/.+
)$""", re.X)
# every source file of the checkout's package (run from the repository root)
REQUIRED = sorted({p.as_posix() for p in Path("pokereval").rglob("*")
                   if p.is_file() and "__pycache__" not in p.parts
                   and p.suffix in (".py", ".typed", ".html", ".css", ".js", ".npz")})


def main(path: str) -> int:
    names = zipfile.ZipFile(path).namelist()
    stray = [n for n in names if not ALLOWED.match(n)]
    missing = [n for n in REQUIRED if n not in names]
    if not any(re.match(r"pokereval/_ffi\.", n) for n in names):
        missing.append("pokereval/_ffi.*.so")
    if not any(n.endswith("dist-info/licenses/LICENSE") or n.endswith("dist-info/LICENSE")
               for n in names):
        missing.append("LICENSE in dist-info")
    cache = sum(n.endswith(".nbi") for n in names)
    for n in stray:
        print(f"check_wheel: unexpected file {n}", file=sys.stderr)
    for n in missing:
        print(f"check_wheel: missing {n}", file=sys.stderr)
    print(f"check_wheel: {len(names)} files, {cache} cached kernels"
          + ("" if cache else " (kernel cache not filled at build time!)"))
    return 1 if stray or missing or not cache else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

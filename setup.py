"""Build pokereval's C evaluator through cffi (out-of-line API mode); see csrc/build_ffi.py.

The lookup tables are built once here, by a small C program (csrc/gen_tables.c), and
compiled into the module, so that importing pokereval does not build them (about 75 ms);
if that step fails the module builds them at import instead.

Then fill the Numba kernel cache (``python -m pokereval.warmup``) in the very
package that gets installed: the build folder for a wheel (``pip install .``),
the source tree for an editable install (``pip install -e .``).  The cache is
stamped with a hash of the kernel sources, not file times, so it stays valid
once copied into site-packages; a user's first query then loads machine code
instead of compiling for 5-40 s.  Set ``POKEREVAL_NO_WARMUP=1`` to skip it
(the kernels then compile on first use, with a notice on stderr).  The warm-up
compiles in one process per CPU (``POKEREVAL_WARMUP_JOBS=N`` to choose).
``POKEREVAL_KERNEL_CACHE_FROM=DIR`` (another checkout's
``pokereval/kernels/__pycache__``) first copies the entries of that cache that are
stamped with these very kernel sources and this Numba version (CI: the wheel reuses
the editable install's cache); the warm-up then loads them and compiles the rest.
"""
import os
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext


def generate_tables(compiler, build_temp: str) -> str:
    """Compile and run csrc/gen_tables.c with the extension's own compiler; return the
    folder holding the generated ``tables_prebuilt.h``."""
    out_dir = os.path.join(build_temp, "gen_tables")
    os.makedirs(out_dir, exist_ok=True)
    sources = [os.path.join("csrc", "gen_tables.c"), os.path.join("csrc", "tables.c")]
    objects = compiler.compile(sources, output_dir=out_dir, include_dirs=["csrc"],
                               extra_postargs=["-O2", "-std=c99"])
    compiler.link_executable(objects, "gen_tables", output_dir=out_dir)
    header = os.path.join(out_dir, "tables_prebuilt.h")
    subprocess.run([os.path.join(out_dir, compiler.executable_filename("gen_tables")), header],
                   check=True)
    return out_dir


def notice(line: str) -> None:
    """One line the user sees during ``pip install``: pip hides a build's output unless
    ``-v``, so the line goes to the terminal itself when there is one, and to the log."""
    print(line, flush=True)
    try:
        with open("/dev/tty", "w") as tty:
            tty.write(line + "\n")
    except OSError:  # no terminal (CI, a pipe): the log line above is all there is
        pass


class build_ext_and_kernel_cache(build_ext):
    def build_extensions(self):
        try:
            tables_dir = generate_tables(self.compiler, self.build_temp)
        except Exception as exc:  # an optimisation only: pe_init() then builds the tables
            print(f"pokereval: warning: tables not generated at build time ({exc}); "
                  "they will be built at import", file=sys.stderr)
        else:
            for ext in self.extensions:
                if ext.name == "pokereval._ffi":
                    ext.define_macros.append(("PE_PREBUILT_TABLES", None))
                    ext.include_dirs.append(tables_dir)
        super().build_extensions()

    def run(self):
        super().run()
        if os.environ.get("POKEREVAL_NO_WARMUP"):
            return
        # the folder holding the package as built: build/lib... or the source tree
        package_dir = os.path.dirname(os.path.abspath(self.get_ext_fullpath("pokereval._ffi")))
        root = os.path.dirname(package_dir)
        # keep the PYTHONPATH of pip's isolated build environment (its numba lives there)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
        env.pop("NUMBA_CACHE_DIR", None)  # the cache must land in the package itself
        reuse = os.environ.get("POKEREVAL_KERNEL_CACHE_FROM")
        notice(f"pokereval: compiling the Numba kernels once (about a minute on 2 cores; "
               f"pip shows 'Building wheel ... still running' meanwhile) into {package_dir}")
        proc = subprocess.run([sys.executable, "-m", "pokereval.warmup"]
                              + (["--reuse", os.path.abspath(reuse)] if reuse else []),
                              cwd=root, env=env)
        if proc.returncode != 0:  # an optimisation only: never fail the build for it
            print("pokereval: warning: the kernel cache was not filled; kernels will compile "
                  "on first use", file=sys.stderr)


setup(cffi_modules=["csrc/build_ffi.py:ffibuilder"],
      cmdclass={"build_ext": build_ext_and_kernel_cache})

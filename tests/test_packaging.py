"""Packaging and first-run plumbing: typed public API, one version source, the sdist
manifest, the content-stamped kernel cache, the warm-up registry, the compile notice."""
import hashlib
import inspect
import io
import os
import re
import sys
from pathlib import Path

import pytest

import pokereval as pe

ROOT = Path(__file__).resolve().parents[1]


#: the core API this check covers (the functions of later modules, distribution and
#: rules, are not annotated yet)
CORE = ["equity", "evaluate", "evaluate_batch", "parse_range", "parse_cards", "games",
        "get_game", "card_str", "cards_str"]


def _public_functions():
    for name in CORE:
        obj = getattr(pe, name)
        assert name in pe.__all__ and inspect.isfunction(obj)
        yield name, obj


@pytest.mark.parametrize("name,fn", list(_public_functions()))
def test_public_functions_are_annotated(name, fn):
    sig = inspect.signature(fn)
    missing = [p.name for p in sig.parameters.values()
               if p.annotation is inspect.Parameter.empty and p.kind not in (p.VAR_POSITIONAL,
                                                                           p.VAR_KEYWORD)]
    assert not missing, f"{name}: parameters without annotations: {missing}"
    assert sig.return_annotation is not inspect.Signature.empty, f"{name}: no return annotation"


def test_py_typed_marker_ships():
    assert (Path(pe.__file__).parent / "py.typed").is_file()
    text = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'pokereval\s*=\s*\["py.typed"\]', text)


def test_one_version_source():
    text = (ROOT / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in text and not re.search(r"^version\s*=\s*\"", text, re.M)
    assert 'attr = "pokereval._version.__version__"' in text
    version_file = (ROOT / "pokereval" / "_version.py").read_text()
    assert re.search(r'__version__ = "(\d+\.\d+\.\d+)"', version_file).group(1) == pe.__version__
    assert "__version__ =" not in (ROOT / "pokereval" / "__init__.py").read_text()


def test_license_and_manifest():
    assert "MIT License" in (ROOT / "LICENSE").read_text()
    manifest = (ROOT / "MANIFEST.in").read_text()
    for needed in ("graft csrc", "LICENSE", "graft tests"):
        assert needed in manifest
    # everything the C build reads is under csrc/
    assert {p.name for p in (ROOT / "csrc").iterdir()} >= {"build_ffi.py", "pokereval.cdef",
                                                          "pokereval.h", "tables.h"}


# --- kernel cache --------------------------------------------------------------

def test_kernel_cache_is_stamped_by_content():
    """The cache stamp is a hash of the kernel sources' contents (no file times), so a
    cache filled at build time stays valid when the files are copied."""
    from pokereval.kernels import exact
    from pokereval._kernel_cache import _KernelSourceStamp, kernel_source_hash

    locator = exact.stud_tables._cache._impl.locator
    assert isinstance(locator, _KernelSourceStamp)
    kernels = ROOT / "pokereval" / "kernels"
    digest = hashlib.sha256()
    for path in sorted(kernels.glob("*.py")):
        if path.name != "__init__.py":  # Python glue, no kernel: not stamped
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    assert kernel_source_hash() == digest.hexdigest()
    own = hashlib.sha256((kernels / "exact.py").read_bytes()).hexdigest()
    assert locator.get_source_stamp() == ("pokereval", digest.hexdigest(), own)


def test_foreign_functions_keep_numbas_locators():
    from pokereval._kernel_cache import _is_ours

    assert _is_ours(str(ROOT / "pokereval" / "kernels" / "exact.py"))
    assert not _is_ours(inspect.getfile(pytest))


def test_an_unreadable_index_of_ours_is_a_miss(tmp_path):
    """An index another version of the package wrote (its signatures name a class this
    version lacks) reads as empty, so the kernel is compiled and the index rewritten,
    instead of the load failing; other packages' indexes keep Numba's behaviour."""
    import pickle

    from numba.core.caching import IndexDataCacheFile

    from pokereval._kernel_cache import kernel_source_hash

    ours = ("pokereval", kernel_source_hash(), "x")
    cache = IndexDataCacheFile(str(tmp_path), "k-1.py311", ours)
    missing_class = b"\x80\x04cpokereval.kernels.no_such_module\nGameFlags\n."
    with pytest.raises(ModuleNotFoundError):
        pickle.loads(missing_class)
    with open(cache._index_path, "wb") as f:
        pickle.dump(cache._version, f)
        f.write(missing_class)
    assert cache._load_index() == {}
    cache.save("key", b"data")  # rewrites the index, which reads back
    assert cache.load("key") == b"data"
    with open(cache._index_path, "wb") as f:
        pickle.dump(cache._version, f)
        f.write(missing_class)
    foreign = IndexDataCacheFile(str(tmp_path), "k-1.py311", ("other", 1))
    with pytest.raises(ModuleNotFoundError):
        foreign._load_index()


def test_a_cached_kernel_loads_without_the_registry_refresh():
    """A fresh process answers a kernel spot from the cache without Numba's target-context
    refresh (it imports every lowering registry: numba.np.polynomial is one) nor the
    modules of the Numba functions linked in (numba.np.arrayobj), with the same answer
    as this process."""
    import json
    import os
    import subprocess

    spot = ("stud-hilo", ["AsKsQs", "2h3h4h", "9c9d9s"])
    code = ("import json, sys, pokereval as pe\n"
            f"r = pe.equity({spot[0]!r}, {spot[1]!r}, samples=4096, seed=3)\n"
            "print(json.dumps([[p.equity for p in r.players],"
            " 'numba.np.polynomial.polynomial_core' in sys.modules"
            " or 'numba.np.arrayobj' in sys.modules]))\n")
    env = dict(os.environ, POKEREVAL_QUIET_COMPILE="1",
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    first = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=env, timeout=600, check=True)  # fills the cache if cold
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=600, check=True)
    equities, refreshed = json.loads(proc.stdout)
    assert json.loads(first.stdout)[0] == equities
    assert not refreshed
    here = pe.equity(spot[0], spot[1], samples=4096, seed=3)
    assert equities == [p.equity for p in here.players]


def test_other_cached_functions_still_save_and_load(tmp_path):
    """With this package's cache hooks installed, a cached function of another module
    (Numba's own locators) still compiles, saves (its environments pickle by reference
    to Numba's function) and loads in the next process."""
    import os
    import subprocess

    (tmp_path / "elsewhere.py").write_text(
        "import numpy as np\nfrom numba import njit\n\n"
        "@njit(cache=True)\ndef total(n):\n    return np.arange(n).sum()\n")
    code = ("import pokereval.kernels, elsewhere\n"
            "print(elsewhere.total(10), elsewhere.total.stats.cache_hits)\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]),
               NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=env, timeout=600, cwd=tmp_path) for _ in range(2)]
    assert [r.returncode for r in runs] == [0, 0], runs[0].stderr + runs[1].stderr
    assert runs[0].stdout.split()[0] == runs[1].stdout.split()[0] == "45"
    assert runs[0].stdout.split(maxsplit=1)[1].strip() == "Counter()"  # compiled, saved
    assert runs[1].stdout.split(maxsplit=1)[1].strip() != "Counter()", runs[1].stdout  # loaded
    saved = [p.read_bytes() for p in (tmp_path / "cache").rglob("elsewhere.total-*")]
    assert saved and not any(b"pokereval" in data for data in saved)  # no trace of ours


def test_warmup_registry_reaches_every_kernel():
    """In a fresh process, the warm-up spots call every entry kernel (one no other kernel
    calls), so the build-time cache holds all of them.  A new kernel needs its spot in
    pokereval/warmup.py (loads from the cache: seconds; compiles when it is cold)."""
    import os
    import subprocess

    from pokereval import warmup as _warmup

    kernels = _warmup.cached_kernels()
    entries = _warmup.entry_kernels()
    assert "pokereval.kernels.exact.stud_tables" in entries
    assert "pokereval.kernels.exact._stud_fill" in kernels       # a callee ...
    assert "pokereval.kernels.exact._stud_fill" not in entries   # ... reached through its caller
    assert not any(name.endswith((".board_slot", ".ph")) for name in kernels)  # inlined helpers
    env = dict(os.environ, POKEREVAL_QUIET_COMPILE="1",
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    proc = subprocess.run([sys.executable, "-m", "pokereval.warmup"], capture_output=True,
                          text=True, env=env, timeout=1800)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "not compiled by any warm-up spot" not in proc.stdout


def test_compile_notice_is_one_line_with_an_estimate(capsys):
    from types import SimpleNamespace

    from pokereval.kernels import exact
    from pokereval._kernel_cache import _CompileNotice

    notice = _CompileNotice()
    notice.quiet = False
    outer = SimpleNamespace(data={"dispatcher": exact.stud_tables})
    inner = SimpleNamespace(data={"dispatcher": exact.sum_chunks})
    notice.on_start(outer)
    notice.on_start(inner)   # nested compile: no second line
    notice.on_end(inner)
    notice.on_end(outer)
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert re.fullmatch(r"pokereval: compiling the 'stud_tables' kernel once \(about \d+ s\); "
                        r"later runs load it from the cache\n", err)
    assert "stud_tables" in notice.log


def test_compile_notice_ignores_other_packages(capsys):
    from types import SimpleNamespace

    from pokereval._kernel_cache import _CompileNotice

    def foreign():
        pass

    notice = _CompileNotice()
    notice.quiet = False
    event = SimpleNamespace(data={"dispatcher": SimpleNamespace(py_func=foreign)})
    notice.on_start(event)
    notice.on_end(event)
    assert capsys.readouterr().err == ""


def test_install_notice_reaches_the_terminal():
    """pip hides a build's output, so setup.py's notice about the kernel warm-up writes to
    the terminal itself (issue 29 item 10): run its ``notice`` in a child whose
    controlling terminal is a pseudo-terminal, with stdout to a pipe as pip has it."""
    import ast
    import pty

    source = (ROOT / "setup.py").read_text(encoding="utf-8")
    func = next(n for n in ast.parse(source).body
                if isinstance(n, ast.FunctionDef) and n.name == "notice")
    code = ast.get_source_segment(source, func) + "\nnotice('pokereval: compiling the Numba kernels once')\n"
    pid, fd = pty.fork()
    if pid == 0:  # the child: its controlling terminal is the pty; stdout goes nowhere
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        try:
            exec(compile(code, "setup.py", "exec"), {})
        finally:
            os._exit(0)
    seen = b""
    while True:
        try:
            chunk = os.read(fd, 1024)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.waitpid(pid, 0)
    os.close(fd)
    assert b"compiling the Numba kernels once" in seen

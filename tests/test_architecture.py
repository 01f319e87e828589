"""The package's shape, checked from its source (docs/ARCHITECTURE.md, "Layers").

Every ``import`` in the package is read from the syntax tree (function-level imports
and ``importlib.import_module("pokereval....")`` with a literal name included; only
``if TYPE_CHECKING:`` blocks are left out, as they never run), and the tests fail on
an import cycle, on a private name taken from another module, on an import that
crosses a layer downwards-up, or on a module over the size limit.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pokereval"

#: Old import paths kept as thin re-exports for a release: nothing inside the package
#: may import them.
SHIMS = {"pokereval.equity_api", "pokereval.spot", "pokereval.results", "pokereval.distribution",
         "pokereval.breakdown", "pokereval.board_range", "pokereval.cli_rules",
         "pokereval.cli_web", "pokereval.cli_graph", "pokereval.cli_tables"}

#: Longest module (lines); the kernels listed may keep one long hot loop (their
#: docstrings say why).
MAX_LINES = 600
LONG_KERNELS: set[str] = set()

#: module prefix -> the prefixes it may never import (the layers, bottom to top:
#: base (errors, cards, games, _native, evaluate) < kernels < ranges, classes, percent
#: < equity < analysis, rules, tables < api, protocol < cli, web).
FORBIDDEN = {
    "pokereval.errors": ["pokereval."],
    "pokereval.cards": ["pokereval.games", "pokereval.evaluate", "pokereval.ranges",
                        "pokereval.equity", "pokereval.kernels"],
    "pokereval.games": ["pokereval.evaluate", "pokereval.ranges", "pokereval.equity",
                        "pokereval.kernels"],
    "pokereval.kernels": ["pokereval.ranges", "pokereval.equity", "pokereval.analysis",
                          "pokereval.api", "pokereval.protocol", "pokereval.cli",
                          "pokereval.web", "pokereval.rules", "pokereval.tables"],
    "pokereval.ranges": ["pokereval.equity", "pokereval.analysis", "pokereval.api",
                         "pokereval.protocol", "pokereval.cli", "pokereval.web",
                         "pokereval.rules", "pokereval.tables", "pokereval.kernels"],
    "pokereval.equity": ["pokereval.analysis", "pokereval.api", "pokereval.protocol",
                         "pokereval.cli", "pokereval.web", "pokereval.rules",
                         "pokereval.tables"],
    "pokereval.analysis": ["pokereval.api", "pokereval.protocol", "pokereval.cli",
                           "pokereval.web"],
    "pokereval.rules": ["pokereval.analysis", "pokereval.api", "pokereval.protocol",
                        "pokereval.cli", "pokereval.web"],
    "pokereval.tables": ["pokereval.api", "pokereval.protocol", "pokereval.cli",
                         "pokereval.web"],
    "pokereval.hh": ["pokereval.api", "pokereval.protocol", "pokereval.cli", "pokereval.web"],
    "pokereval.protocol": ["pokereval.cli", "pokereval.web"],
    "pokereval.query": ["pokereval.api", "pokereval.protocol", "pokereval.cli",
                        "pokereval.web"],
    "pokereval.web": ["pokereval.cli"],
}
#: What the single-hand evaluator may import (it must not load the range language).
EVALUATE_ALLOWED = {"pokereval.errors", "pokereval.cards", "pokereval.games", "pokereval._native"}
#: The faces reach the engine only through the front door and the protocol.
FACE_ALLOWED = ("pokereval.api", "pokereval.protocol", "pokereval.errors", "pokereval.cards",
                "pokereval.games", "pokereval._version", "pokereval.cli", "pokereval.web")


@dataclass
class Module:
    name: str
    path: Path
    is_package: bool
    imports: dict[str, list[int]] = field(default_factory=dict)  # module -> lines
    private: list[tuple[str, str, int]] = field(default_factory=list)  # (module, name, line)


def _module_names() -> dict[str, Module]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        name = ".".join(parts)
        found[name] = Module(name, path, is_package)
    return found


def _absolute(module: Module, level: int, target: str | None) -> str:
    if level == 0:
        return target or ""
    base = module.name.split(".")
    if not module.is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _walk_runtime(tree: ast.AST):
    """Every node, less the bodies of ``if TYPE_CHECKING:``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                stack.extend(child.orelse)
                continue
            stack.append(child)


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _scan(modules: dict[str, Module]) -> None:
    for module in modules.values():
        tree = ast.parse(module.path.read_text(encoding="utf-8"))
        aliases: dict[str, str] = {}  # local name -> pokereval module it is bound to

        def add(target: str, line: int) -> None:
            while target and target not in modules:  # a name inside a module
                target = target.rpartition(".")[0]
            if target and target != module.name:
                module.imports.setdefault(target, []).append(line)

        for node in _walk_runtime(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == "pokereval":
                        add(alias.name, node.lineno)
                        if alias.asname and alias.name in modules:
                            aliases[alias.asname] = alias.name
            elif isinstance(node, ast.ImportFrom):
                target = _absolute(module, node.level, node.module)
                if target.split(".")[0] != "pokereval":
                    continue
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    if sub in modules:
                        add(sub, node.lineno)
                        aliases[alias.asname or alias.name] = sub
                    else:
                        add(target, node.lineno)
                        if _is_private(alias.name) and target != module.name:
                            module.private.append((target, alias.name, node.lineno))
            elif isinstance(node, ast.Call):
                func = node.func
                if (isinstance(func, ast.Attribute) and func.attr == "import_module"
                        and node.args and isinstance(node.args[0], ast.Constant)
                        and isinstance(node.args[0].value, str)):
                    name = node.args[0].value
                    if name.startswith("."):
                        level = len(name) - len(name.lstrip("."))
                        name = _absolute(module, level, name.lstrip(".") or None)
                    if name.split(".")[0] == "pokereval":
                        add(name, node.lineno)
        # attribute reads of a private name through a module alias (``cli._dumps``)
        for node in _walk_runtime(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in aliases and _is_private(node.attr)
                    and f"{aliases[node.value.id]}.{node.attr}" not in modules
                    and aliases[node.value.id] != module.name):
                module.private.append((aliases[node.value.id], node.attr, node.lineno))


@pytest.fixture(scope="module")
def modules() -> dict[str, Module]:
    found = _module_names()
    _scan(found)
    return found


def _cycles(modules: dict[str, Module]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in modules[v].imports:
            # a package's __init__ importing its own submodules is not a cycle
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for name in sorted(modules):
        if name not in index:
            visit(name)
    return found


def test_the_scan_sees_imports(modules: dict[str, Module]) -> None:
    # the scan must find what is plainly there, or every test below passes vacuously
    assert "pokereval.cards" in modules["pokereval.evaluate"].imports
    assert "pokereval.errors" in modules["pokereval.cards"].imports
    assert sum(len(m.imports) for m in modules.values()) > 100


def test_no_import_cycles(modules: dict[str, Module]) -> None:
    graph = {name: m for name, m in modules.items() if name != "pokereval"}
    for m in graph.values():  # the top-level package only re-exports (lazily)
        m.imports.pop("pokereval", None)
    cycles = _cycles(graph)
    assert not cycles, "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_no_private_names_across_modules(modules: dict[str, Module]) -> None:
    found = [f"{m.name}:{line} takes {target}.{name}"
             for m in modules.values() for target, name, line in m.private]
    assert not found, f"{len(found)} private names imported across modules:\n" + "\n".join(found)


def test_layers(modules: dict[str, Module]) -> None:
    found = []
    for m in modules.values():
        for prefix, forbidden in FORBIDDEN.items():
            if not (m.name == prefix or m.name.startswith(prefix + ".")):
                continue
            for target, lines in m.imports.items():
                if any(target == f or target.startswith(f if f.endswith(".") else f + ".")
                       or target == f.rstrip(".") for f in forbidden):
                    if not target.startswith(prefix):
                        found.append(f"{m.name}:{lines[0]} imports {target}")
    evaluate = modules["pokereval.evaluate"]
    found += [f"pokereval.evaluate:{lines[0]} imports {t}"
              for t, lines in evaluate.imports.items() if t not in EVALUATE_ALLOWED]
    for m in modules.values():
        if m.name.startswith(("pokereval.cli", "pokereval.web")) and m.name not in SHIMS:
            found += [f"{m.name}:{lines[0]} imports {t}" for t, lines in m.imports.items()
                      if not t.startswith(FACE_ALLOWED)]
    found += [f"{m.name}:{lines[0]} imports the old path {t}"
              for m in modules.values() if m.name not in SHIMS and m.name != "pokereval"
              for t, lines in m.imports.items() if t in SHIMS]
    assert not found, f"{len(found)} imports across layers:\n" + "\n".join(sorted(found))


def test_module_size(modules: dict[str, Module]) -> None:
    found = []
    for m in modules.values():
        lines = len(m.path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES and m.name not in LONG_KERNELS:
            found.append(f"{m.name}: {lines} lines")
    assert not found, f"modules over {MAX_LINES} lines: " + ", ".join(found)


def test_long_kernels_say_why(modules: dict[str, Module]) -> None:
    for name in LONG_KERNELS:
        doc = ast.get_docstring(ast.parse(modules[name].path.read_text(encoding="utf-8"))) or ""
        assert "hot loop" in doc, f"{name} is over {MAX_LINES} lines without saying why"


def test_the_checks_can_fail(tmp_path: Path) -> None:
    # a hand-made package with a cycle and private names: the scan must report both
    sources = {
        "pokereval.equity.a": "from . import b\nfrom .b import _hidden\n",
        "pokereval.equity.b": "def f():\n    import pokereval.equity.a as a\n    return a._x\n",
    }
    fake = {}
    for name, text in sources.items():
        path = tmp_path / (name.replace(".", "_") + ".py")
        path.write_text(text)
        fake[name] = Module(name, path, False)
    _scan(fake)
    assert _cycles(fake) == [["pokereval.equity.a", "pokereval.equity.b"]]
    assert fake["pokereval.equity.a"].private == [("pokereval.equity.b", "_hidden", 2)]
    assert fake["pokereval.equity.b"].private == [("pokereval.equity.a", "_x", 3)]

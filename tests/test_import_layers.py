"""The package's import graph, read from the modules' own import statements (``ast``; imports inside
functions count too): imports point down the layers, and no import cycle spans two folders.

The layers, lowest first (README, Layout)::

    0  errors.py, progress.py, long_ints.py          (no shardy_py import but each other)
    1  ir/                                           values, ops, attributes, types
    2  dialects/, syntax/                            op declarations; reading and printing text
    3  verify/, rules/, passes/, hlo/, interop/,     what works on the IR
       interpreter/, builder.py, priorities.py
    4  show/, explanation/, cost/, simulation/,      pictures, explanations, costs, simulated runs,
       strategies/                                   test strategies
    5  cli.py, __main__.py, __init__.py and every    the command line and the package's face
       folder's command module (``command.py``,
       ``*_command.py``)

A module may import modules of its own layer or of lower ones; only the command line imports a
command module.  Imports made only for type checking (``if TYPE_CHECKING:``) are not counted: they
run never.  Run as a script for the summary: ``python tests/test_import_layers.py``.
"""
from __future__ import annotations

import ast
import functools
from collections import defaultdict
from pathlib import Path

PACKAGE = "shardy_py"
ROOT = Path(__file__).resolve().parent.parent
#: The layer of each folder (``shardy_py/<folder>/``, subfolders included) or top-level module.
LAYERS: dict[str, int] = {
    "errors.py": 0, "progress.py": 0, "long_ints.py": 0,
    "ir": 1,
    "dialects": 2, "syntax": 2,
    "verify": 3, "rules": 3, "passes": 3, "hlo": 3, "interop": 3, "interpreter": 3, "builder.py": 3,
    "priorities.py": 3,
    "show": 4, "explanation": 4, "cost": 4, "simulation": 4, "strategies": 4,
    "cli.py": 5, "__main__.py": 5, "__init__.py": 5,
}


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the package: dotted name -> file."""
    out = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        rel = path.relative_to(root).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of the import nodes under ``if TYPE_CHECKING:``."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            for stmt in node.body:
                out.update(id(n) for n in ast.walk(stmt))
    return out


def imported_modules(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package modules that ``name`` (at ``path``) imports, anywhere in its code (in functions
    too): ``import a.b`` names ``a.b``; ``from a.b import c`` names ``a.b.c`` when that is a module,
    else ``a.b``."""
    tree = ast.parse(path.read_text(), str(path))
    is_package = path.name == "__init__.py"
    skip = _type_checking_only(tree)
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == PACKAGE:
                    out.add(_nearest(alias.name, modules))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = name.split(".") if is_package else name.split(".")[:-1]
                parent = parent[:len(parent) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            if base.split(".")[0] != PACKAGE:
                continue
            for alias in node.names:
                full = f"{base}.{alias.name}"
                out.add(full if full in modules else _nearest(base, modules))
    out.discard(name)
    return out


def _nearest(dotted: str, modules: dict[str, Path]) -> str:
    """``dotted`` or the longest prefix of it that is a module."""
    parts = dotted.split(".")
    while parts and ".".join(parts) not in modules:
        parts.pop()
    return ".".join(parts)


@functools.cache
def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the package modules it imports (read once per run)."""
    modules = module_files(root)
    return {name: imported_modules(name, path, modules) for name, path in modules.items()}


def is_command(module: str) -> bool:
    """A folder's command-line command (``verify/command.py``, ``passes/opt_command.py``)."""
    last = module.rsplit(".", 1)[-1]
    return last == "command" or last.endswith("_command")


def unit(module: str) -> str:
    """The key of ``LAYERS`` a module falls under."""
    if is_command(module):
        return "cli.py"
    parts = module.split(".")
    if len(parts) == 1:
        return "__init__.py"
    if len(parts) == 2 and (ROOT / PACKAGE / f"{parts[1]}.py").exists():
        return f"{parts[1]}.py"
    return parts[1]


def folder(module: str) -> str:
    """The folder a module's file sits in (a package's ``__init__`` in its own folder)."""
    if not _FOLDERS:
        _FOLDERS.update({m: str(p.parent.relative_to(ROOT)) for m, p in module_files().items()})
    return _FOLDERS[module]


_FOLDERS: dict[str, str] = {}


def layer(module: str) -> int:
    return LAYERS[unit(module)]


def upward_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """(importer, imported) pairs where a lower layer imports a higher one."""
    return sorted((a, b) for a, bs in graph.items() for b in bs if layer(b) > layer(a))


def command_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """(importer, command module) pairs where a module outside the command line imports a command."""
    return sorted((a, b) for a, bs in graph.items() for b in bs if is_command(b) and layer(a) < layer(b))


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    advanced = True
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def cross_folder_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Import cycles whose modules sit in more than one folder."""
    return [c for c in cycles(graph) if len({folder(m) for m in c}) > 1]


def summary(graph: dict[str, set[str]]) -> str:
    """What the tests below check, in words."""
    edges = sum(len(v) for v in graph.values())
    ups = upward_imports(graph)
    all_cycles = cycles(graph)
    cross = cross_folder_cycles(graph)
    per_layer: dict[int, int] = defaultdict(int)
    for m in graph:
        per_layer[layer(m)] += 1
    lines = [f"{len(graph)} modules, {edges} imports between them",
             "modules per layer: " + ", ".join(f"{k}: {per_layer[k]}" for k in sorted(per_layer)),
             f"imports that point up a layer: {len(ups)}"]
    lines += [f"  {a} (layer {layer(a)}) -> {b} (layer {layer(b)})" for a, b in ups]
    lines.append(f"imports of a command from outside the command line: {len(command_imports(graph))}")
    lines.append(f"import cycles: {len(all_cycles)} ({len(cross)} spanning two folders or more)")
    for c in all_cycles:
        folders = sorted({folder(m) for m in c})
        lines.append(f"  {len(c)} modules in {', '.join(folders)}: {', '.join(c[:6])}{' ...' if len(c) > 6 else ''}")
    return "\n".join(lines)


def test_every_module_has_a_layer():
    graph = import_graph()
    assert sorted({unit(m) for m in graph} - LAYERS.keys()) == []


def test_the_graph_reads_function_level_imports(tmp_path):
    pkg = tmp_path / PACKAGE
    (pkg / "ir").mkdir(parents=True)
    (pkg / "syntax").mkdir()
    for p in (pkg / "__init__.py", pkg / "ir" / "__init__.py", pkg / "syntax" / "__init__.py",
              pkg / "syntax" / "printer.py"):
        p.write_text("")
    (pkg / "ir" / "ops.py").write_text("def f():\n    from shardy_py.syntax import printer\n    return printer\n")
    graph = {n: imported_modules(n, p, module_files(tmp_path)) for n, p in module_files(tmp_path).items()}
    assert graph["shardy_py.ir.ops"] == {"shardy_py.syntax.printer"}
    assert upward_imports(graph) == [("shardy_py.ir.ops", "shardy_py.syntax.printer")]


def test_the_cycle_finder_finds_a_cycle_across_two_folders():
    graph = {"shardy_py.ir.a": {"shardy_py.syntax.b"}, "shardy_py.syntax.b": {"shardy_py.ir.a"}}
    folder("shardy_py.ir.ops")  # (the package's folders read first)
    _FOLDERS.update({"shardy_py.ir.a": "shardy_py/ir", "shardy_py.syntax.b": "shardy_py/syntax"})
    assert cycles(graph) == [["shardy_py.ir.a", "shardy_py.syntax.b"]]
    assert cross_folder_cycles(graph) == [["shardy_py.ir.a", "shardy_py.syntax.b"]]


def test_no_module_imports_a_higher_layer():
    assert upward_imports(import_graph()) == []


def test_no_import_cycle_spans_two_folders():
    assert cross_folder_cycles(import_graph()) == []


def test_only_the_command_line_imports_a_command():
    assert command_imports(import_graph()) == []


def test_the_ir_imports_nothing_above_it():
    """(Printing and pictures reach the IR through ``ir/hooks.py``, installed by ``shardy_py/__init__.py``.)"""
    graph = import_graph()
    assert sorted((a, b) for a, bs in graph.items() if unit(a) == "ir" for b in bs if unit(b) != "ir"
                  and layer(b) > 0) == []


if __name__ == "__main__":
    print(summary(import_graph()))

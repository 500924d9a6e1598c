"""Functions and calls as Shardy's passes see them (``ir/utils.cc``): the callee of a
``func.call``, the call graph in MLIR's ``CallGraph`` order (``walkCalls``, ``iterateFuncs``), a
symbol table that uniquifies names as MLIR's ``SymbolTable::insert`` does, recursive function
cloning, and the shardings of a function's arguments and results."""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from shardy_py.ir.attr_text import quote_string, unescape_string
from shardy_py.ir.attrs import (
    DimensionShardingAttr,
    MeshAttr,
    OpaqueAttr,
    TensorShardingAttr,
    TensorShardingPerValueAttr,
)
from shardy_py.ir.module import Module
from shardy_py.ir.ops import Operation
from shardy_py.passes.data_flow import SHARDING, set_attribute

ORIGINAL_FUNC_NAME = "sdy.original_func_name"
EXECUTION_THREAD = "execution_thread"

_SYMBOL = re.compile(r'@("(?:[^"\\]|\\.)*"|[A-Za-z_$.\-0-9]+)')


def _bare(symbol: str) -> str:
    """``@foo`` / ``@"a b"`` / ``foo`` -> ``foo`` / ``a b`` (escapes such as ``\22`` decoded)."""
    symbol = symbol[1:] if symbol.startswith("@") else symbol
    if symbol.startswith('"') and symbol.endswith('"') and len(symbol) >= 2:
        symbol = unescape_string(symbol[1:-1])
    return symbol


def _written(name: str) -> str:
    """How MLIR writes symbol ``name`` after ``@`` (quoted and escaped unless an identifier)."""
    return name if re.fullmatch(r"[A-Za-z_][\w$.\-]*", name) else quote_string(name)


def callee_of(call: Operation) -> str:
    """The name of the function ``call`` (a ``func.call``) calls, without ``@``."""
    callee = call.properties.get("callee") if call.properties else None
    if callee is not None:
        return _bare(callee.text if isinstance(callee, OpaqueAttr) else str(callee))
    for piece in call._pieces or ():
        if isinstance(piece, str):
            m = _SYMBOL.search(piece)
            if m:
                return _bare(m.group(0))
    raise ValueError(f"cannot find the callee of {call!r}")


def set_callee(call: Operation, name: str) -> None:
    """Make ``call`` call function ``name`` (MLIR's ``CallOp::setCallee``)."""
    callee = call.properties.get("callee") if call.properties else None
    if callee is not None:
        if isinstance(callee, OpaqueAttr):
            call.properties["callee"] = OpaqueAttr("@" + _written(name))
        elif isinstance(callee, str) and callee.startswith("@"):
            call.properties["callee"] = "@" + _written(name)
        else:
            call.properties["callee"] = name
        return
    pieces = list(call._pieces or ())
    for i, piece in enumerate(pieces):
        if isinstance(piece, str) and _SYMBOL.search(piece):
            pieces[i] = _SYMBOL.sub(lambda _m: "@" + _written(name), piece, count=1)
            call._pieces = pieces
            return
    raise ValueError(f"cannot find the callee of {call!r}")


def sym_name(func: Operation) -> str:
    """The symbol name of a ``func.func``."""
    return func.properties["sym_name"]


def has_body(func: Operation) -> bool:
    """Whether ``func`` is a definition (a declaration has an empty region)."""
    return bool(func.regions) and bool(func.regions[0].blocks)


class SymbolTable:
    """The ``func.func`` symbols of a module, as MLIR's ``SymbolTable`` over the module body."""

    def __init__(self, module: Module):
        self.module = module
        self.table: dict[str, Operation] = {}
        #: MLIR's ``uniquingCounter``: one counter for every renaming this table does.
        self.counter = 0
        for op in module.ops:
            name = op.properties.get("sym_name") if op.properties else None
            if isinstance(name, str):
                self.table.setdefault(name, op)

    def lookup(self, name: str) -> Operation | None:
        return self.table.get(name)

    def lookup_func(self, name: str) -> Operation:
        """``getFuncOpOrDie``: the function named ``name`` (ValueError when missing)."""
        op = self.table.get(name)
        if op is None or op.name != "func.func":
            raise ValueError(f"Failed to lookup function: {name}")
        return op

    def insert(self, op: Operation) -> str:
        """Put the detached ``op`` at the end of the module and return its name, renamed
        ``name_N`` when ``name`` is taken (N from one counter of the table)."""
        from shardy_py.ir.edit import insert

        insert(self.module.body, len(self.module.body.ops), op)
        name = op.properties["sym_name"]
        if self.table.setdefault(name, op) is op:
            return name
        while True:
            candidate = f"{name}_{self.counter}"
            self.counter += 1
            if candidate not in self.table:
                self.table[candidate] = op
                op.properties["sym_name"] = candidate
                return candidate

    def erase(self, op: Operation) -> None:
        """Remove ``op`` from the table and erase it."""
        name = op.properties["sym_name"]
        if self.table.get(name) is op:
            del self.table[name]
        op.erase()


def _callable_nodes(module: Module) -> list[Operation]:
    return [op for op in module.ops if op.name == "func.func" and has_body(op)]


def funcs_in_call_graph_order(module: Module, pre_order: bool = False) -> list[Operation]:
    """The defined functions in the order ``iterateFuncs`` visits them: MLIR's ``CallGraph``
    traversed in reverse post-order from its external node (``pre_order``: callers first), or
    in post-order (callees first)."""
    nodes = _callable_nodes(module)
    table = SymbolTable(module)
    edges: dict[int, list[Operation]] = {}
    for func in nodes:
        targets = []
        for op in _walk_regions(func):
            if op.name == "func.call":
                target = table.lookup(callee_of(op))
                if target is not None and target.name == "func.func" and has_body(target):
                    targets.append(target)
        edges[id(func)] = targets
    post: list[Operation] = []
    seen: set[int] = set()
    for root in nodes:
        if id(root) in seen:
            continue
        seen.add(id(root))
        stack = [(root, iter(edges[id(root)]))]
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                post.append(node)
            elif id(child) not in seen:
                seen.add(id(child))
                stack.append((child, iter(edges[id(child)])))
    return list(reversed(post)) if pre_order else post


def _walk_regions(op: Operation) -> Iterator[Operation]:
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                yield from inner.walk()


def walk_calls(module: Module, process: Callable[[Operation], None], pre_order: bool = False) -> None:
    """``walkCalls``: ``process`` every ``func.call`` of every defined function, functions in call
    graph order (see ``funcs_in_call_graph_order``), calls in each body in program order.  The
    calls of a body are listed before any is processed; ops ``process`` adds are not visited."""
    for func in funcs_in_call_graph_order(module, pre_order):
        for op in [op for op in _walk_regions(func) if op.name == "func.call"]:
            process(op)


def clone_func_recursively(func: Operation, table: SymbolTable) -> Operation:
    """``cloneFuncRecursively``: a detached copy of ``func`` recording its original name, whose
    calls call fresh (inserted) recursive copies of their callees."""
    from shardy_py.ir.edit import clone

    copy = clone(func)
    set_attribute(copy, ORIGINAL_FUNC_NAME, OpaqueAttr(_string(original_func_name(func))))
    for op in [op for op in _walk_regions(copy) if op.name == "func.call"]:
        callee = table.lookup_func(callee_of(op))
        set_callee(op, table.insert(clone_func_recursively(callee, table)))
    return copy


def _string(text: str) -> str:
    """A string attribute as MLIR prints it (``printEscapedString``)."""
    return quote_string(text)


def original_func_name(func: Operation) -> str:
    """``getOriginalFuncName``: the ``sdy.original_func_name`` string, else the symbol name."""
    attr = func.attributes.get(ORIGINAL_FUNC_NAME) if func.attributes else None
    if isinstance(attr, OpaqueAttr) and attr.text.startswith('"') and attr.text.endswith('"'):
        return unescape_string(attr.text[1:-1])
    return sym_name(func)


def arg_sharding(func: Operation, index: int) -> TensorShardingAttr | None:
    """The ``sdy.sharding`` of argument ``index`` of ``func``."""
    if has_body(func):
        s = func.regions[0].blocks[0].arguments[index].attributes.get(SHARDING)
    else:
        s = (func.properties.get("arg_attrs") or [{}] * (index + 1))[index].get(SHARDING)
    return s if isinstance(s, TensorShardingAttr) else None


def result_sharding(func: Operation, index: int) -> TensorShardingAttr | None:
    """The ``sdy.sharding`` of result ``index`` of ``func``."""
    res_attrs = func.properties.get("res_attrs") or []
    s = res_attrs[index].get(SHARDING) if index < len(res_attrs) and res_attrs[index] else None
    return s if isinstance(s, TensorShardingAttr) else None


def fully_open(mesh_or_ref, rank: int) -> TensorShardingAttr:
    """``TensorShardingAttr::getFullyOpen``."""
    return TensorShardingAttr(mesh_or_ref, tuple(DimensionShardingAttr((), is_closed=False) for _ in range(rank)))


def _rank(type_) -> int:
    shape = getattr(type_, "shape", None)
    return len(shape) if shape is not None else 0


def _per_value(module: Module, shardings: list[TensorShardingAttr | None], types, mesh_of=None) -> \
        TensorShardingPerValueAttr | None:
    mesh_of = mesh_of or module.resolve_mesh
    mesh_or_ref = None
    for s in shardings:
        if s is not None:
            mesh = mesh_of(s)
            if mesh is not None and not mesh.is_maximal:
                mesh_or_ref = s.mesh_or_ref
                break
    if mesh_or_ref is None:
        return None
    return TensorShardingPerValueAttr(tuple(
        s if s is not None else fully_open(mesh_or_ref, _rank(t)) for s, t in zip(shardings, types, strict=True)))


def func_arg_shardings(func: Operation, module: Module, mesh_of: MeshOf | None = None) -> \
        TensorShardingPerValueAttr | None:
    """``getFuncArgShardings``: one sharding per argument (fully open where missing) on the mesh of
    the first argument sharded on a non-maximal mesh; None when there is none.  ``mesh_of``
    resolves a sharding's mesh (default ``module.resolve_mesh``, which looks through the module's
    ops each time; a pass calling this per function passes ``MeshTable(module).mesh_of``)."""
    types = func.properties["arg_types"]
    return _per_value(module, [arg_sharding(func, i) for i in range(len(types))], types, mesh_of)


def func_result_shardings(func: Operation, module: Module, mesh_of: MeshOf | None = None) -> \
        TensorShardingPerValueAttr | None:
    """``getFuncResultShardings``: as ``func_arg_shardings`` for the results."""
    types = func.properties["result_types"]
    return _per_value(module, [result_sharding(func, i) for i in range(len(types))], types, mesh_of)


#: Resolves the mesh of a sharding (``Module.resolve_mesh``, ``MeshTable.mesh_of``).
MeshOf = Callable[[TensorShardingAttr], MeshAttr | None]


def sharding_per_value(op: Operation) -> TensorShardingPerValueAttr | None:
    """``getShardingPerValue``: the op's ``sdy.sharding`` when it is a per-value sharding."""
    s = op.attributes.get(SHARDING) if op.attributes else None
    return s if isinstance(s, TensorShardingPerValueAttr) else None


__all__ = [
    "SymbolTable", "arg_sharding", "callee_of", "clone_func_recursively", "func_arg_shardings",
    "func_result_shardings", "funcs_in_call_graph_order", "original_func_name", "result_sharding",
    "set_attribute", "set_callee", "sharding_per_value", "walk_calls",
]

"""Reading the propagation debug attributes back: the places a sharding lives (``Node``: a value
or a function result), their ``sdy.sharding_origins`` and ``sdy.propagation_edges``, and the user
shardings the origin names (``"input: 0"``, ``"constraint_1"``, ``"mc_0_output: 2"``) stand for,
with their priorities from the module before propagation when it is known."""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from shardy_py.ir.attrs import (
    AxisRefAttr,
    OpaqueAttr,
    PropagationEdgesAttr,
    TensorShardingAttr,
    TensorShardingPerValueAttr,
)
from shardy_py.ir.builtin_attrs import ArrayAttr, DictionaryAttr, StringAttr
from shardy_py.ir.module import Module
from shardy_py.ir.ops import Block, Location, Operation, Value
from shardy_py.ir.walk import walk_post_order
from shardy_py.passes.func_calls import result_sharding
from shardy_py.passes.propagation.debugging.source_sharding import axis_key
from shardy_py.passes.shardings import get_sharding
from shardy_py.verify.axes import overlaps

ORIGINS = "sdy.sharding_origins"
EDGES = "sdy.propagation_edges"
ORIGIN_NAME = "sdy.sharding_origin_name"
#: Ops whose single result's origins are one dictionary, not an array per result.
DICT_ORIGIN_OPS = ("sdy.sharding_constraint", "sdy.reshard", "sdy.data_flow_edge")
CONSTRAINT_OPS = ("sdy.sharding_constraint", "sdy.reshard")


def as_builtin(attr):
    """An ``OpaqueAttr`` holding a dictionary, array or string (as parsed) read as a builtin attribute."""
    if isinstance(attr, OpaqueAttr):
        from shardy_py.syntax.attr_reader import parse_attribute

        return parse_attribute(attr.text)
    return attr


def axis_text(axis: AxisRefAttr) -> str:
    """``"a"`` or ``"a":(1)2``, as shardings print axes."""
    info = axis.sub_axis_info
    return f'"{axis.name}"' if info is None else f'"{axis.name}":({info.pre_size}){info.size}'


def _unescape(name: str) -> str:
    """A name as ``sdy.sharding_origins`` keys write it (MLIR's escapes kept) read back."""
    return re.sub(r"\\([0-9A-Fa-f]{2}|\\)", lambda m: "\\" if m.group(1) == "\\" else chr(int(m.group(1), 16)), name)


def parse_axis_key(key: str) -> AxisRefAttr:
    """The axis of an ``sdy.sharding_origins`` key."""
    from shardy_py.ir.attrs import SubAxisInfoAttr

    m = re.fullmatch(r"(.*):\((\d+)\)(\d+)", key)
    if m is None:
        return AxisRefAttr(_unescape(key))
    return AxisRefAttr(_unescape(m.group(1)), SubAxisInfoAttr(int(m.group(2)), int(m.group(3))))


def enclosing_func(op: Operation | None) -> Operation | None:
    while op is not None and op.name != "func.func":
        op = op.parent_op
    return op


@dataclass(frozen=True, eq=False)
class Node:
    """Where a sharding lives: ``value``, or result ``result`` of function ``func``."""

    value: Value | None = None
    func: Operation | None = None
    result: int | None = None

    @property
    def is_func_result(self) -> bool:
        return self.value is None

    def same(self, other: Node) -> bool:
        if self.value is not None:
            return other.value is self.value
        return other.func is self.func and other.result == self.result

    @property
    def owner(self) -> Operation | None:
        """The op defining the value, or holding it as a block argument (the function for a result)."""
        if self.value is None:
            return self.func
        owner = self.value.owner
        if isinstance(owner, Block):
            return owner.parent.parent if owner.parent is not None else None
        return owner

    @property
    def loc(self) -> Location | None:
        if self.value is None:
            terminator = _terminator(self.func)
            return terminator.loc if terminator is not None else self.func.loc
        if self.value.loc is None and not isinstance(self.value.owner, Block):
            return self.value.owner.loc  # a result of an op the pipeline rebuilt (a func.call)
        return self.value.loc

    @property
    def label(self) -> str:
        """``argument 0 (%w) of @main``, ``result 0 of @main``, ``%3 (stablehlo.gather)``."""
        if self.value is None:
            return f"result {self.result} of @{func_name(self.func)}"
        owner = self.owner
        name = self.value.name or "a value"
        if owner is not None and owner.name == "func.func" and isinstance(self.value.owner, Block):
            return f"argument {self.value.index} ({name}) of @{func_name(owner)}"
        if isinstance(self.value.owner, Block):
            return f"block argument {self.value.index} ({name}) of {owner.name if owner else '?'}"
        if not self.value.name:
            if owner.name == "func.call":
                from shardy_py.passes.func_calls import callee_of

                return f"result {self.value.index} of func.call @{callee_of(owner)}"
            return f"result {self.value.index} of {owner.name}"
        return f"{name} ({owner.name})"

    def sharding(self) -> TensorShardingAttr | None:
        if self.value is None:
            return result_sharding(self.func, self.result)
        return get_sharding(self.value)

    def own_origin_name(self) -> str | None:
        """The origin name this node stands for itself (what its ``"self"`` means)."""
        if self.value is None:
            return f"output: {self.result}"
        owner = self.owner
        if owner is None:
            return None
        if owner.name == "func.func" and isinstance(self.value.owner, Block):
            return f"input: {self.value.index}"
        name = as_builtin(owner.attributes_view.get(ORIGIN_NAME))
        if not isinstance(name, StringAttr):
            return None
        if owner.name in CONSTRAINT_OPS:
            return name.value
        if owner.name == "sdy.manual_computation":
            side = "input" if isinstance(self.value.owner, Block) else "output"
            return f"{name.value}_{side}: {self.value.index}"
        return None

    def origins(self) -> dict[str, str] | None:
        """Axis key -> origin name (``"self"`` replaced by the node's own name); None when the
        module carries no origins for it (``{}``: jaxlib 0.12 sinks one for an edge without origins)."""
        raw = self._raw_origins()
        if not isinstance(raw, DictionaryAttr) or not raw.entries:
            return None
        own = self.own_origin_name()
        out = {}
        for key, value in raw.entries:
            text = value.value if isinstance(value, StringAttr) else str(value)
            out[key] = own if text == "self" and own is not None else text
        return out

    def _raw_origins(self):
        if self.value is None:
            attrs = (self.func.properties.get("res_attrs") or [])
            entry = attrs[self.result] if self.result < len(attrs) and attrs[self.result] else {}
            return as_builtin(entry.get(ORIGINS))
        owner = self.owner
        if owner is None:
            return None
        if owner.name == "func.func" and isinstance(self.value.owner, Block):
            return as_builtin(self.value.attributes.get(ORIGINS))
        if isinstance(self.value.owner, Block):
            return _indexed(as_builtin(owner.attributes_view.get("sdy.block_arg_sharding_origins")),
                            self.value.index, list(self.value.owner.arguments))
        if owner.name in DICT_ORIGIN_OPS:
            return as_builtin(owner.attributes_view.get(ORIGINS))
        found = as_builtin(owner.attributes_view.get(ORIGINS))
        if found is None:
            found = as_builtin(owner.attributes_view.get("sdy.result_sharding_origins"))
        return _indexed(found, self.value.index, list(owner.results))


def _axis_keys(value: Value) -> set[str]:
    sharding = get_sharding(value)
    return {axis_key(a) for d in sharding.dim_shardings for a in d.axes} if sharding is not None else set()


def _indexed(array, index: int, values: list[Value]):
    """Entry ``index`` of a per-value array.  Shardy leaves out the entries of a data-flow op's
    arrays whose edge recorded no origins, so a shorter array is matched to the values that have
    axes, in order, and only when that is unambiguous: as many entries as such values, each naming
    exactly its value's axes (else None)."""
    if not isinstance(array, ArrayAttr):
        return None
    if len(array) == len(values):
        return array[index]
    sharded = [i for i, v in enumerate(values) if _axis_keys(v)]
    if index not in sharded or len(sharded) != len(array):
        return None
    for i, entry in zip(sharded, array, strict=True):
        if not isinstance(entry, DictionaryAttr) or {k for k, _ in entry.entries} != _axis_keys(values[i]):
            return None
    return array[sharded.index(index)]


def func_name(func: Operation) -> str:
    return str(func.properties.get("sym_name", "?"))


def _terminator(func: Operation | None) -> Operation | None:
    if func is None or not func.regions or not func.regions[0].blocks or not func.regions[0].blocks[0].ops:
        return None
    return func.regions[0].blocks[0].ops[-1]


def returned_value(node: Node) -> Value | None:
    terminator = _terminator(node.func)
    if terminator is None or node.result >= len(terminator.operands):
        return None
    return terminator.operands[node.result]


def edges_of(op: Operation) -> PropagationEdgesAttr | None:
    attr = op.attributes_view.get(EDGES)
    return attr if isinstance(attr, PropagationEdgesAttr) else None


def result_edges(func: Operation, index: int) -> PropagationEdgesAttr | None:
    attrs = func.properties.get("res_attrs") or []
    entry = attrs[index] if index < len(attrs) and attrs[index] else {}
    attr = entry.get(EDGES)
    return attr if isinstance(attr, PropagationEdgesAttr) else None


def iter_edge_entries(edges: PropagationEdgesAttr | None, axis: AxisRefAttr) -> Iterator[tuple[int, object]]:
    """(step, entry) of the entries of ``edges`` for ``axis`` (or an axis overlapping it)."""
    if edges is None:
        return
    for step in edges.value:
        for entry in step.axis_entries:
            if entry.axis_name == axis or overlaps(entry.axis_name, axis):
                yield step.step_index, entry


def lookup_origin(origins: dict[str, str] | None, axis: AxisRefAttr) -> str | None:
    """The origin of ``axis`` (or of an axis it was split from or merged into)."""
    if not origins:
        return None
    found = origins.get(axis_key(axis))
    if found is not None:
        return found
    for key, origin in origins.items():
        if overlaps(parse_axis_key(key), axis):
            return origin
    return None


# -- user shardings -------------------------------------------------------------------------------

@dataclass(frozen=True)
class UserSharding:
    """The user sharding an origin name stands for."""

    origin: str
    description: str
    loc: Location | None = None
    #: The sharding as the user wrote it (priorities included) when the module before propagation
    #: is known, else as found after propagation (None when it cannot be found).
    sharding: TensorShardingAttr | None = None

    def dim_and_priority(self, axis: AxisRefAttr) -> tuple[int | None, int | None]:
        """The dimension of ``sharding`` holding ``axis`` and its priority (None when unset)."""
        if self.sharding is None:
            return None, None
        for d, dim in enumerate(self.sharding.dim_shardings):
            if any(a == axis or overlaps(a, axis) for a in dim.axes):
                return d, dim.priority
        return None, None


def _func(module: Module, name: str) -> Operation | None:
    return next((op for op in module.ops if op.name == "func.func" and func_name(op) == name), None)


def resolve_user_sharding(origin: str, func: Operation | None, module: Module,
                          original: Module | None) -> UserSharding:
    """What ``origin`` (an ``sdy.sharding_origins`` value seen in ``func``) stands for."""
    m = re.fullmatch(r"(input|output): (\d+)", origin)
    if m is not None and func is not None:
        index = int(m.group(2))
        source = _func(original, func_name(func)) if original is not None else None
        if m.group(1) == "input":
            args = func.regions[0].blocks[0].arguments if func.regions and func.regions[0].blocks else []
            arg = args[index] if index < len(args) else None
            sharding = _arg_sharding(source or func, index)
            label = f"argument {index}" + (f" ({arg.name})" if arg is not None and arg.name else "")
            return UserSharding(origin, f"{label} of @{func_name(func)}", arg.loc if arg is not None else None,
                                sharding)
        terminator = _terminator(func)
        return UserSharding(origin, f"result {index} of @{func_name(func)}",
                            terminator.loc if terminator is not None else None,
                            result_sharding(source or func, index))
    m = re.fullmatch(r"constraint_(\d+)", origin)
    if m is not None:
        op = _named_op(module, origin, CONSTRAINT_OPS)
        before = _nth(original, CONSTRAINT_OPS[:1], int(m.group(1)))
        sharding = (before or op).properties.get("sharding") if (before or op) is not None else None
        loc = op.loc if op is not None else (before.loc if before is not None else None)
        return UserSharding(origin, f"the sharding constraint {origin}", loc, sharding)
    m = re.fullmatch(r"(mc_(\d+))_(input|output): (\d+)", origin)
    if m is not None:
        op = _named_op(module, m.group(1), ("sdy.manual_computation",))
        before = _nth(original, ("sdy.manual_computation",), int(m.group(2)))
        holder = before or op
        key = "in_shardings" if m.group(3) == "input" else "out_shardings"
        shardings = holder.properties[key].shardings if holder is not None else ()
        index = int(m.group(4))
        sharding = shardings[index] if index < len(shardings) else None
        side = "in" if m.group(3) == "input" else "out"
        return UserSharding(origin, f"{side}_shardings[{index}] of manual computation {m.group(1)}",
                            op.loc if op is not None else None, sharding)
    return UserSharding(origin, origin)


def _arg_sharding(func: Operation, index: int) -> TensorShardingAttr | None:
    if not func.regions or not func.regions[0].blocks:
        return None
    args = func.regions[0].blocks[0].arguments
    if index >= len(args):
        return None
    s = args[index].attributes.get("sdy.sharding")
    return s if isinstance(s, TensorShardingAttr) else None


def _named_op(module: Module, name: str, kinds: tuple[str, ...]) -> Operation | None:
    for op in module.walk():
        if op.name in kinds:
            found = as_builtin(op.attributes_view.get(ORIGIN_NAME))
            if isinstance(found, StringAttr) and found.value == name:
                return op
    return None


def _nth(module: Module | None, kinds: tuple[str, ...], index: int) -> Operation | None:
    """The ``index``-th op of ``kinds`` in MLIR's post-order walk (how Shardy numbers them)."""
    if module is None:
        return None
    found = [op for op in walk_post_order(module.op) if op.name in kinds]
    return found[index] if index < len(found) else None


def op_sharding_of(op: Operation, index: int) -> TensorShardingAttr | None:
    """Result ``index``'s sharding from the op's ``sdy.sharding``."""
    per_value = op.attributes_view.get("sdy.sharding")
    if isinstance(per_value, TensorShardingPerValueAttr) and index < len(per_value.shardings):
        return per_value.shardings[index]
    return None

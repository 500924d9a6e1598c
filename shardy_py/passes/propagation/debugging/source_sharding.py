"""Recording where shardings came from during propagation (propagation/debugging/source_sharding.cc).

Two debug options of the propagation passes and of ``-sdy-apply-sharding-constraints`` ask for it:

``debug-sharding-origins``
    every value whose sharding gained an axis gets, per axis, the *user* sharding it came from:
    ``"input: N"`` / ``"output: N"`` (a function argument / result sharding), ``"constraint_K"``
    (the K-th ``sdy.sharding_constraint`` of the module, which is named so in its
    ``sdy.sharding_origin_name``), ``"mc_K_input: N"`` / ``"mc_K_output: N"`` (an in/out sharding of
    the K-th ``sdy.manual_computation``, named ``"mc_K"``).  A user sharding's own axes say
    ``"self"``.  Saved as ``sdy.sharding_origins``: a dictionary on a function argument or result,
    a constraint or a data-flow edge, an array of one dictionary per result on any other op.

``debug-propagation-edge-sharding``
    every op records, per propagation step, which of its operands/results an axis came from and
    which it went to (``sdy.propagation_edges``); a function's result attributes record the steps
    between the returned values and the result shardings (all under result 0, as Shardy does).

The propagation driver tells a ``SourceShardingHandler`` (the listener of
``propagation_update.PropagationEnv``) about every propagation through an op with the factor
shardings before and after; the handler compares the two and keeps its maps up to date, and
``save_on_module`` writes the attributes at the end of the pass.
"""
from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from shardy_py.ir.attrs import (
    AxisRefAttr,
    AxisToPropagationDetailsAttr,
    EdgeValueRefAttr,
    MeshAttr,
    OpaqueAttr,
    OpShardingRuleAttr,
    PropagationEdgesAttr,
    PropagationOneStepAttr,
    TensorShardingAttr,
)
from shardy_py.ir.builtin_attrs import ArrayAttr, DictionaryAttr, StringAttr
from shardy_py.ir.ops import Block, Operation, Value
from shardy_py.passes import data_flow as df
from shardy_py.passes.meshes import MeshTable, common_mesh_or_ref
from shardy_py.passes.propagation.sharding_projection import (
    FactorSharding,
    PrefixStatus,
    ShardingProjection,
    TensorFactorShardings,
    is_axis_list_prefix_of,
)
from shardy_py.passes.shardings import get_sharding, set_func_arg_attributes, shardable_value
from shardy_py.verify.axes import can_merge, contains, merge

SHARDING_ORIGINS = "sdy.sharding_origins"
PROPAGATION_EDGES = "sdy.propagation_edges"
SHARDING_ORIGIN_NAME = "sdy.sharding_origin_name"
OPERAND, RESULT = "operand", "result"


class SourceShardingError(Exception):
    """The recorded origins cannot explain a propagated axis (the C++ would stop here)."""


class OriginType(enum.Enum):
    """``OriginShardingType``: what kind of user sharding an axis came from."""

    INPUT = "input"
    CONSTRAINT = "constraint"
    OUTPUT = "output"
    MC_INPUT = "mc_input"
    MC_OUTPUT = "mc_output"


@dataclass(frozen=True)
class OriginSharding:
    """``OriginSharding``: a user sharding (its kind, value index, and constraint/manual
    computation number)."""

    type: OriginType
    index: int
    source_id: int = 0

    def name(self) -> str:
        """``shardingOriginToString``: the string saved in ``sdy.sharding_origins``."""
        if self.type is OriginType.CONSTRAINT:
            return f"constraint_{self.source_id}"
        if self.type is OriginType.MC_INPUT:
            return f"mc_{self.source_id}_input: {self.index}"
        if self.type is OriginType.MC_OUTPUT:
            return f"mc_{self.source_id}_output: {self.index}"
        return f"{self.type.value}: {self.index}"


@dataclass(frozen=True)
class EdgeNode:
    """``EdgeNode``: operand or result ``index`` of the op propagated through."""

    type: str
    index: int

    def attr(self) -> EdgeValueRefAttr:
        return EdgeValueRefAttr(self.type, self.index)


@dataclass(frozen=True)
class PropagationEdge:
    """``PropagationEdge``: an axis went from ``source`` to ``target`` at step ``step``."""

    source: EdgeNode
    target: EdgeNode
    step: int


AxisToEdges = dict[AxisRefAttr, list[PropagationEdge]]


def axis_key(axis: AxisRefAttr) -> str:
    """The dictionary key of ``axis`` in ``sdy.sharding_origins``: its printed text without the
    quotes (``a``, ``c:(1)4``; a name's escapes, such as ``\\09``, stay written out)."""
    from shardy_py.syntax.attr_printer import quote_string

    name = quote_string(axis.name)[1:-1]
    info = axis.sub_axis_info
    return name if info is None else f"{name}:({info.pre_size}){info.size}"


def axis_sort_key(axis: AxisRefAttr) -> tuple:
    """``AxisRefAttr::operator<``: by name, then a full axis before the sub-axes not starting at
    pre-size 1, sub-axes by (pre-size, size)."""
    info = axis.sub_axis_info
    if info is None:
        return (axis.name, 1, 0, 0)
    return (axis.name, 0 if info.pre_size == 1 else 2, info.pre_size, info.size)


def _edge_ref_key(ref: EdgeValueRefAttr) -> tuple[int, int]:
    return (0 if ref.type == OPERAND else 1, ref.index)


# -- comparing factor shardings before and after -------------------------------------------------

def snapshot(projection: ShardingProjection) -> ShardingProjection:
    """A copy of ``projection`` that later updates of it leave alone."""
    def copy_tensor(t: TensorFactorShardings) -> TensorFactorShardings:
        factors = {i: FactorSharding(list(f.axis_refs), f.is_closed, f.is_minor_most, list(f.overflow_axes))
                   for i, f in t.factor_index_to_sharding.items()}
        return TensorFactorShardings(factors, list(t.replicated_axes), list(t.unreduced_axes), t.reduction)
    return ShardingProjection([copy_tensor(t) for t in projection.operands],
                              [copy_tensor(t) for t in projection.results])


def _find_source(new_axes: Sequence[AxisRefAttr], factor: int, old_tensors: Sequence[TensorFactorShardings]):
    """``findNewAxisRefMatch``: the first tensor whose old axes for ``factor`` start with ``new_axes``."""
    for index, tensor in enumerate(old_tensors):
        old = tensor.factor_index_to_sharding.get(factor)
        if old is not None and is_axis_list_prefix_of(new_axes, old.axis_refs) is not PrefixStatus.NOT_A_PREFIX:
            return index
    return None


def _save_edges(new_axes: Sequence[AxisRefAttr], old_axes: Sequence[AxisRefAttr], edge: PropagationEdge,
                out: dict[AxisRefAttr, PropagationEdge]) -> None:
    """The axes ``new_axes`` adds to ``old_axes`` (the last old one too when it grew into a bigger
    sub-axis) came along ``edge``; an axis keeps the first edge recorded for it."""
    last = len(old_axes) - 1
    if old_axes and last < len(new_axes) and old_axes[last] != new_axes[last]:
        out.setdefault(new_axes[last], edge)
    for axis in new_axes[len(old_axes):]:
        out.setdefault(axis, edge)


def create_source_map(old: ShardingProjection, new: ShardingProjection, rule: OpShardingRuleAttr, mesh: MeshAttr,
                      step: int) -> tuple[list[dict[AxisRefAttr, PropagationEdge]],
                                          list[dict[AxisRefAttr, PropagationEdge]]]:
    """``createSourceMap``: for every operand and result, the axes it newly has and the edge each
    came along (from the first operand, else the first result, that already had them)."""
    operands: list[dict[AxisRefAttr, PropagationEdge]] = [{} for _ in old.operands]
    results: list[dict[AxisRefAttr, PropagationEdge]] = [{} for _ in old.results]

    def visit(old_t: TensorFactorShardings, new_t: TensorFactorShardings, kind: str, index: int, mapping,
              out: dict[AxisRefAttr, PropagationEdge]) -> None:
        for dim in mapping.dim_mappings:
            previous: AxisRefAttr | None = None
            for factor in dim.factor_indices:
                old_axes = old_t.factor_index_to_sharding[factor].axis_refs
                new_axes = new_t.factor_index_to_sharding[factor].axis_refs
                if old_axes == new_axes or not new_axes:
                    continue
                last_new = new_axes[-1]
                if previous is not None and can_merge(previous, last_new):
                    out.pop(previous, None)
                    last_new = merge(previous, last_new, mesh)
                previous = new_axes[-1]
                introduced = [*new_axes[:-1], last_new]
                target = EdgeNode(kind, index)
                source = _find_source(new_axes, factor, old.operands)
                if source is not None:
                    _save_edges(introduced, old_axes, PropagationEdge(EdgeNode(OPERAND, source), target, step), out)
                    continue
                source = _find_source(new_axes, factor, old.results)
                if source is not None:
                    _save_edges(introduced, old_axes, PropagationEdge(EdgeNode(RESULT, source), target, step), out)

    for i, (o, n) in enumerate(zip(old.operands, new.operands, strict=True)):
        visit(o, n, OPERAND, i, rule.operand_mappings[i], operands[i])
    for i, (o, n) in enumerate(zip(old.results, new.results, strict=True)):
        visit(o, n, RESULT, i, rule.result_mappings[i], results[i])
    return operands, results


# -- the handler -------------------------------------------------------------------------------

@dataclass
class SourceShardingHandler:
    """``ShardingDebugMappings`` + ``SourceShardingHandler``: the origins of every value's axes and
    the edges every op's axes travelled along, kept up to date as propagation reports changes."""

    origins: bool
    edges: bool
    #: ``operationToEdgesMap``: op -> axis -> the edges it came along.
    op_edges: dict[Operation, AxisToEdges] = field(default_factory=dict)
    #: ``funcResultToEdgesMap``: function -> one map per result.
    func_result_edges: dict[Operation, list[AxisToEdges]] = field(default_factory=dict)
    #: ``valueToOriginShardingMap``: shardable value -> axis -> user sharding.
    value_origins: dict[Value, dict[AxisRefAttr, OriginSharding]] = field(default_factory=dict)
    step: int = 0
    meshes: MeshTable | None = None
    #: Axes whose origin could not be found, as (op to report at, message), one per value and axis.
    missing: dict[tuple[int, AxisRefAttr], tuple[Operation | None, str]] = field(default_factory=dict)

    @classmethod
    def for_options(cls, origins: bool, edges: bool) -> SourceShardingHandler | None:
        """A handler when either debug option is on (None otherwise: nothing to record)."""
        return cls(origins, edges) if origins or edges else None

    # -- before the pass ------------------------------------------------------------------------

    def prepare(self, module) -> None:
        """``prepareHandler``: continue the step numbering of edges already on the module, and
        record the user shardings (naming the constraints and manual computations)."""
        from shardy_py.ir.walk import walk_post_order

        self.meshes = MeshTable(module)
        ops = list(walk_post_order(module.op))
        self.step = max_propagation_step(ops) + 1
        if self.origins:
            self._prepare_origins(module, ops)
        if self.edges:
            for func in _funcs(module):
                self.func_result_edges[func] = [{} for _ in func.properties.get("result_types") or []]

    def _record(self, sharding: TensorShardingAttr | None, kind: OriginType, value: Value, index: int,
                source_id: int = 0) -> None:
        """``saveShardingOrigins``: every axis of ``sharding`` on ``value`` comes from this user
        sharding (unless an origin is already known)."""
        if sharding is None:
            return
        key = shardable_value(value)
        for dim in sharding.dim_shardings:
            for axis in dim.axes:
                self.value_origins.setdefault(key, {}).setdefault(axis, OriginSharding(kind, index, source_id))

    def _prepare_origins(self, module, ops: list[Operation]) -> None:
        for source_id, op in enumerate(o for o in ops if o.name == "sdy.sharding_constraint"):
            self._record(op.properties.get("sharding"), OriginType.CONSTRAINT, op.results[0], 0, source_id)
            name = OriginSharding(OriginType.CONSTRAINT, 0, source_id).name()
            df.set_attribute(op, SHARDING_ORIGIN_NAME, StringAttr(name))
            self._record(get_sharding(op.operands[0]), OriginType.CONSTRAINT, op.operands[0], 0, source_id)
        for source_id, op in enumerate(o for o in ops if o.name == "sdy.manual_computation"):
            for i, sharding in enumerate(op.properties["in_shardings"].shardings):
                edge = _edge_of(op, op.regions[0].blocks[0].arguments[i])
                self._record(sharding, OriginType.MC_INPUT, edge.results[0], i, source_id)
                sources = df.edge_sources(edge.operands[0])
                if len(sources) == 1:
                    self._record(get_sharding(sources[0]), OriginType.MC_INPUT, sources[0], i, source_id)
            for i, sharding in enumerate(op.properties["out_shardings"].shardings):
                edge = _edge_of(op, op.results[i])
                self._record(sharding, OriginType.MC_OUTPUT, edge.results[0], i, source_id)
            df.set_attribute(op, SHARDING_ORIGIN_NAME, StringAttr(f"mc_{source_id}"))
        from shardy_py.passes.func_calls import result_sharding

        for func in _funcs(module):
            if not func.regions or not func.regions[0].blocks:
                continue
            for arg in func.regions[0].blocks[0].arguments:
                self._record(get_sharding(arg), OriginType.INPUT, arg, arg.index)
            for index, value in enumerate(func.regions[0].blocks[0].ops[-1].operands):
                self._record(result_sharding(func, index), OriginType.OUTPUT, value, index)

    # -- during the pass ------------------------------------------------------------------------

    def propagated(self, op: Operation, operands: Sequence[Value], results: Sequence[Value], mesh: MeshAttr,
                   rule: OpShardingRuleAttr, old: ShardingProjection, new: ShardingProjection,
                   any_updated: bool) -> None:
        """``SourceShardingHandler::operator()``: propagation through ``op`` (whose tensors are
        ``operands`` and ``results``) turned ``old`` into ``new``; record the new axes' edges and
        origins, and count a step when something was updated."""
        if not any_updated:
            return
        operand_edges, result_edges = create_source_map(old, new, rule, mesh, self.step)
        self.step += 1

        def origin_of(node: EdgeNode, axis: AxisRefAttr) -> OriginSharding | None:
            value = operands[node.index] if node.type == OPERAND else results[node.index]
            found = self.find_origin(value, axis)
            if found is None:
                self._note_missing(value, axis)
            return found

        is_func = op.name == "func.func"
        for values, per_value in ((operands, operand_edges), (results, result_edges)):
            for i, value in enumerate(values):
                for axis, edge in per_value[i].items():
                    if self.edges:
                        target = self.func_result_edges[op][i] if is_func else self.op_edges.setdefault(op, {})
                        target.setdefault(axis, []).append(edge)
                    if self.origins:
                        origins = self.value_origins.setdefault(shardable_value(value), {})
                        if axis not in origins:
                            origin = origin_of(edge.source, axis)
                            if origin is not None:
                                origins[axis] = origin

    def find_origin(self, value: Value, axis: AxisRefAttr) -> OriginSharding | None:
        """``lookUpValueOriginSharding``: the origin of ``axis`` on ``value``, or of an axis it was
        split from or merged into (the first one recorded); None when there is none (the C++
        reaches ``llvm_unreachable`` there: undefined behaviour, a crash or a garbage origin)."""
        per_axis = self.value_origins.get(shardable_value(value), {})
        found = per_axis.get(axis)
        if found is not None:
            return found
        for other, origin in per_axis.items():
            if contains(other, axis) or contains(axis, other):
                return origin
        return None

    def _note_missing(self, value: Value, axis: AxisRefAttr) -> None:
        key = (id(value), axis)
        if key not in self.missing:
            owner = df.owning_op(value)
            self.missing[key] = (owner, f"debug-sharding-origins: no origin is known for axis {axis_key(axis)} of "
                                        f"{value.name or 'a value of ' + (owner.name if owner else '?')} (its sharding "
                                        "is not a user sharding Shardy tracks, e.g. an sdy.reshard's or a sharding "
                                        "group's); the axes it passes on are left without an origin")

    def constraint_applied(self, op: Operation, rule: OpShardingRuleAttr, transform: Callable[[], None]) -> None:
        """The action of ``-sdy-apply-sharding-constraints``: ``transform`` sets the sharding of
        ``op``'s operand; record it as a propagation from the constraint's result."""
        operands, results = list(op.operands), list(op.results)

        def shardings():
            return [get_sharding(v) for v in operands], [get_sharding(v) for v in results]

        before = shardings()
        mesh_or_ref = common_mesh_or_ref([*before[0], *before[1]], self.meshes)
        mesh = self.meshes.lookup(mesh_or_ref) if mesh_or_ref is not None else None
        if mesh is None or mesh.is_maximal:  # nothing to project (no dim shardings on a maximal mesh)
            transform()
            return
        old = ShardingProjection.build(*before, rule, mesh)
        transform()
        new = ShardingProjection.build(*shardings(), rule, mesh)
        self.propagated(op, operands, results, mesh, rule, old, new, new != old)

    # -- after the pass -------------------------------------------------------------------------

    def save_on_module(self, module) -> list[tuple[Operation | None, str]]:
        """``saveOnModule``: write the origins (user shardings' own axes as ``"self"``) and edges;
        returns the warnings to report (axes whose origin was not found)."""
        if self.origins:
            for value, per_axis in self.value_origins.items():
                if per_axis:  # empty only when no origin was found (the C++ always has one to store)
                    _save_origins(value, per_axis)
            _origins_to_self(module)
        if self.edges:
            for op, per_axis in self.op_edges.items():
                if op.name == "func.func":
                    continue
                attr = create_propagation_edges(per_axis)
                if attr.value:
                    df.set_attribute(op, PROPAGATION_EDGES, attr)
            for func, per_result in self.func_result_edges.items():
                for index, per_axis in enumerate(per_result):
                    attr = create_propagation_edges(per_axis)
                    if attr.value:
                        _set_result_attr(func, index, PROPAGATION_EDGES, attr)
        return list(self.missing.values())


def _funcs(module) -> list[Operation]:
    return [op for op in module.ops if op.name == "func.func"]


def _edge_of(op: Operation, target: Value) -> Operation:
    edge = df.lookup_data_flow_edge(target)
    if edge is None:
        raise SourceShardingError(f"debug-sharding-origins needs the data-flow edges of {op.name} "
                                  "(run -sdy-add-data-flow-edges first)")
    return edge


def max_propagation_step(ops: Sequence[Operation]) -> int:
    """``maximumPropagationStep``: the largest step of the ``sdy.propagation_edges`` on ops (-1)."""
    best = -1
    for op in ops:
        attr = op.attributes_view.get(PROPAGATION_EDGES)
        if isinstance(attr, PropagationEdgesAttr):
            for step in attr.value:
                best = max(best, step.step_index)
    return best


def create_propagation_edges(per_axis: AxisToEdges) -> PropagationEdgesAttr:
    """``createPropagationEdges``: per step (ascending), per axis (sorted), per source, the sorted
    targets; an (axis, source, target) recorded at several steps counts at the first one."""
    first: dict[tuple[AxisRefAttr, EdgeNode, EdgeNode], int] = {}
    for axis, edges in per_axis.items():
        for edge in edges:
            key = (axis, edge.source, edge.target)
            if key not in first or edge.step < first[key]:
                first[key] = edge.step
    by_step: dict[int, dict[tuple[AxisRefAttr, EdgeNode], set[EdgeNode]]] = {}
    for (axis, source, target), step in first.items():
        by_step.setdefault(step, {}).setdefault((axis, source), set()).add(target)
    steps = []
    for step in sorted(by_step):
        entries = sorted(by_step[step].items(),
                         key=lambda kv: (axis_sort_key(kv[0][0]), _edge_ref_key(kv[0][1].attr())))
        steps.append(PropagationOneStepAttr(step, tuple(
            AxisToPropagationDetailsAttr(axis, source.attr(), tuple(sorted((t.attr() for t in targets),
                                                                           key=_edge_ref_key)))
            for (axis, source), targets in entries)))
    return PropagationEdgesAttr(tuple(steps))


def origins_dict(per_axis: dict[AxisRefAttr, OriginSharding]) -> DictionaryAttr:
    return DictionaryAttr({axis_key(a): StringAttr(o.name()) for a, o in per_axis.items()})


def _set_result_attr(func: Operation, index: int, name: str, value) -> None:
    count = len(func.properties.get("result_types") or [])
    res_attrs = list(func.properties.get("res_attrs") or [])
    res_attrs += [{} for _ in range(count - len(res_attrs))]
    res_attrs[index] = dict(sorted({**(res_attrs[index] or {}), name: value}.items()))
    df.set_property(func, "res_attrs", res_attrs)


def _set_arg_attr(arg: Value, name: str, value) -> None:
    func = df.owning_op(arg)
    set_func_arg_attributes(func, arg, dict(sorted({**arg.attributes, name: value}.items())))


def _enclosing_func(op: Operation | None) -> Operation | None:
    while op is not None and op.name != "func.func":
        op = op.parent_op
    return op


def _save_origins(value: Value, per_axis: dict[AxisRefAttr, OriginSharding]) -> None:
    """``saveShardingOriginsOnModule`` for one value: on the function result it is returned as
    (the first such use), and on its argument attributes, its constraint or edge, or its op's
    per-result array."""
    owner = df.owning_op(value)
    func = _enclosing_func(owner)
    entries = origins_dict(per_axis)
    if func is not None and func.regions and func.regions[0].blocks:
        terminator = func.regions[0].blocks[0].ops[-1]
        for use in reversed(value.uses):
            if use.op is terminator:
                _set_result_attr(func, use.index, SHARDING_ORIGINS, entries)
                break
    if owner is None:
        return
    if owner.name == "func.func":
        _set_arg_attr(value, SHARDING_ORIGINS, entries)
    elif owner.name in ("sdy.sharding_constraint", "sdy.data_flow_edge"):
        df.set_attribute(owner, SHARDING_ORIGINS, entries)
    elif not isinstance(value.owner, Block):
        dicts = list(_as_builtin(owner.attributes_view.get(SHARDING_ORIGINS)) or ())
        if len(dicts) != len(owner.results):
            dicts = [DictionaryAttr() for _ in owner.results]
        dicts[value.index] = entries
        df.set_attribute(owner, SHARDING_ORIGINS, ArrayAttr(tuple(dicts)))


def _as_builtin(attr):
    """A parsed ``OpaqueAttr`` (a dictionary or array written in the input) as a builtin attribute."""
    if isinstance(attr, OpaqueAttr):
        from shardy_py.syntax.attr_reader import parse_attribute

        return parse_attribute(attr.text)
    return attr


def _self_replaced(attr, origin_name: str) -> DictionaryAttr | None:
    attr = _as_builtin(attr)
    if not isinstance(attr, DictionaryAttr):
        return None
    return DictionaryAttr(tuple((k, StringAttr("self") if isinstance(v, StringAttr) and v.value == origin_name
                                 else v) for k, v in attr.entries))


def _origins_to_self(module) -> None:
    """``overrideOriginsToSelf``: a constraint, function argument/result or manual computation
    edge says ``"self"`` for the axes it brought itself."""
    from shardy_py.ir.walk import walk_post_order

    ops = list(walk_post_order(module.op))
    for op in ops:
        if op.name == "sdy.sharding_constraint":
            name = _as_builtin(op.attributes_view.get(SHARDING_ORIGIN_NAME))
            new = _self_replaced(op.attributes_view.get(SHARDING_ORIGINS), getattr(name, "value", None))
            if new is not None:
                df.set_attribute(op, SHARDING_ORIGINS, new)
    for func in _funcs(module):
        if not func.regions or not func.regions[0].blocks:
            continue
        for arg in func.regions[0].blocks[0].arguments:
            own = OriginSharding(OriginType.INPUT, arg.index).name()
            new = _self_replaced(arg.attributes.get(SHARDING_ORIGINS), own)
            if new is not None:
                _set_arg_attr(arg, SHARDING_ORIGINS, new)
        for index, attrs in enumerate(func.properties.get("res_attrs") or []):
            new = _self_replaced((attrs or {}).get(SHARDING_ORIGINS), OriginSharding(OriginType.OUTPUT, index).name())
            if new is not None:
                _set_result_attr(func, index, SHARDING_ORIGINS, new)
    for op in ops:
        if op.name != "sdy.manual_computation":
            continue
        name = getattr(_as_builtin(op.attributes_view.get(SHARDING_ORIGIN_NAME)), "value", "")
        for arg in op.regions[0].blocks[0].arguments:
            _edge_origins_to_self(df.lookup_data_flow_edge(arg), f"{name}_input: {arg.index}")
        for result in op.results:
            _edge_origins_to_self(df.lookup_data_flow_edge(result), f"{name}_output: {result.index}")


def _edge_origins_to_self(edge: Operation | None, origin_name: str) -> None:
    if edge is None:
        return
    new = _self_replaced(edge.attributes_view.get(SHARDING_ORIGINS), origin_name)
    if new is not None:
        df.set_attribute(edge, SHARDING_ORIGINS, new)

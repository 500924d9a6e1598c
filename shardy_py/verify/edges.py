"""Rules B49-B56, C9, C10: propagation edges (``sdy.propagation_edges`` and friends)."""
from __future__ import annotations

from shardy_py.ir.attrs import EdgeValueRefAttr, OpaqueAttr, PropagationEdgesAttr
from shardy_py.ir.builtin_attrs import ArrayAttr
from shardy_py.ir.ops import Operation, Value
from shardy_py.passes.data_flow import edge_sources
from shardy_py.verify.common_mesh import common_mesh
from shardy_py.verify.context import Context
from shardy_py.verify.diagnostics import Failure, fail


def _ref_str(r: EdgeValueRefAttr) -> str:
    return f"{r.type}-{r.index}"


def verify_propagation_edges_attr(attr: PropagationEdgesAttr) -> Failure | None:
    """B49-B52 (checked while parsing in Shardy): step indices and targets."""
    steps: set[int] = set()
    for step in attr.value:
        if step.step_index < 0:
            return fail(f"propagation edge step index {step.step_index} is negative; step indices must be >= 0")
        if step.step_index in steps:
            return fail(f"propagation edge step index {step.step_index} appears more than once")
        steps.add(step.step_index)
        for entry in step.axis_entries:
            targets: set[EdgeValueRefAttr] = set()
            for t in entry.targets:
                if t == entry.source:
                    return fail(f"propagation edge in step {step.step_index} has {_ref_str(t)} as both source "
                                "and target")
                if t in targets:
                    return fail(f"propagation edge in step {step.step_index} for axis {entry.axis_name.name} lists "
                                f"target {_ref_str(t)} more than once")
                targets.add(t)
    return None


def _value(op: Operation, ref: EdgeValueRefAttr) -> Value | None:
    """The value ``ref`` names on ``op``.  On an ``sdy.data_flow_edge``, ``operand-N`` is the N-th
    data-flow source of the edge's owner (a manual computation's operand for a body argument, a
    while's operand then its body's returned value for a result...), as jaxlib 0.12 resolves it: a
    source sharded on another mesh than the edge makes the edges' mesh ambiguous there."""
    if ref.type == "result" and 0 <= ref.index < len(op.results):
        return op.results[ref.index]
    if ref.type == "operand" and 0 <= ref.index < len(op.operands):
        if op.name == "sdy.data_flow_edge":
            sources = edge_sources(op.operands[0])
            return sources[ref.index] if ref.index < len(sources) else None
        return op.operands[ref.index]
    return None


def _sourceless_edge(op: Operation, attr: PropagationEdgesAttr) -> Failure | None:
    """An ``sdy.data_flow_edge`` whose edges name an operand while its input is owned by no data-flow
    op (a function argument, say): the edge has no sources to resolve the operand to.  jaxlib 0.12
    dies on this (SIGSEGV while parsing); it is an error here."""
    if op.name != "sdy.data_flow_edge" or not op.operands or op.operands[0] is None:
        return None
    if edge_sources(op.operands[0]):
        return None
    for step in attr.value:
        for entry in step.axis_entries:
            for ref in (entry.source, *entry.targets):
                if ref.type == "operand":
                    return fail(f"'{op.name}' op propagation edge refers to {_ref_str(ref)}, but the edge's input is "
                                "not a value of a data-flow op (a named/manual computation, while, case or "
                                "optimization barrier), so it has no sources")
    return None


def _check_ref(op: Operation, ref: EdgeValueRefAttr) -> Failure | None:
    if op.name in ("sdy.func_data_flow_edge", "sdy.data_flow_edge"):
        # an edge's operand-N is its owner's N-th data-flow source, not an operand of the edge op: jaxlib
        # 0.12 checks no index there (its propagation writes operand-1 on a while result's edge)
        return None
    n = len(op.results) if ref.type == "result" else len(op.operands)
    if not 0 <= ref.index < n:
        return fail(f"'{op.name}' op propagation edge refers to {_ref_str(ref)}, but the op has {n} {ref.type}(s) "
                    f"(valid indices [0, {n}))")
    return None


def verify_propagation_edges_on_op(op: Operation, attr: PropagationEdgesAttr, ctx: Context) -> Failure | None:
    """B53-B56: the edges reference a sharded value, one mesh, known axes, in-range values."""
    f = _sourceless_edge(op, attr)
    if f is not None:
        return f
    shardings = []
    for step in attr.value:
        for entry in step.axis_entries:
            for ref in (entry.source, *entry.targets):
                s = ctx.sharding_of(_value(op, ref))
                if s is not None:
                    shardings.append(s)
    if not shardings:
        return fail(f"'{op.name}' op propagation edges must reference at least one value that has a sharding")
    mesh = common_mesh(shardings, ctx)
    if mesh is None:
        return fail(f"'{op.name}' op the values referenced by propagation edges do not share one mesh")
    names = {a.name for a in mesh.axes}
    for step in attr.value:
        for entry in step.axis_entries:
            if entry.axis_name.name not in names:
                return fail(f"'{op.name}' op propagation edge axis \"{entry.axis_name.name}\" is not an axis of the "
                            "mesh of the referenced values")
            for ref in (entry.source, *entry.targets):
                f = _check_ref(op, ref)
                if f:
                    return f
    return None


def verify_edges_list_attr(op: Operation, name: str, attr) -> Failure | None:
    """C10: ``sdy.result_propagation_edges``/``sdy.block_arg_propagation_edges`` hold an array of
    propagation edges (each one checked while parsing, B49-B52; nothing else about them is)."""
    items = attr if isinstance(attr, (list, tuple, ArrayAttr)) else None
    if isinstance(attr, OpaqueAttr):
        items = attr.sdy_array
    if items is not None and all(isinstance(x, PropagationEdgesAttr) for x in items):
        return None
    return fail(f"'{op.name}' op attribute '{name}' must be an array of #sdy.propagation_edges")

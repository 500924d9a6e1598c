"""Rules C4-C10: ``sdy.*`` discardable attributes on any op, and on func.func args/results."""
from __future__ import annotations

from shardy_py.ir.attrs import OpShardingRuleAttr, PropagationEdgesAttr, TensorShardingAttr, TensorShardingPerValueAttr
from shardy_py.ir.ops import Operation
from shardy_py.verify.context import Context
from shardy_py.verify.diagnostics import Failure, fail
from shardy_py.verify.edges import verify_edges_list_attr, verify_propagation_edges_on_op
from shardy_py.verify.sharding_rules import verify_sharding_rule
from shardy_py.verify.shardings import verify_sharding_per_value, verify_tensor_sharding

_EDGE_LISTS = ("sdy.result_propagation_edges", "sdy.block_arg_propagation_edges")


def _kind(attr) -> str:
    return type(attr).__name__.replace("Attr", "") if not hasattr(attr, "text") else f"'{attr.text[:60]}'"


def verify_op_sharding(op: Operation, attr, ctx: Context) -> Failure | None:
    """C7 + B32/B33: ``sdy.sharding`` is a sharding per value, valid for the op's results."""
    if not isinstance(attr, TensorShardingPerValueAttr):
        return fail(f"'{op.name}' op attribute 'sdy.sharding' must be a #sdy.sharding_per_value, got {_kind(attr)}")
    f = verify_sharding_per_value(attr, op.result_types, ctx, op, "result", ctx.enclosing_manual_axes(op))
    return f.prefixed(f"'{op.name}' op ") if f else None


def verify_op_sharding_rule(op: Operation, attr, ctx: Context) -> Failure | None:
    """C8: ``sdy.sharding_rule`` is an op sharding rule (then B34-B48)."""
    if not isinstance(attr, OpShardingRuleAttr):
        return fail(f"'{op.name}' op attribute 'sdy.sharding_rule' must be a #sdy.op_sharding_rule, "
                    f"got {_kind(attr)}")
    return verify_sharding_rule(op, attr)


def verify_op_propagation_edges(op: Operation, attr, ctx: Context) -> Failure | None:
    """C9: ``sdy.propagation_edges`` is a propagation edges attribute (then B53-B56)."""
    if not isinstance(attr, PropagationEdgesAttr):
        return fail(f"'{op.name}' op attribute 'sdy.propagation_edges' must be a #sdy.propagation_edges, "
                    f"got {_kind(attr)}")
    return verify_propagation_edges_on_op(op, attr, ctx)


def verify_discardable_attrs(op: Operation, ctx: Context) -> Failure | None:
    """Phase O step 1: each ``sdy.*`` attribute, in alphabetical order."""
    attrs_ = op.attributes_view
    if not attrs_:
        return None
    for name in sorted(attrs_):
        if not name.startswith("sdy."):
            continue
        attr = attrs_[name]
        f = None
        if name == "sdy.sharding":
            f = verify_op_sharding(op, attr, ctx)
        elif name == "sdy.sharding_rule":
            f = verify_op_sharding_rule(op, attr, ctx)
        elif name == "sdy.propagation_edges":
            f = verify_op_propagation_edges(op, attr, ctx)
        elif name in _EDGE_LISTS:
            f = verify_edges_list_attr(op, name, attr)
        if f:
            return f
    return None


def _func_value_sharding(op: Operation, attr, type_, kind: str, index: int, ctx: Context) -> Failure | None:
    pre = f"'func.func' op {kind} {index}: "
    if not isinstance(attr, TensorShardingAttr):
        return fail(f"{pre}attribute 'sdy.sharding' on a function {kind} must be a #sdy.sharding, got {_kind(attr)}")
    f = verify_tensor_sharding(attr, type_, ctx.mesh_of(attr))
    return f.prefixed(pre) if f else None


def verify_func_arg_result_shardings(op: Operation, ctx: Context) -> Failure | None:
    """C4-C6: ``sdy.sharding`` on each func.func argument, then each result."""
    props = op.properties_view
    arg_types = props.get("arg_types") or []
    arg_attrs = props.get("arg_attrs") or []
    if op.regions and op.regions[0].blocks:
        args = op.regions[0].blocks[0].arguments
        arg_attrs = [a.attributes for a in args] if args else arg_attrs
        arg_types = [a.type for a in args] if args else arg_types
    for i, d in enumerate(arg_attrs):
        if d and "sdy.sharding" in d:
            f = _func_value_sharding(op, d["sdy.sharding"], arg_types[i] if i < len(arg_types) else None, "arg", i,
                                     ctx)
            if f:
                return f
    res_types = props.get("result_types") or []
    for i, d in enumerate(props.get("res_attrs") or []):
        if d and "sdy.sharding" in d:
            f = _func_value_sharding(op, d["sdy.sharding"], res_types[i] if i < len(res_types) else None, "result",
                                     i, ctx)
            if f:
                return f
    return None

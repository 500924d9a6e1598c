"""Rules C11-C13 and C31-C41: sharding_constraint, reshard, data_flow_edge, func_data_flow_edge,
propagation_barrier, sharding_group, constant."""
from __future__ import annotations

import re

from shardy_py.ir.attrs import TensorShardingAttr
from shardy_py.ir.ops import Block, Operation
from shardy_py.verify.context import Context, loc_of
from shardy_py.verify.diagnostics import Failure, fail
from shardy_py.verify.shardings import verify_tensor_sharding
from shardy_py.verify.typeutil import (
    has_static_shape,
    is_ranked_tensor,
    is_shaped,
    operand_types,
    same_type,
    type_str,
    value_name,
)
from shardy_py.verify.unreduced import ANY_KIND, verify_unreduced_transition


def _result_type(op: Operation):
    return op.results[0].type if op.results else None


def verify_same_operand_and_result_type(op: Operation, ctx: Context) -> Failure | None:
    """C11/C38/C42: the single operand and the result have the same type."""
    ins = operand_types(op)
    out = _result_type(op)
    if ins and out is not None and not same_type(ins[0], out):
        return fail(f"'{op.name}' op operand type {type_str(ins[0])} and result type {type_str(out)} must be the "
                    "same")
    return None


def verify_type_kinds(op: Operation, ctx: Context) -> Failure | None:
    """A24/ODS: ranked tensors for sharding_group/propagation_barrier, shaped types for edges and collectives."""
    name = op.name
    types = [t for t in (*operand_types(op), *op.result_types) if t is not None]
    if name in ("sdy.sharding_group", "sdy.propagation_barrier"):
        for t in types:
            if not is_ranked_tensor(t):
                return fail(f"'{name}' op needs a ranked tensor, got {type_str(t)}")
    elif name in ("sdy.data_flow_edge", "sdy.func_data_flow_edge") or name in _COLLECTIVES:
        for t in types:
            if not is_shaped(t):
                return fail(f"'{name}' op needs a shaped type (tensor, memref or vector), got {type_str(t)}")
    return None


_COLLECTIVES = frozenset({"sdy.all_gather", "sdy.all_slice", "sdy.all_to_all", "sdy.collective_permute",
                          "sdy.all_reduce", "sdy.reduce_scatter", "sdy.sharded_to_unreduced",
                          "sdy.replicated_to_unreduced"})


def verify_sharding_constraint_or_reshard(op: Operation, ctx: Context) -> Failure | None:
    """C12/C13 (symbol-use phase): valid sharding for the type, allowed unreduced transition."""
    s = op.properties_view.get("sharding")
    if not isinstance(s, TensorShardingAttr):
        return None
    f = verify_tensor_sharding(s, _result_type(op), ctx.mesh_of(s), ctx.enclosing_manual_axes(op))
    if f:
        return f.prefixed(f"'{op.name}' op ")
    src = ctx.sharding_bypassing_barriers(op.operands[0] if op.operands else None)
    if src is None:
        return None
    return verify_unreduced_transition(op, ctx, [src], [s], ANY_KIND, src.reduction)


def verify_data_flow_edge(op: Operation, ctx: Context) -> Failure | None:
    """C31-C34 (symbol-use phase)."""
    t = _result_type(op)
    if t is not None and not has_static_shape(t):
        return fail(f"'sdy.data_flow_edge' op result type {type_str(t)} must have a static shape")
    v = op.operands[0] if op.operands else None
    if v is not None:
        n = len(ctx.users(v))
        if n != 1:
            name = value_name(v)
            return fail(f"'sdy.data_flow_edge' op its input {name} must have exactly one user, the edge; it has {n}")
        dep = v.owner
        if (isinstance(dep, Operation) and dep.name.startswith("sdy.")
                and dep.name not in ("sdy.named_computation", "sdy.manual_computation")):
            loc = loc_of(dep)
            return fail(f"'sdy.data_flow_edge' op its input must not be produced by '{dep.name}'; only "
                        "sdy.named_computation/sdy.manual_computation or non-sdy ops may feed a data flow edge",
                        (loc.line, loc.column, f"'{dep.name}' producing the edge input"))
    s = op.properties_view.get("sharding")
    if isinstance(s, TensorShardingAttr):
        f = verify_tensor_sharding(s, t, ctx.mesh_of(s), ctx.enclosing_manual_axes(op))
        if f:
            return f.prefixed("'sdy.data_flow_edge' op ")
    return None


def verify_func_data_flow_edge(op: Operation, ctx: Context) -> Failure | None:
    """C35-C37 (symbol-use phase)."""
    t = _result_type(op)
    if t is not None and not has_static_shape(t):
        return fail(f"'sdy.func_data_flow_edge' op result type {type_str(t)} must have a static shape")
    v = op.operands[0] if op.operands else None
    if v is None:
        return None
    n = len(ctx.users(v))
    if n != 1:
        name = value_name(v)
        return fail(f"'sdy.func_data_flow_edge' op its operand {name} must have exactly one user, the edge; it has "
                    f"{n}")
    owner = v.owner
    if isinstance(owner, Block):
        parent = owner.parent.parent if owner.parent is not None else None
        if parent is None or parent.name != "func.func":
            where = f"'{parent.name}'" if parent is not None else "a non-function region"
            name = value_name(v)
            return fail(f"'sdy.func_data_flow_edge' op its operand {name} is a block argument of {where}; it must "
                        "be an argument of a func.func")
    elif owner.name != "func.call":
        name = value_name(v)
        return fail(f"'sdy.func_data_flow_edge' op its operand {name} is produced by '{owner.name}'; it must be "
                    "a func.func argument or a func.call result")
    return None


def verify_propagation_barrier(op: Operation, ctx: Context) -> Failure | None:
    """C38: the direction may not be BOTH."""
    if op.properties_view.get("allowed_direction") == "BOTH":
        return fail("'sdy.propagation_barrier' op allowed_direction=BOTH blocks nothing, which makes the barrier "
                    "useless; use NONE, FORWARD or BACKWARD")
    return None


_LITERAL_TYPE = re.compile(r'> : ((?:tensor|vector)<[^"]*>)$')


def verify_constant(op: Operation, ctx: Context) -> Failure | None:
    """C40: the literal has a static shape matching the result type (InferTypeOpInterface: the result is the
    literal's type)."""
    t = _result_type(op)
    value = op.properties.get("value")
    literal = _LITERAL_TYPE.search(str(value)) if value is not None else None
    if t is not None and literal is not None:  # (kept by the generic parse when it is not the result type)
        from shardy_py.dialects.stablehlo_verify_misc import constant_type_mismatch
        from shardy_py.ir.types import parse_type

        if (f := constant_type_mismatch(op, parse_type(literal.group(1)), t)) is not None:
            return f
    if t is not None and not has_static_shape(t):
        return fail(f"'sdy.constant' op the literal's type {type_str(t)} must have a static shape")
    return None

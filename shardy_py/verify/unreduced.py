"""Rule C68: which unreduced-axis transitions between operand and result shardings are allowed."""
from __future__ import annotations

from collections.abc import Sequence

from shardy_py.ir.attrs import TensorShardingAttr
from shardy_py.ir.ops import Operation
from shardy_py.verify.axes import axis_ref_str, axis_set_diff, overlaps
from shardy_py.verify.context import Context
from shardy_py.verify.diagnostics import Failure, fail


def verify_unreduced_transition(op: Operation, ctx: Context, operands: Sequence[TensorShardingAttr | None],
                                results: Sequence[TensorShardingAttr | None], introduce_as: str | None,
                                remove_as: str | None) -> Failure | None:
    """C68: ``introduce_as``/``remove_as`` are the reduction kind allowed for new/dropped
    unreduced axes (None: not allowed at all); kept axes must keep their kind."""
    pre = f"'{op.name}' op "
    ins = [s for s in operands if s is not None]
    outs = [s for s in results if s is not None]
    flat_in = [a for s in ins for a in s.unreduced_axes]
    flat_out = [a for s in outs for a in s.unreduced_axes]
    mesh = None
    for s in (*ins, *outs):
        m = ctx.mesh_of(s)
        if m is not None:
            if mesh is None:
                mesh = m
            elif m != mesh:
                return None
    if mesh is None:
        return None
    introduced = axis_set_diff(flat_out, flat_in, mesh)
    removed = axis_set_diff(flat_in, flat_out, mesh)

    def check_kind(shardings, diff, expected: str, verb: str) -> Failure | None:
        for s in shardings:
            if any(overlaps(a, d) for a in s.unreduced_axes for d in diff) and s.reduction != expected:
                return fail(f"{pre}{verb} unreduced axes of kind '{s.reduction}' is not allowed here; they must be "
                            f"'{expected}'")
        return None

    if introduced:
        if introduce_as is None:
            return fail(f"{pre}result makes axis {axis_ref_str(introduced[0])} unreduced, but this op cannot add "
                        "unreduced axes")
        f = check_kind(outs, introduced, introduce_as, "introducing")
        if f:
            return f
    if removed:
        if remove_as is None:
            return fail(f"{pre}unreduced axis {axis_ref_str(removed[0])} of the operand is dropped; only a "
                        "reducing op (e.g. sdy.reshard or sdy.all_reduce) may turn unreduced axes into reduced ones")
        f = check_kind(ins, removed, remove_as, "reducing")
        if f:
            return f
    for r in outs:
        for a in r.unreduced_axes:
            for s in ins:
                if s.reduction != r.reduction and any(overlaps(b, a) for b in s.unreduced_axes):
                    return fail(f"{pre}unreduced axis {axis_ref_str(a)} is kept but its reduction kind changes from "
                                f"'{s.reduction}' to '{r.reduction}'")
    return None

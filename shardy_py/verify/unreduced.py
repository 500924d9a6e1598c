"""Rule C68: which unreduced-axis transitions between operand and result shardings are allowed
(``verifyUnreducedAxesTransition``, ir/utils.cc), with the C++ messages: the op verifiers of
``sdy.reshard``, ``sdy.sharding_constraint``, ``sdy.all_reduce``, ``sdy.reduce_scatter`` and the
``sdy-verify-unreduced-axes`` pass report them alike."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from shardy_py.ir.attrs import MeshAttr, TensorShardingAttr
from shardy_py.ir.ops import Operation
from shardy_py.verify.axes import axis_set_diff, overlaps
from shardy_py.verify.context import Context
from shardy_py.verify.diagnostics import Failure, fail

#: ``introduce_as`` for ops that may introduce unreduced axes of any reduction kind: jaxlib 0.12 accepts an
#: ``sdy.reshard`` or ``sdy.sharding_constraint`` introducing ``max``/``min`` axes (the test files'
#: commit required ``sum``: ir/reshard_verification.mlir:49, ir/sharding_constraint_verification.mlir:62)
ANY_KIND = "any"


def unreduced_transition_error(mesh_of: Callable[[TensorShardingAttr], MeshAttr | None],
                               operands: Sequence[TensorShardingAttr | None],
                               results: Sequence[TensorShardingAttr | None], introduce_as: str | None,
                               remove_as: str | None) -> str | None:
    """The message (without the ``'op' op`` prefix) of the first C68 violation, or None.

    Results may add unreduced axes only of kind ``introduce_as`` (``ANY_KIND``: of any kind) and drop
    operand axes only of kind ``remove_as`` (None: not at all); an axis kept from an operand keeps its
    kind.  Nothing
    is checked when the shardings' meshes differ or none is found."""
    ins = [s for s in operands if s is not None]
    outs = [s for s in results if s is not None]
    mesh = None
    for s in (*ins, *outs):
        m = mesh_of(s)
        if m is not None:
            if mesh is None:
                mesh = m
            elif m != mesh:
                return None
    if mesh is None:
        return None
    flat_in = [a for s in ins for a in s.unreduced_axes]
    flat_out = [a for s in outs for a in s.unreduced_axes]
    introduced = axis_set_diff(flat_out, flat_in, mesh)
    removed = axis_set_diff(flat_in, flat_out, mesh)

    def check_kind(shardings, diff, expected: str, verb: str) -> str | None:
        for s in shardings:
            if any(overlaps(a, d) for a in s.unreduced_axes for d in diff) and s.reduction != expected:
                return f"cannot {verb} '{s.reduction}' unreduced axes. Expected '{expected}'."
        return None

    if introduced:
        if introduce_as is None:
            return f"cannot add new unreduced axis '{introduced[0].name}'."
        message = None if introduce_as == ANY_KIND else check_kind(outs, introduced, introduce_as, "introduce")
        if message:
            return message
    if removed:
        if remove_as is None:
            return (f"dropped unreduced axis '{removed[0].name}' without a blessed operation (e.g., sdy.reshard). "
                    "This is an invalid transition from unreduced to reduced.")
        message = check_kind(ins, removed, remove_as, "reduce")
        if message:
            return message
    for r in outs:
        for a in r.unreduced_axes:
            for s in ins:
                if s.reduction != r.reduction and any(overlaps(b, a) for b in s.unreduced_axes):
                    return ("cannot change the reduction operator of kept unreduced axes from "
                            f"{s.reduction} to {r.reduction}.")
    return None


def verify_unreduced_transition(op: Operation, ctx: Context, operands: Sequence[TensorShardingAttr | None],
                                results: Sequence[TensorShardingAttr | None], introduce_as: str | None,
                                remove_as: str | None) -> Failure | None:
    """C68 on ``op`` (see ``unreduced_transition_error``)."""
    message = unreduced_transition_error(ctx.mesh_of, operands, results, introduce_as, remove_as)
    return None if message is None else fail(f"'{op.name}' op {message}")

"""``-sdy-verify-unreduced-axes`` (export/verify_unreduced_axes.cc): check, op by op, that no op
turns unreduced axes into reduced ones (or invents them) unless it is one of the ops allowed to.

The ops of each function are visited in post-order (nested ops before the op holding them); the
first violation is reported as an error on its op and the pass fails.  Per kind of op:

* ``sdy.reshard`` / ``sdy.sharding_constraint`` (the "blessed" ops) may change unreduced axes
  freely; ``sdy.all_reduce`` / ``sdy.reduce_scatter`` must have a sharded operand.  What else the
  C++ re-checks on these ops is their own verifier, which every module passed when it was read (and
  the pass manager runs again after each pass), so it is not repeated here;
* ``stablehlo.reduce`` may drop unreduced axes of the kind its body reduces with (``add`` = sum,
  ``max``, ``min``) and introduce axes of that kind;
* ``stablehlo.dot`` / ``dot_general`` and every other op may only introduce ``sum`` axes;
* ``stablehlo.all_reduce`` / ``reduce_scatter`` may drop axes of their body's kind, not add any;
* ``func.call``: the unreduced axes of each operand and of the callee's argument must agree (as a
  set), and so must those of the callee's results and the call's results;
* a ``func.return`` / ``sdy.return`` returning from a function or from an op with results: each returned value must
  have the unreduced axes of what it becomes (the func result, or the op result with the
  manual axes of a ``sdy.manual_computation`` left out).

A value produced by a blessed op (looking through ``sdy.propagation_barrier``) counts as having no
sharding where it is used, and the returned values check is skipped for it.
"""
from __future__ import annotations

from collections.abc import Sequence

from shardy_py.ir.attrs import TensorShardingAttr
from shardy_py.ir.ops import Operation, Value
from shardy_py.ir.walk import walk_post_order
from shardy_py.passes.data_flow import erase_manual_axes
from shardy_py.passes.func_calls import callee_of, result_sharding, sym_name
from shardy_py.passes.registry import Pass, register
from shardy_py.passes.shardings import get_sharding
from shardy_py.rules.registry import TERMINATOR_OPS
from shardy_py.verify.axes import axis_sort_key
from shardy_py.verify.unreduced import unreduced_transition_error

#: Ops whose output may carry any unreduced axes (``isExplicitReshardOp``).
BLESSED_OPS = frozenset({"sdy.reshard", "sdy.sharding_constraint"})

#: Terminators with MLIR's ``ReturnLike`` trait (``stablehlo.return`` has only ``Terminator``).
RETURN_LIKE_OPS = frozenset({"func.return", "sdy.return"})

_REDUCTION_OF_BODY_OP = {"stablehlo.add": "sum", "stablehlo.maximum": "max", "stablehlo.minimum": "min"}


class UnreducedAxesError(Exception):
    """An unreduced-axes violation found at ``op``."""

    def __init__(self, op: Operation, message: str):
        super().__init__(message)
        self.op = op


def _fail(op: Operation, message: str) -> UnreducedAxesError:
    return UnreducedAxesError(op, f"'{op.name}' op {message}")


def sharding_bypassing_barriers(value: Value) -> TensorShardingAttr | None:
    """``getShardingBypassingBarriers``: the sharding of ``value``, or of the input of the
    ``sdy.propagation_barrier`` chain producing it."""
    while isinstance(value.owner, Operation) and value.owner.name == "sdy.propagation_barrier":
        value = value.owner.operands[0]
    return get_sharding(value)


def defined_by_blessed_op(value: Value | None) -> bool:
    """Whether ``value`` comes from a reshard or sharding constraint (through barriers)."""
    if value is None:
        return False
    while isinstance(value.owner, Operation) and value.owner.name == "sdy.propagation_barrier":
        value = value.owner.operands[0]
    return isinstance(value.owner, Operation) and value.owner.name in BLESSED_OPS


def _unreduced(sharding: TensorShardingAttr | None) -> tuple:
    return sharding.unreduced_axes if sharding is not None else ()


def _same_axis_sets(source: Sequence, target: Sequence, op: Operation, where: str) -> None:
    """Raise unless ``source`` and ``target`` hold the same axes (order and repeats aside)."""
    if sorted(set(source), key=axis_sort_key) == sorted(set(target), key=axis_sort_key):
        return
    names = sorted({a.name for a in source if a not in target} | {a.name for a in target if a not in source})
    raise _fail(op, f"has unreduced axes mismatch for '{', '.join(names)}' at {where}.")


def transition_check(op: Operation, mesh_of, operands: Sequence[TensorShardingAttr | None],
                     results: Sequence[TensorShardingAttr | None], introduce_as: str | None,
                     remove_as: str | None = None) -> None:
    """``verifyUnreducedAxesTransition`` on ``op`` (rule C68, ``verify/unreduced.py``): raise its
    first violation."""
    message = unreduced_transition_error(mesh_of, operands, results, introduce_as, remove_as)
    if message is not None:
        raise _fail(op, message)


def body_reduction(op: Operation) -> str | None:
    """The reduction kind of ``op``'s first region (``getReductionType``): every value its
    ``stablehlo.return`` returns is made by the same one of add / max / min."""
    if not op.regions or not op.regions[0].blocks:
        return None
    block = op.regions[0].blocks[0]
    if not block.ops or block.ops[-1].name != "stablehlo.return" or not block.ops[-1].operands:
        return None
    kind = None
    for value in block.ops[-1].operands:
        owner = value.owner
        this = _REDUCTION_OF_BODY_OP.get(owner.name) if isinstance(owner, Operation) else None
        if this is None or (kind is not None and kind != this):
            return None
        kind = this
    return kind


class _Verifier:
    def __init__(self, top, mesh_of):
        self.mesh_of = mesh_of
        self.funcs = {sym_name(op): op for op in top.ops if op.name == "func.func"}

    def _operand_shardings(self, op: Operation) -> list[TensorShardingAttr | None]:
        return [None if defined_by_blessed_op(v) else sharding_bypassing_barriers(v) for v in op.operands]

    def _result_shardings(self, op: Operation) -> list[TensorShardingAttr | None]:
        return [sharding_bypassing_barriers(r) for r in op.results]

    def check(self, op: Operation) -> None:
        name = op.name
        if name in BLESSED_OPS:
            return
        if name == "stablehlo.reduce":
            n = len(op.operands) // 2
            ins = [None if defined_by_blessed_op(v) else sharding_bypassing_barriers(v) for v in op.operands[:n]]
            kind = body_reduction(op)
            transition_check(op, self.mesh_of, ins, self._result_shardings(op), kind, kind)
            return
        if name in ("stablehlo.dot", "stablehlo.dot_general"):
            transition_check(op, self.mesh_of, self._operand_shardings(op), self._result_shardings(op), "sum")
            return
        if name in ("sdy.all_reduce", "sdy.reduce_scatter"):
            if sharding_bypassing_barriers(op.operands[0]) is None:
                raise _fail(op, "operand must be sharded.")
            return
        if name in ("stablehlo.all_reduce", "stablehlo.reduce_scatter"):
            ins = sharding_bypassing_barriers(op.operands[0])
            outs = sharding_bypassing_barriers(op.results[0])
            if ins is not None or outs is not None:
                transition_check(op, self.mesh_of, [ins], [outs], None, body_reduction(op))
            return
        if name == "func.call":
            self.check_call(op)
            return
        if name in TERMINATOR_OPS:
            if name in RETURN_LIKE_OPS:
                self.check_terminator(op)
            return
        transition_check(op, self.mesh_of, self._operand_shardings(op), self._result_shardings(op), "sum")

    def check_call(self, call: Operation) -> None:
        callee = self.funcs.get(callee_of(call))
        if callee is None:
            return
        body = callee.regions[0].blocks[0] if callee.regions and callee.regions[0].blocks else None
        for i, operand in enumerate(call.operands):
            if defined_by_blessed_op(operand):
                continue
            arg = sharding_bypassing_barriers(body.arguments[i]) if body is not None else None
            _same_axis_sets(_unreduced(sharding_bypassing_barriers(operand)), _unreduced(arg), call,
                            f"call argument {i}")
        for i, result in enumerate(call.results):
            _same_axis_sets(_unreduced(result_sharding(callee, i)), _unreduced(sharding_bypassing_barriers(result)),
                            call, f"call result {i}")

    def check_terminator(self, op: Operation) -> None:
        holder = op.parent.parent.parent if op.parent is not None and op.parent.parent is not None else None
        if holder is None:
            return
        if holder.name == "func.func":
            targets = [result_sharding(holder, i) for i in range(len(op.operands))]
        else:
            targets = []
            manual = holder.properties.get("manual_axes") if holder.name == "sdy.manual_computation" else None
            for i in range(min(len(op.operands), len(holder.results))):
                s = sharding_bypassing_barriers(holder.results[i])
                if s is not None and manual is not None:
                    s = erase_manual_axes(s, tuple(manual.axes))
                targets.append(s)
        for i, target in enumerate(targets):
            operand = op.operands[i]
            if target is None or defined_by_blessed_op(operand):
                continue
            _same_axis_sets(_unreduced(sharding_bypassing_barriers(operand)), target.unreduced_axes, op,
                            f"return value {i} without a blessed operation (e.g., sdy.reshard). This is an invalid "
                            "transition from unreduced to reduced")


@register
class VerifyUnreducedAxesPass(Pass):
    name = "sdy-verify-unreduced-axes"
    summary = "Verifies that unreduced axes only become reduced through explicit reshards or reductions."
    anchor = "func.func"

    def run(self, func, ctx) -> None:
        """Check every op of ``func`` (post-order); report the first violation and fail."""
        from shardy_py.passes.meshes import MeshTable

        top = func.parent  # the module body: meshes and functions
        verifier = _Verifier(top, MeshTable(top).mesh_of)
        try:
            for op in walk_post_order(func):
                verifier.check(op)
        except UnreducedAxesError as e:
            ctx.error(e.op, str(e))
            return
        ctx.mark_all_preserved()

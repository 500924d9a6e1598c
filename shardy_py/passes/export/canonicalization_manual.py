"""The ``sdy.manual_computation`` canonicalization patterns (ir/canonicalization.cc, no label):

* ``ManualComputationUnusedInputsPattern``: operands whose block argument is unused are dropped,
  with the argument and the in-sharding (the op is changed in place, which MLIR does without
  telling the driver, so the operands' producers are not revisited before the next round);
* ``RedundantManualComputationPattern``: an op without in/out shardings whose body is only its
  ``sdy.return`` is erased; one whose manual axes multiply to 1 on the common mesh of its shardings
  (no manual axes, or axes of size 1) is inlined with MLIR's ``inlineRegion``: its body moves before
  it, block arguments replaced by the operands and results by the returned values.  Inlining needs
  an inliner interface for the dialect of the op holding the region and of every op moved: jaxlib
  0.12's context has none for ``func`` (nor for unregistered ops), so there an op directly in a
  ``func.func`` body, or with a ``func.call`` anywhere inside, is kept ("'sdy.manual_computation' op
  failed to inline redundant ManualComputationOp.", an error its Python pass manager drops since the
  pass succeeds), and so it is here (tests/test_passes_canonicalize_jaxlib.py pins it;
  ``SHARDY_COMMIT``'s ir/manual_computation_canonicalization.mlir, run by ``sdy_opt``, which has the
  func interface, expects those inlined).
"""
from __future__ import annotations

import math

from shardy_py.ir.attrs import TensorShardingPerValueAttr
from shardy_py.ir.edit import erase, erase_argument, move_before
from shardy_py.ir.ops import Operation
from shardy_py.passes.export.canonicalization_patterns import CanonicalizationPattern
from shardy_py.passes.meshes import common_mesh_or_ref
from shardy_py.passes.pattern_driver import PatternRewriter

#: Dialects with an inliner interface in jaxlib 0.12's MLIR context (checked: an op of each moves out
#: of a redundant manual computation; ``func`` ops and unregistered ones do not).
INLINABLE_DIALECTS = frozenset({"sdy", "stablehlo", "chlo", "mhlo", "arith", "tensor"})


def _shardings(op: Operation, key: str) -> tuple:
    attr = op.properties_view.get(key)
    return attr.shardings if isinstance(attr, TensorShardingPerValueAttr) else ()


def unused_inputs(op: Operation, rw: PatternRewriter) -> bool:
    """``ManualComputationUnusedInputsPattern``."""
    block = op.regions[0].blocks[0]
    unused = [i for i, arg in enumerate(block.arguments) if not arg.has_uses()]
    if not unused:
        return False
    keep = [i for i in range(len(op.operands)) if i not in unused]
    in_shardings = _shardings(op, "in_shardings")
    operands, types, names = list(op.operands), list(op.operand_types_view), list(op.operand_names_view)
    op.set_operands([operands[i] for i in keep])
    op.operand_types = [types[i] for i in keep]
    op.operand_names = [names[i] for i in keep]
    for i in reversed(unused):
        erase_argument(block, i)
    op.properties["in_shardings"] = TensorShardingPerValueAttr(tuple(in_shardings[i] for i in keep))
    return True


def inlinable(op: Operation) -> bool:
    """Whether MLIR's ``inlineRegion`` can move ``op``'s body into the region holding it in jaxlib
    0.12's context: that region's op and every op in the body (nested ones too) must belong to a
    dialect with an inliner interface there (``INLINABLE_DIALECTS``)."""
    holder = op.parent.parent.parent if op.parent is not None and op.parent.parent is not None else None
    if holder is None or holder.name.split(".", 1)[0] not in INLINABLE_DIALECTS:
        return False
    return all(inner.name.split(".", 1)[0] in INLINABLE_DIALECTS for inner in op.walk() if inner is not op)


def redundant_manual_computation(op: Operation, rw: PatternRewriter) -> bool:
    """``RedundantManualComputationPattern`` (module docstring)."""
    block = op.regions[0].blocks[0]
    ins, outs = _shardings(op, "in_shardings"), _shardings(op, "out_shardings")
    if not ins and not outs and block.ops and block.ops[0].name == "sdy.return":
        rw.erase_op(op)
        return True
    product = 1
    if ins or outs:
        table = rw.context["table"]
        mesh = table.lookup(common_mesh_or_ref((*ins, *outs), table))  # ``getCommonMesh``
        if mesh is None:
            return False
        manual = op.properties_view.get("manual_axes")
        product = math.prod(mesh.axis_size(a) for a in (manual.axes if manual is not None else ()))
    if product != 1 or not inlinable(op):
        return False
    for arg, operand in zip(block.arguments, op.operands, strict=True):
        arg.replace_all_uses_with(operand)
    terminator = block.ops[-1]
    results = list(terminator.operands)
    for inner in list(block.ops[:-1]):
        move_before(inner, op)
    erase(terminator)
    rw.replace_op(op, results)
    return True


#: ``(registering op, pattern)`` as ``sdy.manual_computation`` adds them.
MANUAL_COMPUTATION_PATTERNS = (
    ("sdy.manual_computation", CanonicalizationPattern("ManualComputationUnusedInputsPattern",
                                                       "sdy.manual_computation", unused_inputs, label=None)),
    ("sdy.manual_computation", CanonicalizationPattern("RedundantManualComputationPattern",
                                                       "sdy.manual_computation", redundant_manual_computation,
                                                       label=None)),
)

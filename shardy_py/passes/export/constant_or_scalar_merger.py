"""``-sdy-constant-or-scalar-merger`` (export/constant_or_scalar_merger.cc): a light CSE undoing the
splitter where propagation left the copies alike.  A constant (``sdy.constant`` or a constant-like
op) with the same attribute dictionary (value, shardings and all) as an earlier one in the same
region is replaced by it; so is a ``stablehlo.broadcast_in_dim`` of a scalar with the same
attributes, result type and operand as an earlier one in the same region."""
from __future__ import annotations

from shardy_py.ir.edit import replace_op
from shardy_py.ir.ops import Operation
from shardy_py.ir.walk import walk_post_order
from shardy_py.passes.greedy_driver import CONSTANT_LIKE_OPS
from shardy_py.passes.import_.constant_or_scalar_splitter import is_scalar
from shardy_py.passes.registry import Pass, register


def attribute_dictionary_key(op: Operation) -> tuple:
    """``getAttrDictionary`` as a key: the inherent and discardable attributes by name.

    ``sdy.constant`` keeps its value without the `` : type`` suffix ``stablehlo.constant`` writes;
    the suffix is put back so that one dense value gives one key, as one ``DenseElementsAttr``
    does in MLIR."""
    items = {name: str(value) for name, value in op.properties_view.items()}
    if op.name == "sdy.constant" and "value" in items:
        suffix = f" : {op.results[0].type}"
        if not items["value"].endswith(suffix):
            items["value"] += suffix
    items.update((name, str(value)) for name, value in op.attributes_view.items())
    return tuple(sorted(items.items()))


def _is_constant(op: Operation) -> bool:
    return op.name == "sdy.constant" or op.name in CONSTANT_LIKE_OPS


@register
class ConstantOrScalarMergerPass(Pass):
    name = "sdy-constant-or-scalar-merger"
    summary = "Merge identical constants and scalar expansions with matching shardings."
    anchor = "func.func"

    def run(self, func, ctx) -> None:
        """Walk the function (each op once, in MLIR's post-order walk order) and replace each
        duplicate by the first op of its key."""
        constants: dict[tuple, Operation] = {}
        broadcasts: dict[tuple, Operation] = {}
        changed = False
        for op in list(walk_post_order(func)):
            if _is_constant(op):
                key = (attribute_dictionary_key(op), id(op.parent.parent))
                cache = constants
            elif op.name == "stablehlo.broadcast_in_dim" and op.operands and is_scalar(op.operands[0]):
                key = (attribute_dictionary_key(op), id(op.parent.parent), str(op.results[0].type),
                       id(op.operands[0]))
                cache = broadcasts
            else:
                continue
            kept = cache.setdefault(key, op)
            if kept is not op:
                replace_op(op, kept.results)
                changed = True
        if not changed:
            ctx.mark_all_preserved()



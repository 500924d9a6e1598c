"""Region bodies emptied down to their label (``^bb0(%x: tensor<f32>, %y: tensor<f32>):`` and nothing else) in
the region ops without MLIR's ``SingleBlock`` trait: jaxlib 0.12 rejects them through the op's own verifier
(which finds no terminator), or for ``chlo.scan``, whose verifier skips a body without one, through MLIR's
"empty block: expect at least a terminator".  The op verifiers here leave a block without ops alone (its
types are unknown), so these checks run after them, when they found nothing else."""
from __future__ import annotations

from shardy_py.dialects.registry import add_verifier
from shardy_py.ir.diagnostics import Failure, fail

#: op -> the message for an emptied body, by region index.
_MESSAGES = {
    "stablehlo.scatter": ("The reduction-region expected to have a terminator",),
    "stablehlo.reduce_scatter": ("The reduction-region expected to have a terminator",),
    "stablehlo.select_and_scatter": ("expects select-region to return single value, but got: 0",
                                     "The reduction-region expected to have a terminator"),
    "stablehlo.sort": ("comparator must return single output but got 0",),
    "chlo.scan": ("empty block: expect at least a terminator",),
}


def verify_empty_body(op, ctx) -> Failure | None:
    """The first region of ``op`` whose single block holds no op, with jaxlib's message for it."""
    messages = _MESSAGES[op.name]
    for i, region in enumerate(op.regions[:len(messages)]):
        blocks = region.blocks
        if len(blocks) == 1 and not blocks[0].ops:
            return fail(messages[i])
    return None


for _name in _MESSAGES:
    add_verifier(_name, verify_empty_body, after=True)

"""``-canonicalize`` (MLIR's canonicalizer) on sdy ops: every canonicalization pattern the sdy dialect
registers in jaxlib 0.12 (the same set as at ``SHARDY_COMMIT``: ir/canonicalization.cc and .td; sdy
ops have no folders), run by MLIR's greedy driver (``passes/pattern_driver.py``: constants uniqued
and hoisted, dead ops erased, up to ``max-iterations`` rounds, ``top-down`` or bottom-up).

The patterns, by the op that registers them (``canonicalization_collectives``, ``_manual``, ``_reshard``):
the collective ones (label ``sdy-collective``), ``ManualComputationUnusedInputsPattern`` and
``RedundantManualComputationPattern`` (no label), ``ReshardCommonSubexpressionEliminationPattern``
(no label) and ``ReshardOfReshardPattern`` (label ``sdy-reshard``).  As MLIR orders them: by
registering op name, each op's patterns in the order it adds them, then per rewritten op by benefit
(DRR patterns: the number of ops matched), stably.

``enable-patterns`` keeps only the patterns it names and ``disable-patterns`` drops those it names,
by label or class name (with or without ``mlir::sdy::(anonymous namespace)::``), as jaxlib 0.12 reads
them; the export pipeline runs ``canonicalize{enable-patterns=sdy-collective}`` and
``{enable-patterns=sdy-reshard}`` bottom-up.  Other dialects: StableHLO registers no
canonicalization patterns or folders in jaxlib 0.12's context (checked: ``x + 0``, constant
arithmetic, identity reshapes and transposes stay), so nothing else is rewritten.  Region
simplification is modelled by the dead-code sweep only (the sdy and StableHLO test modules have
single-block regions), so ``region-simplify`` is accepted, as are ``max-num-rewrites`` (an upper bound
no module here reaches), ``test-convergence`` and ``cse-between-iterations`` at their defaults.
"""
from __future__ import annotations

from shardy_py.passes.export.canonicalization_collectives import COLLECTIVE_PATTERNS
from shardy_py.passes.export.canonicalization_manual import MANUAL_COMPUTATION_PATTERNS
from shardy_py.passes.export.canonicalization_patterns import (
    COLLECTIVE_LABEL,
    RESHARD_LABEL,
    CanonicalizationPattern,
)
from shardy_py.passes.export.canonicalization_reshard import RESHARD_PATTERNS
from shardy_py.passes.meshes import MeshTable
from shardy_py.passes.pattern_driver import apply_patterns_greedily
from shardy_py.passes.registry import Pass, PassOption, register

__all__ = ["COLLECTIVE_LABEL", "RESHARD_LABEL", "CanonicalizePass", "patterns_by_op"]

#: Every sdy canonicalization pattern, in MLIR's registration order (by registering op name, stably).
ALL_PATTERNS: tuple[CanonicalizationPattern, ...] = tuple(
    p for _, p in sorted((*COLLECTIVE_PATTERNS, *MANUAL_COMPUTATION_PATTERNS, *RESHARD_PATTERNS),
                         key=lambda entry: entry[0]))


def _names(text: str) -> set[str]:
    """The entries of a pattern-list option (``a,b`` or ``{a,b}``)."""
    text = text.strip()
    if text.startswith("{") and text.endswith("}"):
        text = text[1:-1]
    return {x.strip() for x in text.replace(";", ",").split(",") if x.strip()}


def patterns_by_op(enabled: set[str], disabled: set[str]) -> dict[str, list]:
    """Per op name, the ``apply`` functions of the selected patterns, in the order MLIR tries them."""
    chosen: dict[str, list[CanonicalizationPattern]] = {}
    for p in ALL_PATTERNS:
        names = set(p.debug_names())
        if (enabled and not names & enabled) or names & disabled:
            continue
        chosen.setdefault(p.root, []).append(p)
    return {op: [p.apply for p in sorted(ps, key=lambda p: -p.benefit)] for op, ps in chosen.items()}


@register
class CanonicalizePass(Pass):
    name = "canonicalize"
    summary = "Canonicalize operations"
    options = (
        PassOption("enable-patterns", str, "",
                   f"Labels or names of the only patterns to run (e.g. {COLLECTIVE_LABEL}, {RESHARD_LABEL})."),
        PassOption("disable-patterns", str, "", "Labels or names of patterns not to run."),
        PassOption("top-down", bool, True, "Seed the worklist in pre-order (else post-order)."),
        PassOption("max-iterations", int, 10, "Most rounds over the IR."),
        PassOption("region-simplify", ("disabled", "normal", "aggressive"), "normal",
                   "Region simplification level (only its dead-code removal is modelled)."),
        PassOption("max-num-rewrites", int, -1, "Most rewrites per application (-1: no limit)."),
        PassOption("test-convergence", bool, False, "Test only: fail if the patterns do not converge."),
        PassOption("cse-between-iterations", bool, False, "Common subexpression elimination between rounds."),
    )

    def run(self, module, ctx) -> None:
        """Run the selected patterns with the greedy driver on the module body."""
        if self.option("cse-between-iterations"):
            ctx.error(None, "canonicalize: cse-between-iterations=true is not modelled by shardy_py")
            return
        patterns = patterns_by_op(_names(self.option("enable-patterns")), _names(self.option("disable-patterns")))
        if not apply_patterns_greedily(module.op, lambda op: patterns.get(op.name, ()),
                                       top_down=self.option("top-down"), max_iterations=self.option("max-iterations"),
                                       table=MeshTable(module)):
            ctx.mark_all_preserved()  # no constant moved, no pattern applied, nothing erased

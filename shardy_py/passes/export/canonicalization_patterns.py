"""What a canonicalization pattern is, and the labels Shardy gives some of them (ir/constants.h)."""
from __future__ import annotations

from collections.abc import Callable

import attrs

#: ``kCollectiveLabel`` / ``kReshardLabel``: the debug labels of the collective and reshard patterns.
COLLECTIVE_LABEL = "sdy-collective"
RESHARD_LABEL = "sdy-reshard"


@attrs.frozen
class CanonicalizationPattern:
    """One pattern: its C++ class name (its debug name), the op it rewrites, ``apply(op, rewriter) ->
    bool``, its benefit (DRR patterns: the number of ops they match) and its debug label."""

    name: str
    root: str
    apply: Callable
    benefit: int = 1
    label: str | None = COLLECTIVE_LABEL

    def debug_names(self) -> tuple[str, ...]:
        """The names ``enable-patterns`` / ``disable-patterns`` select it by (jaxlib 0.12 takes the class
        name with or without its namespace, and the label)."""
        names = (self.name, f"mlir::sdy::(anonymous namespace)::{self.name}")
        return names + ((self.label,) if self.label else ())

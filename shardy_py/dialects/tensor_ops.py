"""The tensor op StableHLO's tests use: ``tensor.cast`` (``$source attr-dict : type($source) to
type($dest)``), named ``%cast`` as ``CastOp::getAsmResultNames`` names it."""
from __future__ import annotations

from shardy_py.dialects.registry import declare
from shardy_py.syntax.names import RESULT_NAMERS

declare("tensor.cast", operands=("source",), results=("dest",),
        format="$source attr-dict `:` type($source) `to` type($dest)")
RESULT_NAMERS["tensor.cast"] = lambda op: [(0, "cast")]

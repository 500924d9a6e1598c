"""The arith op StableHLO's tests use: ``arith.constant`` (``attr-dict $value``), named as
``arith::ConstantOp::getAsmResultNames`` names it (``%true``, ``%c42_i32``, ``%c0``, ``%cst``)."""
from __future__ import annotations

import re

from shardy_py.dialects.registry import AttrDef, declare
from shardy_py.ir.diagnostics import Failure, fail
from shardy_py.ir.ops import Operation
from shardy_py.ir.types import IntegerType, parse_type
from shardy_py.syntax.names import RESULT_NAMERS


def _verify_constant(op: Operation, ctx) -> Failure | None:
    """``arith::ConstantOp::verify``: an integer (element) type is signless."""
    t = op.results[0].type if op.results else None
    e = parse_type(t.element_type) if isinstance(getattr(t, "element_type", None), str) else t  # (or self)
    if isinstance(e, IntegerType) and e.signedness:
        return fail("'arith.constant' op integer return type must be signless")
    return None


declare("arith.constant", attributes=(AttrDef("value"),), results=("result",), format="attr-dict $value",
        infer_results=lambda op: [_type_of(op)], verify=_verify_constant)

_INT_VALUE = re.compile(r"(-?\d+)(?: : (\w+))?\Z")


def _type_of(op: Operation):
    from shardy_py.ir.types import parse_type

    text = str(op.properties["value"])
    if " : " in text:
        return parse_type(text.rsplit(" : ", 1)[1])
    return parse_type("i1" if text in ("true", "false") else "i64")


def _constant_name(op: Operation) -> list[tuple[int, str]]:
    text = str(op.properties.get("value", ""))
    if text in ("true", "false"):
        return [(0, text)]
    m = _INT_VALUE.match(text)
    if m:
        t = m.group(2) or "i64"
        if t == "i1":
            return [(0, "true" if int(m.group(1)) else "false")]
        return [(0, f"c{m.group(1)}" + ("" if t == "index" else f"_{t}"))]
    return [(0, "cst")]


RESULT_NAMERS["arith.constant"] = _constant_name

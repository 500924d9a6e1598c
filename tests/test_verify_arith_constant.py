"""``arith::ConstantOp::verify``: an integer (element) type must be signless, "integer return type must be
signless" as jaxlib 0.12 says (the 100,000-mutant differential run found a ``tensor<ui8>`` constant accepted).
Expected messages and places are jaxlib's."""
from __future__ import annotations

import pytest
from cpp_oracle import context

import shardy_py
from shardy_py.verify import verify

TEMPLATE = """func.func @f() -> {type} {{
  %0 = arith.constant {value} : {type}
  return %0 : {type}
}}
"""
VALID = {"i32": "1", "tensor<2xi8>": "dense<1>", "tensor<2xf32>": "dense<1.0>", "index": "0"}
INVALID = {"ui32": "1", "si8": "1", "tensor<2xui8>": "dense<1>", "vector<2xsi16>": "dense<1>"}


def _errors(text: str) -> list:
    return [(d.line, d.column, d.message) for d in verify(shardy_py.parse(text)) if d.severity == "error"]


@pytest.mark.parametrize("type_", sorted(VALID))
def test_signless_or_non_integer_accepted(type_: str) -> None:
    assert _errors(TEMPLATE.format(type=type_, value=VALID[type_])) == []


@pytest.mark.parametrize("type_", sorted(INVALID))
def test_signed_or_unsigned_integer_rejected(type_: str) -> None:
    assert _errors(TEMPLATE.format(type=type_, value=INVALID[type_]))[:1] == [
        (2, 8, "'arith.constant' op integer return type must be signless")]


@pytest.mark.parametrize("type_", sorted(VALID))
def test_jaxlib_accepts_the_valid_ones(type_: str) -> None:
    from jax._src.lib.mlir import ir

    ir.Module.parse(TEMPLATE.format(type=type_, value=VALID[type_]), context=context())


@pytest.mark.parametrize("type_", sorted(INVALID))
def test_jaxlib_says_the_same(type_: str) -> None:
    from jax._src.lib.mlir import ir

    with pytest.raises(ir.MLIRError) as e:
        ir.Module.parse(TEMPLATE.format(type=type_, value=INVALID[type_]), context=context())
    assert "\"-\":2:8: 'arith.constant' op integer return type must be signless" in str(e.value)

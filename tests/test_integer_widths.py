"""Integer type widths written with leading zeros (``i032``, ``ui008``, ``si0016``, ``i000``).

MLIR's lexer reads an integer type's width as a number, so ``i032`` *is* ``i32``: the two are one type
(a value declared ``tensor<1xi032>`` may be used as ``tensor<1xi32>``), and the module prints ``i32``.
Found by `.ci/fuzz` at d75c5ef (mlir-verdict-d2a1b04c9099): we rejected a valid module with "use of value
'%arg0' expects different type than prior uses: 'tensor<1xi32>' vs 'tensor<1xi032>'".
"""
from __future__ import annotations

import pytest
from cpp_oracle import cpp

import shardy_py
from shardy_py.ir.types import IntegerType, parse_type

_FUZZ_FINDING = """\
sdy.mesh @"mesh-x" = <["y"=2, "data"=2, "model"=1]>
func.func @main(%arg0: tensor<1xi032>, %arg1: tensor<8xf32>) -> tensor<1xi32> {
  %0 = sdy.sharding_constraint %arg0 <@"mesh-x", [{}], replicated={"y"}, unreduced={"model"}> : tensor<1xi32>
  return %arg0 : tensor<1xi32>
}
"""

_MODULES = {
    "fuzz-finding": _FUZZ_FINDING,
    "signless": "func.func @main(%a: tensor<1xi032>) -> tensor<1xi32> {\n  return %a : tensor<1xi32>\n}\n",
    "unsigned": "func.func @main(%a: tensor<1xui008>) -> tensor<1xui8> {\n  return %a : tensor<1xui8>\n}\n",
    "signed": "func.func @main(%a: tensor<1xsi0016>) -> tensor<1xsi16> {\n  return %a : tensor<1xsi16>\n}\n",
    "zero-width": "func.func @main(%a: tensor<1xi000>) -> tensor<1xi0> {\n  return %a : tensor<1xi0>\n}\n",
    "vector-and-memref": ("func.func @main(%a: vector<2xi032>, %b: memref<2xi01>) -> vector<2xi32> {\n"
                          "  return %a : vector<2xi32>\n}\n"),
    "tuple": ("func.func @main(%a: tuple<i032, tensor<i08>>) -> tuple<i32, tensor<i8>> {\n"
              "  return %a : tuple<i32, tensor<i8>>\n}\n"),
    "op-types": ("func.func @main(%a: tensor<2xf32>) -> tensor<2xi32> {\n"
                 "  %0 = stablehlo.convert %a : (tensor<2xf32>) -> tensor<2xi032>\n"
                 "  %1 = stablehlo.constant dense<[1, 2]> : tensor<2xi0032>\n"
                 "  %2 = stablehlo.add %0, %1 : tensor<2xi32>\n"
                 "  return %2 : tensor<2xi32>\n}\n"),
    "attributes": ("func.func @main(%a: tensor<2xi32>) -> tensor<2xi32> attributes {w = array<i032: 1, 2>, "
                   "x = 3 : i032, y = dense<[[1, 2]]> : tensor<1x2xui008>, z = [1 : si0016], i032 = \"i032\"} {\n"
                   "  return %a : tensor<2xi32>\n}\n"),
}


@pytest.mark.parametrize(("text", "expected"), [
    ("i032", IntegerType("i32", 32, "")),
    ("ui008", IntegerType("ui8", 8, "u")),
    ("si0016", IntegerType("si16", 16, "s")),
    ("i000", IntegerType("i0", 0, "")),
])
def test_a_padded_width_reads_as_the_plain_type(text: str, expected: IntegerType) -> None:
    assert parse_type(text) == expected


@pytest.mark.parametrize("name", sorted(_MODULES))
def test_modules_with_padded_widths_verify_clean(name: str) -> None:
    assert shardy_py.verify(shardy_py.parse(_MODULES[name])) == []


def test_the_fuzz_finding_prints_the_plain_width() -> None:
    assert "%arg0: tensor<1xi32>," in str(shardy_py.parse(_FUZZ_FINDING))


def test_strings_and_names_keep_their_digits() -> None:
    printed = str(shardy_py.parse(_MODULES["attributes"]))
    assert 'i032 = "i032"' in printed
    assert "x = 3 : i32" in printed


def test_an_opaque_dialect_attribute_keeps_its_text() -> None:
    """(jaxlib 0.12 prints the body of an attribute of a dialect it does not know as written)"""
    text = ("func.func @main(%a: tensor<2xi32>) -> tensor<2xi32> attributes {k = #foo<x i032>} {\n"
            "  return %a : tensor<2xi32>\n}\n")
    assert "k = #foo<x i032>" in str(shardy_py.parse(text))
    assert str(shardy_py.parse(text)) == cpp(text, "builtin.module()")


@pytest.mark.parametrize("name", sorted(_MODULES))
def test_prints_as_jaxlib_does(name: str) -> None:
    text = _MODULES[name]
    assert str(shardy_py.parse(text)) == cpp(text, "builtin.module()")

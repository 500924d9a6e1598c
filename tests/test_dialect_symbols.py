"""Attributes and types of dialects MLIR keeps opaque print as MLIR prints them (``syntax.dialect_symbols``).

MLIR stores ``!c.name<body>`` as dialect ``c`` and the text ``name<body>``, and prints it back in the pretty form
only when that text is a letter-led identifier of letters, digits, ``.`` and ``_`` (optionally with one
``<...>`` body), else in the angle form.  A name may hold MLIR's id-punct ``$ . _ -`` (``!c.a-b<1>``: we
rejected that valid type before) and may be empty (``!c.``, found by atheris at 67070dc).  Expected prints are
jaxlib 0.12's; the last tests ask jaxlib itself.
"""
from __future__ import annotations

import pytest
from cpp_oracle import cpp

import shardy_py
from shardy_py.syntax.dialect_symbols import canonical_dialect_symbols, pretty_symbol

#: written -> printed by jaxlib 0.12 (types ``!``, attributes ``#``).
SPELLINGS = {
    "!c.": "!c<>", "!c.1.": "!c<1.>", "!c.abc": "!c.abc", "!c<abc>": "!c.abc", "!c<1.>": "!c<1.>",
    '!c<"abc">': '!c<"abc">', "!c.a$b": "!c<a$b>", "!c.a.b": "!c.a.b", "!c.a<1>": "!c.a<1>",
    "!c.1<x>": "!c<1<x>>", "!c<a<1>>": "!c.a<1>", "!c.a_b": "!c.a_b", "!c.a-b<1>": "!c<a-b<1>>",
    "#c.": "#c<>", "#c.1.": "#c<1.>", "#c<abc>": "#c.abc", "#c.a$b": "#c<a$b>", "#c.1<x>": "#c<1<x>>",
    "#c<a<1>>": "#c.a<1>", "#c.a-b<1>": "#c<a-b<1>>",
}


def _type_module(t: str) -> str:
    return f"func.func @f(%a: {t}) -> {t} {{\n  return %a : {t}\n}}\n"


def _attr_module(a: str) -> str:
    return (f"func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> attributes {{x = {a}}} {{\n"
            "  return %a : tensor<8xf32>\n}\n")


def _module(written: str) -> str:
    return _type_module(written) if written[0] == "!" else _attr_module(written)


@pytest.mark.parametrize("written", sorted(SPELLINGS))
def test_a_symbol_prints_in_mlir_s_form(written: str) -> None:
    assert str(shardy_py.parse(_module(written))) == str(shardy_py.parse(_module(SPELLINGS[written])))
    assert SPELLINGS[written] in str(shardy_py.parse(_module(written)))


@pytest.mark.parametrize("written", sorted(SPELLINGS))
def test_the_printed_form_is_kept(written: str) -> None:
    printed = SPELLINGS[written]
    assert canonical_dialect_symbols(printed) == printed


def test_strings_and_dialects_with_their_own_syntax_are_untouched() -> None:
    text = '[#c.1, "#c.1", #stablehlo<comparison_direction LT>, #sdy.x, #loc1]'
    assert canonical_dialect_symbols(text) == '[#c<1>, "#c.1", #stablehlo<comparison_direction LT>, #sdy.x, #loc1]'


def test_a_symbol_inside_a_tensor_type_is_spelled_too() -> None:
    assert pretty_symbol("!", "c", "<abc>") == "!c.abc"
    assert str(shardy_py.parse(_type_module("tensor<2x!c<abc>>"))).count("tensor<2x!c.abc>") == 3


@pytest.mark.parametrize("written", sorted(SPELLINGS))
def test_jaxlib_prints_the_same(written: str) -> None:
    assert str(shardy_py.parse(_module(written))) == cpp(_module(written), "builtin.module()")

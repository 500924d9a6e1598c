"""Vertical tabs and form feeds: Python counts them as white space and line breaks, MLIR does
not.  Outside comments MLIR's lexer rejects them ("unexpected character"), inside a string literal
they end it with an error; errors are located on lines counted at ``\\n`` only, as MLIR counts."""
from __future__ import annotations

import pytest

import shardy_py
from shardy_py.cli import main
from shardy_py.errors import AttrSyntaxError, ParseError, source_lines
from shardy_py.syntax.attr_reader import parse_attribute

IN_GENERIC_ATTRIBUTE = 'module {\n  "test.op"() {a = "x\fy"} : () -> ()\n}\n'
IN_SDY_AXIS_NAME = ('module {\n  sdy.mesh @m = <["a"=2]>\n'
                    '  func.func @f(%arg0: tensor<2xf32> {sdy.sharding = #sdy.sharding<@m, [{"a\v"}]>}) {\n'
                    '    return\n  }\n}\n')
BETWEEN_OPS = 'module {\n  // a \f comment may hold one\n\f}\n'


def _error(text: str) -> tuple[int, int, str]:
    with pytest.raises(ParseError) as e:
        shardy_py.parse(text)
    return e.value.line, e.value.column, e.value.message


def test_a_form_feed_in_a_generic_attribute_string_is_located_where_mlir_locates_it():
    assert _error(IN_GENERIC_ATTRIBUTE) == (
        2, 22, "expected '\"' in string literal: a string cannot hold a raw form feed (write a hex escape)")


def test_a_vertical_tab_in_an_axis_name_is_an_error():
    assert _error(IN_SDY_AXIS_NAME) == (
        3, 75, "expected '\"' in string literal: a string cannot hold a raw vertical tab (write a hex escape)")


def test_a_form_feed_between_ops_is_an_unexpected_character_but_not_in_a_comment():
    assert _error(BETWEEN_OPS) == (3, 1, "unexpected character: a form feed is not white space in MLIR")


def test_a_string_attribute_read_alone_rejects_a_raw_form_feed_but_not_its_escape():
    with pytest.raises(AttrSyntaxError, match="cannot hold a raw line break, vertical tab or form feed"):
        parse_attribute('"\f"')
    assert parse_attribute('"\\0C"').value == "\f"


def test_source_lines_break_at_newlines_only():
    assert source_lines("a\fb\nc\r\nd\n") == ["a\fb", "c", "d"]
    assert source_lines("x") == ["x"]


def test_verify_shows_the_line_mlir_numbers(tmp_path, capsys):
    path = tmp_path / "ff.mlir"
    path.write_text(IN_SDY_AXIS_NAME)
    assert main(["verify", str(path)]) == 1
    shown = capsys.readouterr().err.split("\n")
    assert shown[0].startswith(f"{path}:3:75: error: expected '\"' in string literal")
    assert shown[1] == source_lines(IN_SDY_AXIS_NAME)[2]
    assert shown[2] == " " * 74 + "^"


@pytest.mark.parametrize("text", [IN_GENERIC_ATTRIBUTE, IN_SDY_AXIS_NAME, BETWEEN_OPS])
def test_jaxlib_rejects_the_same_texts_at_the_same_place(text):
    mlir = pytest.importorskip("jax._src.interpreters.mlir")
    from jax._src.lib.mlir import ir

    ctx = mlir.make_ir_context()
    ctx.allow_unregistered_dialects = True
    with pytest.raises(Exception) as e:  # noqa: B017 - MLIRError
        ir.Module.parse(text, context=ctx)
    line, column, _ = _error(text)
    assert f":{line}:{column}:" in str(e.value)

"""Regions written on one line (``{ sdy.return %0 : tensor<8xf32> }``) parse as MLIR parses them.

MLIR separates ops by white space, not by line breaks, so a region's ops may share the line of its
braces, each other's line, or the line of the op that owns the region.  The one-line form of a
module means the same as its multi-line form: the same ops, printed the same (sdy ops canonically,
other ops as written, their regions re-indented), with the same verifier diagnostics.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import corpus_chunks
from fuzz_parse import check_one
from hypothesis import given, settings
from test_op_recipes import _assert_same as assert_same_ops
from test_scanner_fast_path import _assert_same as assert_same_skeleton

import shardy_py
from shardy_py.errors import ParseError
from shardy_py.strategies import module_texts
from shardy_py.syntax.parser import parse_module
from shardy_py.verify import verify

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.mlir"))
MESH = 'sdy.mesh @mesh = <["a"=2]>\n'
MANUAL = ('%0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] '
          'manual_axes={"a"} (%arg1: tensor<4xf32>)')


def one_line(text: str) -> str:
    """``text`` with every line break (and the indentation after it) turned into one space."""
    return " ".join(line.strip() for line in text.splitlines() if line.strip())


def parsed(text: str) -> str:
    """The print of ``text``, after checking that the fast paths (the scanner's, the op recipes) build the
    same skeleton and ops as the full parse, and that the print parses back to itself."""
    check_one(text.encode())
    assert_same_skeleton(text)
    assert_same_ops(text)
    return str(shardy_py.parse(text))


def messages(text: str) -> list[str]:
    """The verifier's messages for ``text`` (without their locations)."""
    return [d.message for d in verify(shardy_py.parse(text))]


def parse_error(text: str) -> tuple[int, int, str]:
    """(line, column, message) of the ParseError of ``text`` (the fast paths give the same one)."""
    check_one(text.encode())
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse(text)
    return e.value.line, e.value.column, e.value.message


# -- sdy ops print canonically -----------------------------------------------------------------------

def test_manual_computation_body_on_its_line() -> None:
    text = (MESH + "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
            f"  {MANUAL} {{ sdy.return %arg1 : tensor<4xf32> }} : (tensor<8xf32>) -> tensor<8xf32>\n"
            "  return %0 : tensor<8xf32>\n}\n")
    assert parsed(text) == (
        'module {\n  sdy.mesh @mesh = <["a"=2]>\n'
        "  func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
        f"    {MANUAL} {{\n"
        "      sdy.return %arg1 : tensor<4xf32>\n"
        "    } : (tensor<8xf32>) -> tensor<8xf32>\n"
        "    return %0 : tensor<8xf32>\n  }\n}\n")


def test_named_computation_without_spaces_inside_its_braces() -> None:
    text = ("func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
            '  %0 = sdy.named_computation<"f">(%arg0) (%arg1: tensor<8xf32>) {sdy.return %arg1 : tensor<8xf32>}'
            " : (tensor<8xf32>) -> tensor<8xf32>\n"
            "  return %0 : tensor<8xf32>\n}\n")
    assert parsed(text) == (
        "module {\n  func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
        '    %0 = sdy.named_computation<"f">(%arg0) (%arg1: tensor<8xf32>) {\n'
        "      sdy.return %arg1 : tensor<8xf32>\n"
        "    } : (tensor<8xf32>) -> tensor<8xf32>\n"
        "    return %0 : tensor<8xf32>\n  }\n}\n")


def test_func_with_a_lone_return() -> None:
    assert parsed("func.func @f() { return }\n") == "module {\n  func.func @f() {\n    return\n  }\n}\n"


def test_several_ops_on_one_line() -> None:
    text = ("func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> { %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>"
            " %1 = sdy.reshard %0 <@mesh, [{}]> : tensor<8xf32> return %1 : tensor<8xf32> }\n")
    assert parsed(text) == (
        "module {\n  func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
        "    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>\n"
        "    %1 = sdy.reshard %0 <@mesh, [{}]> : tensor<8xf32>\n"
        "    return %1 : tensor<8xf32>\n  }\n}\n")


def test_ops_without_a_type_share_a_line() -> None:
    text = 'module { sdy.mesh @a = <["x"=2]> sdy.mesh @b = <["y"=4]> func.func private @g(tensor<8xf32>) }\n'
    assert parsed(text) == ('module {\n  sdy.mesh @a = <["x"=2]>\n  sdy.mesh @b = <["y"=4]>\n'
                            "  func.func private @g(tensor<8xf32>)\n}\n")


def test_nested_one_line_regions() -> None:
    inner = ('%1 = sdy.manual_computation(%arg1) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] '
             "manual_axes={} (%arg2: tensor<4xf32>)")
    text = (MESH + "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> { "
            f"{MANUAL} {{ {inner} {{ sdy.return %arg2 : tensor<4xf32> }} : (tensor<4xf32>) -> tensor<4xf32> "
            "sdy.return %1 : tensor<4xf32> } : (tensor<8xf32>) -> tensor<8xf32> return %0 : tensor<8xf32> }\n")
    assert parsed(text) == (
        'module {\n  sdy.mesh @mesh = <["a"=2]>\n'
        "  func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
        f"    {MANUAL} {{\n"
        f"      {inner} {{\n"
        "        sdy.return %arg2 : tensor<4xf32>\n"
        "      } : (tensor<4xf32>) -> tensor<4xf32>\n"
        "      sdy.return %1 : tensor<4xf32>\n"
        "    } : (tensor<8xf32>) -> tensor<8xf32>\n"
        "    return %0 : tensor<8xf32>\n  }\n}\n")


CANONICAL_MANUAL = (
    'module {\n  sdy.mesh @mesh = <["a"=2]>\n'
    "  func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
    f"    {MANUAL} {{\n"
    "      %1 = stablehlo.negate %arg1 : tensor<4xf32>\n"
    "      sdy.return %1 : tensor<4xf32>\n"
    "    } : (tensor<8xf32>) -> tensor<8xf32>\n"
    "    return %0 : tensor<8xf32>\n  }\n}\n")


def test_region_opening_on_the_op_line_and_closing_later() -> None:
    text = (MESH + "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
            f"  {MANUAL} {{ %1 = stablehlo.negate %arg1 : tensor<4xf32>\n"
            "    sdy.return %1 : tensor<4xf32>\n"
            "  } : (tensor<8xf32>) -> tensor<8xf32>\n"
            "  return %0 : tensor<8xf32>\n}\n")
    assert parsed(text) == CANONICAL_MANUAL


def test_region_closing_on_the_line_of_its_last_op() -> None:
    text = (MESH + "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
            f"  {MANUAL} {{\n"
            "    %1 = stablehlo.negate %arg1 : tensor<4xf32>\n"
            "    sdy.return %1 : tensor<4xf32> } : (tensor<8xf32>) -> tensor<8xf32>\n"
            "  return %0 : tensor<8xf32>\n}\n")
    assert parsed(text) == CANONICAL_MANUAL


def test_data_flow_edge_in_one_line_while_bodies() -> None:
    text = (MESH + "func.func @f(%arg0: tensor<8xf32>, %arg1: tensor<i1>) -> tensor<8xf32> {\n"
            "  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8xf32> cond { stablehlo.return %arg1 : tensor<i1> }"
            ' do { %1 = sdy.data_flow_edge %iterArg sharding=<@mesh, [{"a"}]> : tensor<8xf32>'
            " stablehlo.return %1 : tensor<8xf32> }\n"
            "  return %0 : tensor<8xf32>\n}\n")
    module = shardy_py.parse(text)
    edge = next(op for op in module.walk() if op.name == "sdy.data_flow_edge")
    assert str(edge.properties["sharding"]) == '#sdy.sharding<@mesh, [{"a"}]>'
    assert parsed(text) == (
        'module {\n  sdy.mesh @mesh = <["a"=2]>\n'
        "  func.func @f(%arg0: tensor<8xf32>, %arg1: tensor<i1>) -> tensor<8xf32> {\n"
        "    %0 = stablehlo.while(%iterArg = %arg0) : tensor<8xf32>\n    cond {\n"
        "      stablehlo.return %arg1 : tensor<i1>\n"
        "    } do {\n"
        '      %1 = sdy.data_flow_edge %iterArg sharding=<@mesh, [{"a"}]> : tensor<8xf32>\n'
        "      stablehlo.return %1 : tensor<8xf32>\n"
        "    }\n"
        "    return %0 : tensor<8xf32>\n  }\n}\n")


# -- StableHLO's region ops print as MLIR prints them; other dialects' ops keep their text -----------------

REDUCE_HEAD = ("%0 = stablehlo.reduce(%arg0 init: %arg1) across dimensions = [0] : (tensor<4xf32>, tensor<f32>)"
               " -> tensor<f32> reducer(%a: tensor<f32>, %b: tensor<f32>)")


COMPACT_REDUCE = ("module {\n  func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<f32>) -> tensor<f32> {\n"
                  "    %0 = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.add across dimensions = [0] : "
                  "(tensor<4xf32>, tensor<f32>) -> tensor<f32>\n    return %0 : tensor<f32>\n  }\n}\n")


def test_stablehlo_reduce_body_on_one_line() -> None:
    text = ("func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<f32>) -> tensor<f32> {\n"
            f"  {REDUCE_HEAD} {{ %1 = stablehlo.add %a, %b : tensor<f32> stablehlo.return %1 : tensor<f32> }}\n"
            "  return %0 : tensor<f32>\n}\n")
    assert parsed(text) == COMPACT_REDUCE  # jaxlib's print of the module, byte for byte


def test_block_label_inside_a_one_line_region() -> None:
    text = ("func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<f32>) -> tensor<f32> {\n"
            '  %0 = "stablehlo.reduce"(%arg0, %arg1) ({ ^bb0(%a: tensor<f32>, %b: tensor<f32>):'
            " %1 = stablehlo.add %a, %b : tensor<f32> stablehlo.return %1 : tensor<f32> })"
            " {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>\n"
            "  return %0 : tensor<f32>\n}\n")
    module = shardy_py.parse(text)
    reduce = next(op for op in module.walk() if op.name == "stablehlo.reduce")
    assert [a.name for a in reduce.regions[0].blocks[0].arguments] == ["%a", "%b"]
    assert parsed(text) == COMPACT_REDUCE  # jaxlib's print of the module, byte for byte


def test_label_after_a_branch_on_the_same_line() -> None:
    text = "func.func @f(%arg0: tensor<f32>) -> tensor<f32> { cf.br ^bb1 ^bb1: return %arg0 : tensor<f32> }\n"
    assert parsed(text) == ("module {\n  func.func @f(%arg0: tensor<f32>) -> tensor<f32> {\n    cf.br ^bb1\n"
                            "  ^bb1:\n    return %arg0 : tensor<f32>\n  }\n}\n")


def test_generic_region_list_on_one_line() -> None:
    text = 'func.func @f() { "x.op"() ({ x.yield }, { "x.term"() : () -> () }) : () -> () return }\n'
    assert parsed(text) == ('module {\n  func.func @f() {\n    "x.op"() ({\n      x.yield\n    }, {\n'
                            '      "x.term"() : () -> ()\n    }) : () -> ()\n    return\n  }\n}\n')


def test_braces_that_hold_no_ops_stay_dictionaries() -> None:
    """``{}``, ``{word}`` and ``{a = 1}`` on the op's line are attribute dictionaries or the op's own
    syntax (``linalg.reduce { arith.addf }``), not regions."""
    text = ("func.func @f(%a: tensor<4xf32>, %i: tensor<4xf32>) -> tensor<4xf32> {\n"
            "  %0 = linalg.reduce { arith.addf } ins(%a : tensor<4xf32>) outs(%i : tensor<4xf32>) {} {x = 1}\n"
            "  return %0 : tensor<4xf32>\n}\n")
    assert parsed(text) == (
        "module {\n  func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {\n"
        "    %0 = linalg.reduce {arith.addf} ins(%arg0 : tensor<4xf32>) outs(%arg1 : tensor<4xf32>) {} {x = 1}\n"
        "    return %0 : tensor<4xf32>\n  }\n}\n")
    assert not shardy_py.parse(text).funcs["f"].regions[0].blocks[0].ops[0].regions


def test_unit_attribute_of_an_argument_is_not_a_region() -> None:
    text = "func.func @f(%arg0: tensor<f32> {x.donor}) -> tensor<f32> attributes {x.y} { return %arg0 : tensor<f32> }\n"
    assert parsed(text) == ("module {\n  func.func @f(%arg0: tensor<f32> {x.donor}) -> tensor<f32> attributes {x.y} {\n"
                            "    return %arg0 : tensor<f32>\n  }\n}\n")


def test_unit_attribute_named_like_a_terminator_stays_an_attribute() -> None:
    """Fuzz finding: ``{return}`` printed from an attribute dictionary must not come back as a region."""
    assert parsed('"x.y"() {return} : () -> ()\n') == 'module {\n  "x.y"() {return} : () -> ()\n}\n'
    # (the finding was written ``{return, }``: MLIR takes no trailing comma in an attribute
    # dictionary, and jaxlib 0.12 says "1:17: expected attribute name", as we do)
    with pytest.raises(ParseError, match="expected attribute name") as e:
        shardy_py.parse('"x.y"() {return, } : () -> ()\n')
    assert (e.value.line, e.value.column) == (1, 17)


def test_white_space_the_printer_folds_does_not_hide_a_region() -> None:
    """Fuzz finding: after ``{``, white space (folded away by the printer) is white space, so
    ``{\\t %0 = ...`` is the region its print ``{%0 = ...`` is."""
    text = "func.func @f() {\n  x.y {\t %0 = x.z : i32\n  }\n  return\n}\n"
    assert parsed(text) == "module {\n  func.func @f() {\n    x.y {\n      %0 = x.z : i32\n    }\n    return\n  }\n}\n"


def test_a_vertical_tab_is_not_white_space() -> None:
    """MLIR's lexer rejects a vertical tab where Python's ``str.isspace`` would take it."""
    with pytest.raises(ParseError) as e:
        shardy_py.parse("func.func @f() {\n  x.y {\x0b %0 = x.z : i32\n  }\n  return\n}\n")
    assert (e.value.line, e.value.column, e.value.message) == (
        2, 8, "unexpected character: a vertical tab is not white space in MLIR")


# -- the same module as the multi-line form -------------------------------------------------------------

INVALID_MANUAL = (MESH + "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
                  f"  {MANUAL.replace('tensor<4xf32>', 'tensor<8xf32>')} {{\n"
                  "    %1 = sdy.sharding_constraint %arg1 <@mesh, [{\"b\"}]> : tensor<8xf32>\n"
                  "    sdy.return %1 : tensor<8xf32>\n"
                  "  } : (tensor<8xf32>) -> tensor<8xf32>\n"
                  "  return %0 : tensor<8xf32>\n}\n")


def test_one_line_form_verifies_like_the_multi_line_form() -> None:
    assert messages(one_line(INVALID_MANUAL)) == messages(INVALID_MANUAL) == [
        "'sdy.manual_computation' op operand 0: global type 'tensor<8xf32>' sharded on the manual axes gives "
        "local type 'tensor<4xf32>', but the region operand has type 'tensor<8xf32>'",
        "'sdy.sharding_constraint' op axis \"b\" in dim 0 is not an axis of the mesh (mesh axes: \"a\")"]


def test_examples_on_one_line_parse_as_written() -> None:
    for path in EXAMPLES:
        _assert_one_line_means_the_same(path.read_text())


def test_conformance_chunks_on_one_line_parse_as_written(conformance_dir: Path) -> None:
    for chunk in corpus_chunks(conformance_dir):
        _assert_one_line_means_the_same(chunk)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(module_texts())
def test_drawn_modules_on_one_line_parse_as_written(text: str) -> None:
    _assert_one_line_means_the_same(text)


def _assert_one_line_means_the_same(text: str) -> None:
    """``text`` (when it parses) and its print flattened onto one line: the same ops (printed alike up to
    the line breaks other dialects' ops were written with), the same diagnostics, the same fast paths."""
    try:
        module = shardy_py.parse(text)
    except shardy_py.ParseError:
        return
    printed = str(module)
    try:
        reprinted = str(shardy_py.parse(printed))
    except shardy_py.ParseError:
        reprinted = None  # invalid IR MLIR's syntax cannot say either (a concatenate of no operands)
    if reprinted != printed:
        # MLIR's own syntax loses what the text said (a while op written generic with result types that
        # differ from its operands' prints only the operand types): nothing to compare on one line
        return
    flat = one_line(printed)
    again = shardy_py.parse(flat)
    assert one_line(str(again)) == flat
    assert str(parse_module(flat, fast_paths=False)) == str(again)
    assert [d.message for d in verify(again)] == [d.message for d in verify(module)]


# -- located errors ------------------------------------------------------------------------------------

def test_semicolon_between_ops_is_an_error() -> None:
    assert parse_error("func.func @f() { return } ; func.func @g() { return }\n") == (
        1, 27, "unexpected ';': MLIR separates ops by white space or line breaks")


def test_unclosed_one_line_region_names_its_brace() -> None:
    # where MLIR reports it (jaxlib 0.12: 1:24 "expected operation name in quotes"): after the last token
    assert parse_error("func.func @f() { return\n") == (
        1, 24, "expected '}' to close the region opened at 1:16; the input ended first")


def test_junk_after_the_terminator_is_located() -> None:
    text = (MESH + "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
            f"  {MANUAL} {{ sdy.return %arg1 : tensor<4xf32> junk }} : (tensor<8xf32>) -> tensor<8xf32>\n"
            "  return %0 : tensor<8xf32>\n}\n")
    # (MLIR reads 'junk' after the terminator as the next op's name: jaxlib 0.12 "3:179: Dialect `' not found for
    # custom op 'junk'")
    assert parse_error(text) == (3, 179, "expected an operation name like 'dialect.op', found 'junk'")


def test_extra_closing_brace_is_located_at_the_op_it_cuts_short() -> None:
    text = ('func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> { %0 = sdy.named_computation<"x">(%arg0)'
            " (%arg1: tensor<8xf32>) { sdy.return %arg1 : tensor<8xf32> } } : (tensor<8xf32>) -> tensor<8xf32>"
            " return %0 : tensor<8xf32> }\n")
    # (the column is jaxlib 0.12's "1:156: expected ':'": the white space after the region's '}')
    assert parse_error(text) == (
        1, 156, "'sdy.named_computation': expected ':' and the function type, found the end of the op")


def test_missing_region_brace_names_the_op_that_follows() -> None:
    text = ('func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> { %0 = sdy.named_computation<"x">(%arg0)'
            " (%arg1: tensor<8xf32>) sdy.return %arg1 : tensor<8xf32> } : (tensor<8xf32>) -> tensor<8xf32>"
            " return %0 : tensor<8xf32> }\n")
    # (the column is jaxlib 0.12's "1:119: expected '{' to begin a region"; the op's syntax reads on into the
    # next op's text, as MLIR's does)
    assert parse_error(text) == (1, 119, "'sdy.named_computation': expected a region '{', found 'sdy.return %arg1 : t'")


@pytest.mark.parametrize("body", ["{}", "{\n}"], ids=["one-line", "multi-line"])
def test_empty_function_body_is_an_error(body: str) -> None:
    assert parse_error(f"func.func @f() {body}\n") == (1, 16, "'func.func': expected a non-empty function body")


def test_empty_braces_where_a_region_belongs_are_an_empty_region() -> None:
    text = 'func.func @f() {\n  sdy.named_computation<"x">() () {} : () -> ()\n  return\n}\n'
    assert messages(text) == messages(text.replace("{}", "{\n  }")) == [
        "'sdy.named_computation' op body must end with 'sdy.return', found an empty block"]


# -- against the C++ Shardy ------------------------------------------------------------------------------

ONE_LINE_MODULES = [
    pytest.param(MESH + f"func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {{ {MANUAL} {{ sdy.return %arg1 :"
                 " tensor<4xf32> } : (tensor<8xf32>) -> tensor<8xf32> return %0 : tensor<8xf32> }\n",
                 id="manual-computation"),
    pytest.param("func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> { %0 = sdy.named_computation<\"f\">(%arg0)"
                 " (%arg1: tensor<8xf32>) {sdy.return %arg1 : tensor<8xf32>} : (tensor<8xf32>) -> tensor<8xf32>"
                 " return %0 : tensor<8xf32> }\n", id="named-computation"),
    pytest.param("func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> { %0 = sdy.func_data_flow_edge %arg0 :"
                 " tensor<8xf32> return %0 : tensor<8xf32> }\n", id="func-data-flow-edge"),
    pytest.param('module { sdy.mesh @a = <["x"=2]> sdy.mesh @b = <["y"=4]> func.func @f() { return }'
                 " func.func @g() { func.call @f() : () -> () return } }\n", id="module-on-one-line"),
    pytest.param(one_line(INVALID_MANUAL), id="invalid-manual-computation"),
    pytest.param("func.func @f() { return } ; func.func @g() { return }\n", id="semicolon"),
    pytest.param("func.func @f() {}\n", id="empty-function-body"),
    pytest.param('func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> { %0 = sdy.named_computation<"x">(%arg0)'
                 " (%arg1: tensor<8xf32>) sdy.return %arg1 : tensor<8xf32> } : (tensor<8xf32>) -> tensor<8xf32>"
                 " return %0 : tensor<8xf32> }\n", id="missing-region-brace"),
]


@pytest.fixture(scope="module")
def cpp():
    pytest.importorskip("jax")
    from test_differential_cpp import Cpp

    return Cpp()


@pytest.mark.parametrize("text", ONE_LINE_MODULES)
def test_cpp_gives_the_same_verdict_and_print(cpp, text: str) -> None:
    from test_differential_cpp import first_error_line, ours

    cpp_ok, cpp_out = cpp.module(text)
    our_ok, our_out = ours(text)
    assert our_ok == cpp_ok, (cpp_out, our_out)
    if cpp_ok:
        assert our_out == cpp_out
    else:
        assert int(our_out.split(":")[0]) == first_error_line(cpp_out), (cpp_out, our_out)

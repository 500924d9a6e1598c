"""An op cut short fails where MLIR's parser, reading on into the text after it, first fails (issue 26).

Our parser splits the module into ops before it reads any (``syntax.scanner``); MLIR's has no op boundary: an
op's custom parser takes the next line's tokens as its own (``%1`` as the operand the cut op lacks, then
"expected ':'" at its ``=``), and an op whose syntax is done before the scanner's op ends is followed by the
op MLIR starts there (``syntax.cut_ops``, on the error path only).  Each case is a small module of the kind
the differential run's mutants are (a line cut short), with jaxlib 0.12's line, column and message; the
last tests ask jaxlib itself.
"""
from __future__ import annotations

import pytest
from first_error_helpers import jaxlib_first_error, our_first_error

import shardy_py

_FUNC = "func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {{\n{body}}}\n"
#: name -> (text, MLIR's line, column and message (jaxlib 0.12), our message).
CASES = {
    "op_cut_after_its_name_takes_the_next_lines_value_as_its_operand": (
        _FUNC.format(body="  %0 = stablehlo.abs\n  %1 = stablehlo.abs %arg0 : tensor<4xf32>\n"
                          "  return %1 : tensor<4xf32>\n"),
        3, 5, "expected ':'", "'stablehlo.abs': expected ':', found '= stablehlo.abs %arg'"),
    "op_cut_after_a_comma_takes_the_next_lines_value_as_its_operand": (
        _FUNC.format(body="  %0 = stablehlo.add %arg0, \n  %1 = stablehlo.abs %arg0 : tensor<4xf32>\n"
                          "  return %1 : tensor<4xf32>\n"),
        3, 5, "expected ':'", "'stablehlo.add': expected ':', found '= stablehlo.abs %arg'"),
    "op_cut_where_another_op_starts_on_its_line": (
        _FUNC.format(body="  %0 = stablehlo.add %arg0, %1 = stablehlo.abs %arg0 : tensor<4xf32>\n"
                          "  return %0 : tensor<4xf32>\n"),
        2, 31, "expected ':'", "'stablehlo.add': expected ':', found '= stablehlo.abs %arg'"),
    "sdy_op_cut_after_its_name": (
        'sdy.mesh @mesh = <["a"=2]>\n'
        + _FUNC.format(body="  %0 = sdy.data_flow_edge\n  %1 = stablehlo.abs %arg0 : tensor<4xf32>\n"
                            "  return %1 : tensor<4xf32>\n"),
        4, 5, "expected ':'", "'sdy.data_flow_edge': expected ':' and the type, found '= stablehlo.abs %arg'"),
    "sdy_constant_cut_after_its_name_meets_a_word_that_is_no_attribute": (
        _FUNC.format(body="  %0 = sdy.constant\n  return %arg0 : tensor<4xf32>\n"),
        2, 20, "expected attribute value", "expected attribute value"),
    "manual_axes_cut_after_their_brace_meet_a_word_that_is_no_attribute": (
        _FUNC.format(body="  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={\n"
                          "    sdy.return\n  } : () -> ()\n  return %arg0 : tensor<4xf32>\n"),
        2, 74, "expected attribute value", "expected attribute value"),
    "sharding_cut_after_a_dimension_reads_the_next_lines_word_as_its_priority": (
        'sdy.mesh @m = <["x"=2]>\n'
        + _FUNC.format(body='  %0 = sdy.sharding_constraint %arg0 <@m, [{"x"}\n  return %0 : tensor<4xf32>\n'),
        4, 10, "custom op 'sdy.sharding_constraint' expecting priority in format 'p<number>', got: return",
        "'sdy.sharding_constraint': expecting priority in format 'p<number>', got: return"),
    "a_dotted_word_after_a_dimension_is_its_priority_whole": (
        'sdy.mesh @m = <["x"=2]>\n'
        + _FUNC.format(body='  %0 = sdy.sharding_constraint %arg0 <@m, [{"x"}foo.bar]> : tensor<4xf32>\n'
                            '  return %0 : tensor<4xf32>\n'),
        3, 56, "custom op 'sdy.sharding_constraint' expecting priority in format 'p<number>', got: foo.bar",
        "'sdy.sharding_constraint': expecting priority in format 'p<number>', got: foo.bar"),
    "compact_reduce_cut_in_its_inner_ops_name_names_no_commutative_op": (
        "func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<f32>) -> tensor<f32> {\n"
        "  %0 = stablehlo.reduce(%arg0 init: %arg1)\n    applies stablehl\n"
        "    : (tensor<4xf32>, tensor<f32>) -> tensor<f32>\n  return %0 : tensor<f32>\n}\n",
        2, 24, "custom op 'stablehlo.reduce' expected the inner-op to be a commutative binary-op from the stablehlo "
               "dialect, with zero region, producing single result",
        "'stablehlo.reduce': expected the inner-op to be a commutative binary-op from the stablehlo dialect, with zero "
        "region, producing single result"),
    "compact_reduce_cut_after_applies_meets_the_next_lines_value": (
        "func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<f32>) -> tensor<f32> {\n"
        "  %0 = stablehlo.reduce(%arg0 init: %arg1) applies\n  %1 = stablehlo.abs %arg1 : tensor<f32>\n"
        "  return %1 : tensor<f32>\n}\n",
        3, 3, "expected bare identifier or keyword", "'stablehlo.reduce': expected bare identifier or keyword"),
    "dictionary_cut_in_an_entry_reads_the_next_lines_op_name_as_a_name_with_an_alias_after": (
        "module {\n  sdy.mesh @mesh = <[\"data\"=2]> {stablehlo.mesh = {\n"
        "  sdy.mesh @mesh_0 = <[\"data\"=2]> {a = 1} loc(#loc17)\n}\n#loc17 = loc(\"a\")\n",
        3, 11, "expected '}' in attribute dictionary", "expected '}' to close the attribute dictionary, found '@'"),
    "last_op_of_a_region_cut_meets_the_regions_brace": (
        _FUNC.format(body="  %0 = stablehlo.abs\n"),
        2, 21, "expected SSA operand", "'stablehlo.abs': expected an SSA value like %0, found the end of the op"),
    "while_cut_before_do_builds_its_condition_region_first": (
        "func.func @f(%arg0: tensor<i32>) -> tensor<i32> {\n"
        "  %0 = stablehlo.compare LT, %arg0, %arg0 : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
        "  %1 = stablehlo.while(%iterArg = %arg0) : tensor<i32>\n    cond {\n"
        "    stablehlo.return %0 : tensor<i1>\n    %0 = stablehlo.add %iterArg, %iterArg : tensor<i32>\n"
        "    stablehlo.return %0 : tensor<i32>\n  }\n  return %1 : tensor<i32>\n}\n",
        6, 5, "redefinition of SSA value '%0'", "redefinition of SSA value '%0' (previously defined at 2:3)"),
    "a_word_after_an_op_done_starts_the_next_op_func_in_a_function_body": (
        _FUNC.format(body="  %0 = stablehlo.abs %arg0 : tensor<4xf32>\n  func\n"),
        4, 1, "custom op 'func.func' expected valid '@'-identifier for symbol name",
        "'func.func': expected the function name like @main, found the end of the op"),
    "custom_call_cut_before_its_target_fails_at_the_next_lines_token": (
        _FUNC.format(body="  %0 = stablehlo.custom_call\n  func.return %0 : tensor<4xf32>\n"),
        3, 3, "custom op 'stablehlo.custom_call' expected valid '@'-identifier for symbol name",
        "'stablehlo.custom_call': expected valid '@'-identifier for symbol name, found 'func.return %0 : ten'"),
    "integer_list_cut_fails_at_the_next_lines_token": (
        "func.func @f(%arg0: tensor<f32>) -> tensor<2xf32> {\n  %0 = stablehlo.broadcast_in_dim %arg0, dims = [\n"
        "  %1 = stablehlo.negate %0 : tensor<2xf32>\n  return %1 : tensor<2xf32>\n}\n",
        3, 3, "custom op 'stablehlo.broadcast_in_dim' expected integer value",
        "'stablehlo.broadcast_in_dim': expected an integer, found '%1 = stablehlo.negat'"),
    "brace_cut_at_the_end_of_a_line_is_an_attribute_dictionary": (
        "func.func @f(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {\n  %0 = call @g(%arg0) {\n"
        "  return %0 : tensor<8x2xi32>\n}\nfunc.func private @g(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32>\n",
        3, 9, "expected '}' in attribute dictionary", "expected '}' in attribute dictionary"),
    "result_attributes_cut_at_their_brace": (
        "func.func @f(%arg0: tensor<8xf32>) -> (tensor<8xf32> {\n  return %arg0 : tensor<8xf32>\n}\n",
        2, 9, "expected '}' in attribute dictionary", "expected '}' in attribute dictionary"),
    "convolution_window_keyword_cut_fails_at_the_token_after_it": (
        "func.func @f(%arg0: tensor<1x4x1xf32>, %arg1: tensor<1x1x1xf32>) -> tensor<1x4x1xf32> {\n"
        "  %0 = stablehlo.convolution(%arg0, %arg1)\n         dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f],\n"
        "         window = {str\n           reverse = [false]}\n"
        "         {batch_group_count = 1 : i64, feature_group_count = 1 : i64} :\n"
        "       (tensor<1x4x1xf32>, tensor<1x1x1xf32>) -> tensor<1x4x1xf32>\n  return %0 : tensor<1x4x1xf32>\n}\n",
        5, 12, "custom op 'stablehlo.convolution' Unexpected keyword str",
        "'stablehlo.convolution': Unexpected keyword str"),
    "mesh_cut_where_device_ids_may_stand_fails_at_the_next_token": (
        'sdy.mesh @m = <[], \n\n// a comment\n' + _FUNC.format(body="  return %arg0 : tensor<4xf32>\n"),
        4, 1, "custom op 'sdy.mesh' expected 'device_ids'", "'sdy.mesh': expected device_ids, got 'func'"),
    "sharding_cut_after_its_dimensions_fails_at_the_next_lines_token": (
        'sdy.mesh @mesh = <["c"=2]>\nfunc.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n'
        '  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"c", ?}], \n'
        "    sdy.return %arg1 : tensor<4xf32>\n  } : (tensor<8xf32>) -> tensor<8xf32>\n"
        "  return %0 : tensor<8xf32>\n}\n",
        4, 5, "custom op 'sdy.manual_computation' failed to parse Sdy_TensorSharding, expected valid named axis "
              "list after comma",
        "'sdy.manual_computation': expected replicated or unreduced, got 'sdy'"),
    "axis_list_cut_fails_after_its_last_axis": (
        'sdy.mesh @mesh = <["x"=2]>\nfunc.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n'
        '  %0 = sdy.replicated_to_unreduced {"x"\n  return %0 : tensor<8xf32>\n}\n',
        3, 40, "expected '}'", "'sdy.replicated_to_unreduced': expected ',' or ':' or '=' or '}', got 'return'"),
    "axis_list_without_its_brace_fails_after_its_last_axis_on_its_line_too": (
        'sdy.mesh @mesh = <["x"=2]>\nfunc.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n'
        '  %0 = sdy.replicated_to_unreduced {"x"   %arg0 out_sharding=<@mesh, [{}], unreduced={"x"}> : '
        "tensor<8xf32>\n  return %0 : tensor<8xf32>\n}\n",
        3, 40, "expected '}'",
        "'sdy.replicated_to_unreduced': unexpected character '%'; expected ',' or ':' or '=' or '}'"),
    "generic_op_with_too_few_operand_types_fails_at_its_type_before_the_text_after_it": (
        _FUNC.format(body='  %0 = "stablehlo.add"(%arg0, %arg0) : (\n    tensor<4xf32>) -> tensor<4xf32>\n'
                          "    tensor<4xf32>,\n  return %0 : tensor<4xf32>\n"),
        2, 40, "expected 2 operand types but had 1", "expected 2 operand types but had 1"),
    "generic_op_with_too_few_operand_types_on_its_line": (
        _FUNC.format(body='  %0 = "stablehlo.add"(%arg0, %arg0) :   (tensor<4xf32>) -> tensor<4xf32>\n'
                          "  return %0 : tensor<4xf32>\n"),
        2, 42, "expected 2 operand types but had 1", "expected 2 operand types but had 1"),
    "result_type_torn_before_an_op_the_text_before_it_does_not_judge": (
        'func.func @f(%arg0: tensor<4xf32>) ->\n    tensor<200\n  %0 = "stablehlo.abs"(%arg0) ({\n  }) {\n'
        "  } : (tensor<4xf32>) ->\n}\n",
        2, 15, "expected 'x' in dimension list", "expected 'x' in dimension list"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_first_error_is_where_mlir_reading_on_stops(name: str) -> None:
    text, line, column, _, message = CASES[name]
    assert our_first_error(text) == (line, column, message)


@pytest.mark.parametrize("name", sorted(CASES))
def test_fast_paths_off_give_the_same_first_error(name: str) -> None:
    text, line, column, _, message = CASES[name]
    assert our_first_error(text, fast_paths=False) == (line, column, message)


def test_a_nested_function_written_func_is_one_the_verifier_rejects() -> None:
    """``func`` in a function body is MLIR's func.func (the body's default dialect): a whole function there
    parses, and the verifier rejects it where jaxlib does."""
    module = shardy_py.parse(_FUNC.format(body="  func @g() {\n    return\n  }\n  return %arg0 : tensor<4xf32>\n"))
    assert [(d.line, d.column, d.message) for d in shardy_py.verify(module)] == [
        (2, 3, "'func.func' op symbol's parent must have the SymbolTable trait")]


@pytest.mark.parametrize("name", sorted(CASES))
def test_jaxlib_stops_at_the_same_place(name: str) -> None:
    text, line, column, mlir_message, _ = CASES[name]
    assert jaxlib_first_error(text) == (line, column, mlir_message)


def test_jaxlib_rejects_the_nested_function_at_the_same_place() -> None:
    text = _FUNC.format(body="  func @g() {\n    return\n  }\n  return %arg0 : tensor<4xf32>\n")
    assert jaxlib_first_error(text) == (2, 3, "'func.func' op symbol's parent must have the SymbolTable trait")

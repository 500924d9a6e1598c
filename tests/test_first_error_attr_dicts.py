"""A line cut inside an attribute dictionary, a dialect attribute's name or a block label fails where MLIR's
token-by-token parser first fails (issue 26, the rest of the 100k-mutant differential run).

MLIR reads on into the next line where our parser first splits the module into ops: a dialect attribute
without its body (``#sdy.`` cut at its dot, ``#sdy.sharding`` with no ``<``) hands the text after it to the
dialect's parser, which reads the next line's first token as its keyword.  Each case is a small module of the
differential run's kind with jaxlib 0.12's line, column and message; the last tests ask jaxlib itself.
"""
from __future__ import annotations

import pytest
from first_error_helpers import jaxlib_first_error, our_first_error

import shardy_py

#: A function whose first argument's dictionary is ``{sdy.sharding = VALUE`` and the line after it ``NEXT``.
_ARG = ("func.func @f(%arg0: tensor<8xf32> {{sdy.sharding = {value}\n    {next}: tensor<8xf32>) -> tensor<8xf32> {{\n"
        "  return %arg0 : tensor<8xf32>\n}}\n")
#: A function whose op's dictionary is ``{sdy.sharding = VALUE`` and the line after it ``NEXT``.
_OP = ('sdy.mesh @mesh = <["a"=2]>\nfunc.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {{\n'
       "  %0 = stablehlo.abs %arg0 {{sdy.sharding = {value}\n  {next}\n}}\n")

#: A function whose stablehlo.map has the block label ``{label}``.
_MAP = ('func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {{\n  %0 = "stablehlo.map"(%arg0, %arg0) ({{\n'
        "  {label}\n    %1 = stablehlo.add %a, %b : tensor<f32>\n"
        '    "stablehlo.return"(%1) : (tensor<f32>) -> ()\n  }}) {{dimensions = array<i64: 0>}} : '
        "(tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}}\n")

#: name -> (text, MLIR's line, column and message (jaxlib 0.12), our message).
CASES = {
    "sdy_name_cut_at_its_dot_then_a_value": (
        _ARG.format(value="#sdy.", next="%arg1"), 2, 5, "expected valid keyword", "expected valid keyword"),
    "sdy_name_cut_at_its_dot_then_an_op": (
        _OP.format(value="#sdy.", next="return %0 : tensor<8xf32>"), 4, 3,
        "unknown attribute `return` in dialect `sdy`", "unknown attribute `return` in dialect `sdy`"),
    "sdy_name_cut_at_its_dot_then_a_comment_and_a_word": (
        _ARG.format(value="#sdy.\n  // a comment\n", next="foo %arg1"), 4, 5,
        "unknown attribute `foo` in dialect `sdy`", "unknown attribute `foo` in dialect `sdy`"),
    "sdy_name_cut_at_its_dot_then_the_end": (
        "func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.\n\n", 3, 1, "expected valid keyword",
        "expected valid keyword"),
    "sdy_name_then_a_closing_brace": (
        "func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.}) -> tensor<8xf32> {\n"
        "  return %arg0 : tensor<8xf32>\n}\n", 1, 56, "expected valid keyword", "expected valid keyword"),
    "sharding_without_its_body_then_a_value": (
        _ARG.format(value="#sdy.sharding", next="%arg1"), 1, 64, "expected '<'", "expected '<'"),
    "sharding_per_value_without_its_body_then_an_op": (
        _OP.format(value="#sdy.sharding_per_value", next="return %0 : tensor<8xf32>"), 3, 67, "expected '<'",
        "expected '<'"),
    "sdy_unknown_mnemonic_without_a_body": (
        _ARG.format(value="#sdy.bogus", next="%arg1"), 1, 56, "unknown attribute `bogus` in dialect `sdy`",
        "unknown attribute `bogus` in dialect `sdy`"),
    "sub_axis_info_without_its_parenthesis": (
        _ARG.format(value="#sdy.sub_axis_info", next="%arg1"), 1, 69, "expected '('", "expected '('"),
    "axis_ref_without_its_name": (
        _ARG.format(value="#sdy.axis_ref", next="%arg1"), 2, 5, "expected string", "expected string"),
    "stablehlo_name_cut_at_its_dot_then_a_value": (
        _ARG.format(value="#stablehlo.", next="%arg1"), 2, 5, "expected valid keyword", "expected valid keyword"),
    "stablehlo_name_cut_at_its_dot_then_an_op": (
        _OP.format(value="#stablehlo.", next="return %0 : tensor<8xf32>"), 4, 3, "unknown StableHLO attribute",
        "unknown StableHLO attribute"),
    "stablehlo_struct_without_its_body": (
        _ARG.format(value="#stablehlo.bounds", next="%arg1"), 1, 68, "expected '<'", "expected '<'"),
    "stablehlo_enum_without_its_case": (
        _ARG.format(value="#stablehlo.comparison_direction", next="%arg1"), 2, 5,
        "expected valid keyword or string", "expected valid keyword or string"),
    "chlo_name_cut_at_its_dot_then_a_word": (
        _ARG.format(value="#chlo.", next="bogus %arg1"), 2, 5, "unknown chlo attribute", "unknown chlo attribute"),
    "stablehlo_type_cut_at_its_dot_then_an_op": (
        "func.func @f(%arg0: tensor<8xf32>) -> !stablehlo.\n  return %arg0 : tensor<8xf32>\n}\n", 2, 3,
        "unknown stablehlo type: return", "unknown stablehlo type: return"),
    "stablehlo_type_cut_at_its_dot_then_a_value": (
        "func.func @f(%arg0: !stablehlo.\n  %x) -> tensor<8xf32> {\n  return %arg0 : tensor<8xf32>\n}\n", 2, 3,
        "expected valid keyword", "expected valid keyword"),
    "stablehlo_type_cut_at_its_dot_then_the_end": (
        "func.func private @f() -> !stablehlo.\n\n\n", 4, 1, "expected valid keyword", "expected valid keyword"),
    "future_type_without_its_body": (
        "func.func @f(%arg0: !stablehlo.future\n  %x) -> tensor<8xf32> {\n  return %arg0 : tensor<8xf32>\n}\n",
        1, 38, "expected '<'", "expected '<'"),
    "generic_op_name_then_the_next_op": (
        'func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n  %0 = "stablehlo.constant"\n'
        "  %1 = stablehlo.abs %arg0 : tensor<8xf32>\n  return %1 : tensor<8xf32>\n}\n", 2, 28,
        "expected '(' to start operand list", "expected '(' to start operand list"),
    "generic_op_name_then_its_dictionary_on_the_next_line": (
        'func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n  %0 = "stablehlo.abs" \n    {a = 1 : i32}\n'
        "  return %0 : tensor<8xf32>\n}\n", 2, 23, "expected '(' to start operand list",
        "expected '(' to start operand list"),
    "generic_op_name_then_a_type_on_its_line": (
        '"x.y" : () -> ()\n', 1, 6, "expected '(' to start operand list", "expected '(' to start operand list"),
    "sharding_body_cut_runs_to_the_last_string_before_a_mismatch": (
        'sdy.mesh @mesh = <["a"=2]>\nfunc.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, '
        '[{"a"}\n    %arg1: tensor<8xf32>) -> tensor<8xf32> {\n  %0 = "stablehlo.abs"(%arg0) : (tensor<8xf32>) -> '
        "tensor<8xf32>\n  return %0 : tensor<8xf32>\n}\n", 2, 74,
        "unbalanced '[' character in pretty dialect name", "unbalanced '[' character in pretty dialect name"),
    "future_type_body_cut_then_the_next_function": (
        "func.func @f(%arg0: tensor<8xf32>) -> !stablehlo.future<tens\n"
        "func.func @g(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n  return %arg0 : tensor<8xf32>\n}\n", 1, 56,
        "unbalanced '<' character in pretty dialect name", "unbalanced '<' character in pretty dialect name"),
    "stablehlo_enum_body_cut_then_a_generic_op": (
        'func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n  %0 = "stablehlo.compare"(%arg0, %arg0) '
        '{comparison_direction = #stablehlo<com\n  "stablehlo.return"(%0) : (tensor<8xi1>) -> ()\n}\n', 3, 3,
        "unbalanced '<' character in pretty dialect name", "unbalanced '<' character in pretty dialect name"),
    "string_in_a_cut_body_ends_with_its_line": (
        "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n  %0 = stablehlo.abs %arg0 {a = #foo<bar>, "
        'b = #sdy.sharding<@m, [{"x\n  // "a comment"\n  return %0 : tensor<8xf32>\n}\n', 2, 70,
        "expected '\"' in string literal", "expected '\"' in string literal"),
    "multi_line_value_then_the_next_op": (  # (the canonical text's offsets are not the text's)
        "func.func @f(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x3x5xf32>) -> tensor<2x4x5xf32> {\n"
        '  %0 = "stablehlo.dot_general"(%arg0, %arg1) {\n    dot_dimension_numbers = #stablehlo.dot<\n'
        "      lhs_batching_dimensions = [0],\n      rhs_batching_dimensions = [0],\n"
        "      lhs_contracting_dimensions = [1],\n      rhs_contracting_dimensions = [1]\n    >\n"
        "  func.return %0 : tensor<2x4x5xf32>\n}\n", 8, 6,
        "expected '}' in attribute dictionary", "expected '}' in attribute dictionary"),
    "multi_line_array_then_the_next_op": (
        'func.func @f(%arg0: tensor<f32>) -> tensor<f32> {\n  %0 = "stablehlo.custom_call"(%arg0) {\n'
        '    call_target_name = "foo",\n    output_operand_aliases = [\n'
        "      #stablehlo.output_operand_alias<output_tuple_indices = [],\n"
        "                                 operand_index = 0,\n                                 "
        "operand_tuple_indices = []>\n    ]\n  func.return %0 : tensor<f32>\n}\n", 8, 6,
        "expected '}' in attribute dictionary", "expected '}' in attribute dictionary"),
    "module_dictionary_unclosed_at_the_end_of_the_input": (
        "module attributes {\n  stablehlo.conv = #stablehlo.conv<[b, 1, 0, f]x[0, 1, i, o]->[b, 0, 1, f]>\n\n",
        2, 76, "expected '}' in attribute dictionary", "expected '}' in attribute dictionary"),
    "module_dictionary_unclosed_then_a_comment_that_ends_the_input": (
        "module attributes {a = 1 : i32,\n  b = 2 : i32\n// comment", 3, 10,
        "expected '}' in attribute dictionary", "expected '}' in attribute dictionary"),
    "unclosed_dictionary_with_a_cut_sharding_body_in_it": (
        "func.func @f(%arg0 : tensor<16x8xf32> {sdy.sharding=#sdy.sharding<@mesh, [{\n  // a comment\n"
        '  %0 = sdy.sharded_to_unreduced [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}], unreduced=max{"x"}> : '
        " tensor<16x8xf32>\n  return %0 : tensor<16x8xf32>\n}\n", 3, 96,
        "unbalanced '[' character in pretty dialect name", "unbalanced '[' character in pretty dialect name"),
    "block_name_without_arguments_or_colon": (
        _MAP.format(label="^bb"), 3, 6, "expected ':' after block name", "expected ':' after block name"),
    "block_arguments_without_the_colon": (
        _MAP.format(label="^bb0(%a: tensor<f32>, %b: tensor<f32>)"), 3, 41, "expected ':' after block name",
        "expected ':' after block name"),
    "block_arguments_then_a_comment_without_the_colon": (
        _MAP.format(label="^bb0(%a: tensor<f32>, %b: tensor<f32>) // no colon"), 3, 41,
        "expected ':' after block name", "expected ':' after block name"),
    "region_unclosed_then_a_comment_line_at_the_end": (  # (MLIR: at the end, back one character, in the comment)
        "func.func @f() {\n  return\n\n// CHECK: }\n", 4, 12, "expected operation name in quotes",
        "expected '}' to close the region opened at 1:16; the input ended first"),
    "region_unclosed_then_a_comment_that_ends_the_input": (
        "func.func @f() {\n  return\n\n// CHECK: }", 4, 10, "expected operation name in quotes",
        "expected '}' to close the region opened at 1:16; the input ended first"),
    "block_arguments_cut_after_a_type": (
        _MAP.format(label="^bb0(%a: tensor<f32>"), 3, 23, "expected ')'", "expected ')'"),
    "block_arguments_cut_after_a_location": (
        _MAP.format(label='^bb0(%a: tensor<f32> loc("x"), %b: tensor<f32>'), 3, 49, "expected ')'", "expected ')'"),
    "block_arguments_without_a_comma": (
        _MAP.format(label="^bb0(%a: tensor<f32> %b: tensor<f32>):"), 3, 23, "expected ')'", "expected ')'"),
    "block_arguments_cut_at_the_end_of_the_input": (
        "func.func @f() {\n^bb0(%a: tensor<f32>", 2, 20, "expected ')'", "expected ')'"),
    "sharding_body_holding_the_next_op_after_comment_lines": (  # (the body closes in the next op: read on)
        'sdy.mesh @mesh = <["x"=2]>\nfunc.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n'
        "  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [\n"
        "  // CHECK: {}]>]>}\n  %1 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, "
        '[{}]>]>} : tensor<8xf32>\n  return %0 : tensor<8xf32>\n}\n', 3, 78, "expected '{'",
        "expected ']' or more of the '[' opened at 3:77, found '%1'"),
    "sharding_token_the_grammar_does_not_take": (
        'sdy.mesh @mesh = <["x"=2]>\nfunc.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n'
        '  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [\n     {"x"}, %x]>]>} : '
        "tensor<8xf32>\n  return %0 : tensor<8xf32>\n}\n", 4, 12, "expected '{'",
        "unexpected character '%'; expected '{'"),
    "result_name_cut_then_a_type_on_the_next_line": (
        "func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n  %re\n      : (tensor<4xf32>) -> tensor<4xf32>\n"
        "  return %arg0 : tensor<4xf32>\n}\n", 3, 8, "expected integer number of results",
        "expected integer number of results"),
    "result_name_cut_then_the_next_op": (
        "func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n  %re\n  return %arg0 : tensor<4xf32>\n}\n", 2, 6,
        "expected '=' after SSA name", "expected '=' after SSA name"),
    "result_list_cut_after_its_second_name": (
        "func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n  %re, %x\n  return %arg0 : tensor<4xf32>\n}\n",
        2, 10, "expected '=' after SSA name", "expected '=' after SSA name"),
    "result_count_then_no_comma": (
        "func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n  %re:2 %x = stablehlo.abs %arg0 : tensor<4xf32>\n"
        "  return %arg0 : tensor<4xf32>\n}\n", 2, 8, "expected '=' after SSA name", "expected '=' after SSA name"),
    "type_cut_in_its_dialect_name_is_an_alias_use": (
        'func.func @f() -> !stablehlo.token {\n  %0 = "stablehlo.create_token"() : () -> !sta\n'
        "  func.return %0: !stablehlo.token\n}\n", 2, 47, "undefined symbol alias id 'sta'",
        "undefined symbol alias id 'sta'"),
    "function_result_type_cut_in_its_dialect_name": (
        'func.func @f() -> !stablehl\n  %0 = "stablehlo.create_token"() : () -> !stablehlo.token\n'
        "  func.return %0: !stablehlo.token\n}\n", 1, 28, "undefined symbol alias id 'stablehl'",
        "undefined symbol alias id 'stablehl'"),
    "undefined_alias_before_the_operand_type_check": (
        "!t = tensor<4xf32>\nfunc.func @f(%arg0: !t) -> !t {\n  %0 = stablehlo.abs %arg0 : !u\n"
        "  func.return %0: !t\n}\n", 3, 32, "undefined symbol alias id 'u'", "undefined symbol alias id 'u'"),
    "argument_dictionary_cut_at_its_brace_then_the_body": (  # (a '{' ending a line: no region stands there)
        "func.func @f(%arg0: tensor<8x8xf32> {\n  return %arg0 : tensor<8x8xf32>\n}\n", 2, 9,
        "expected '}' in attribute dictionary", "expected '}' in attribute dictionary"),
    "result_dictionary_cut_at_its_brace_then_the_attributes": (
        "func.func private @f(%arg0: tensor<4xf32>) -> (tensor<4xf32> {\n"
        'attributes { sdy.original_func_name = "foo" } {\n  return %arg0 : tensor<4xf32>\n}\n', 2, 11,
        "expected '}' in attribute dictionary", "expected '}' in attribute dictionary"),
    "sharding_body_after_a_blank_is_not_its_body": (  # (was accepted: MLIR takes a body only right after the name)
        _OP.format(value="#sdy.sharding_per_value <[<@mesh, [{}]>]>} : tensor<8xf32>",
                   next="return %0 : tensor<8xf32>"),
        3, 67, "expected '}' in attribute dictionary", "expected '}' in attribute dictionary"),
    "float_with_a_type_that_is_no_float_then_the_next_line": (  # (MLIR: at the token after the type)
        "func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.abs %arg0 {value = 3.2\n"
        "     : (tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n", 4, 3,
        "floating point value not valid for specified type", "floating point value not valid for specified type"),
    "float_with_an_integer_type_in_an_array": (
        '"test.op"() {value = [1.5 : i32 ]} : () -> ()\n', 1, 33, "floating point value not valid for specified type",
        "floating point value not valid for specified type"),
    "integer_with_a_tensor_type": (  # (MLIR: at the literal)
        "func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.abs %arg0 {value = 3 : tensor<4xf32> }"
        " : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n", 2, 37, "integer literal not valid for specified type",
        "integer literal not valid for specified type"),
    "an_op_before_the_one_the_scan_failed_in_fails_first": (  # (its error in the body, not the cut op's)
        'sdy.mesh @mesh = <["x"=2]>\nfunc.func @f(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {\n'
        "  %0 = sdy.manual_computation(%arg0)\n    in_shardings=[<@mesh, [{}, {}]>]\n"
        '    out_shardings=[<@mesh, [{}, {}]>]\n    %1 = "stablehlo.abs"(%arg1) ({\n'
        '    manual_axes={"x"} (%arg1: tensor<16x8xf32>) {\n      sdy.return %arg1 : tensor<16x8xf32>\n'
        "    }) : (tensor<16x8xf32>) -> tensor<16x8xf32>\n  return %0 : tensor<16x8xf32>\n}\n", 6, 5,
        "custom op 'sdy.manual_computation' expected 'manual_axes'",
        "'sdy.manual_computation': expected 'manual_axes', found the end of the op"),
    "sharding_rule_cut_whose_body_closes_in_a_later_comment": (  # (read by the sdy grammar, as MLIR reads it)
        "func.func @f(%arg0: tensor<2x4xf32>) -> tensor<8xf32> {\n  %0 = stablehlo.reshape %arg0 {sdy.sharding_rule "
        "= #sdy.op_sharding_rule<([i, j])->([i, j]) {i=2, j=4\n  return %0 : tensor<8xf32>\n  // CHECK: }>}\n}\n",
        2, 103, "expected '}'", "expected ',' or '}', got 'return'"),
    "a_dialect_name_in_a_string_is_text": (  # (no attribute: the error after it stands)
        'func.func @f(%arg0: tensor<8xf32> {a = "#sdy.", b}) -> tensor<8xf32> {\n  return %arg1 : tensor<8xf32>\n}\n',
        2, 10, "use of undeclared SSA value name", "use of undeclared SSA value name"),
}


def test_argument_and_result_dictionaries_over_several_lines_are_read() -> None:
    text = ("func.func @f(%arg0: tensor<8xf32> {\n    mhlo.x = 1 : i32\n  }) -> (tensor<8xf32> {\n"
            "    mhlo.y = 2 : i32}) {\n  return %arg0 : tensor<8xf32>\n}\n")
    module = shardy_py.parse(text)
    assert shardy_py.verify(module) == []
    assert "{mhlo.x = 1 : i32}" in str(module) and "{mhlo.y = 2 : i32}" in str(module)


@pytest.mark.parametrize("name", sorted(CASES))
def test_first_error_is_where_mlir_stops(name: str) -> None:
    text, line, column, _, message = CASES[name]
    assert our_first_error(text) == (line, column, message)


def test_fast_paths_off_give_the_same_first_error() -> None:
    """The error path reads the same with the scanner's line fast path and the op recipes off."""
    for text, line, column, _, message in CASES.values():
        assert our_first_error(text, fast_paths=False) == (line, column, message)


@pytest.mark.parametrize("name", sorted(CASES))
def test_jaxlib_stops_at_the_same_place(name: str) -> None:
    text, line, column, mlir_message, _ = CASES[name]
    assert jaxlib_first_error(text) == (line, column, mlir_message)


def test_a_pretty_body_that_never_closes_fails_before_an_alias_cut_inside_it() -> None:
    """The 100k differential's ops_stablehlo.mlir#163: MLIR's lexer scans a pretty body to its matching '>'
    before the dialect reads what is inside, so the body's unbalanced '<' (lines below) is met before the
    undefined alias ``#stableh`` the cut left inside it."""
    text = ('func.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n'
            '  %0 = "stablehlo.sine"(%arg0) {result_accuracy = #stablehlo.result_accuracy<ulps = 5, mode = #stableh\n'
            '  %1 = "stablehlo.sine"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>\n'
            '  return %1 : tensor<2xf32>\n}\n')
    expected = (3, 8, "unbalanced '<' character in pretty dialect name")
    assert our_first_error(text) == expected
    assert our_first_error(text, fast_paths=False) == expected
    assert jaxlib_first_error(text) == expected

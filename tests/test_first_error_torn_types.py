"""A type or a literal whose brackets do not balance fails where MLIR's token-by-token parser first fails
(issue 26, ``syntax.torn``).

The skeleton scan balances brackets, so a ``tensor<8`` or a ``dense<[1,`` cut at a line's end was reported
where the balancing failed (a ')' lines below, the next op).  MLIR reads the type's or the literal's grammar
on into the next lines and stops at the first token it does not take: the next argument's ``%b`` where an
element type is due, the next op's ``%1`` where an element literal is.  Each case is a cut line of the
differential run's kind (benchmarks/differential_structure.py), reduced; the messages, lines and columns are
jaxlib 0.12's, and the last test asks jaxlib itself.
"""
from __future__ import annotations

import pytest
from first_error_helpers import case_table_tests

import shardy_py

#: A function of one argument whose body is ``{body}`` then ``return %0``.
_FN = "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {{\n  {body}\n  return %0 : tensor<4xf32>\n}}\n"
#: A function whose first argument's type is ``{cut}``, cut before the second argument's line.
_ARGS = ("func.func @f(%a: {cut}\n    %b: tensor<4xf32>) -> tensor<4xf32> {{\n  return %b : tensor<4xf32>\n"
         "}}\n")
#: A function whose body is ``{body}`` then a constant ``%1`` and ``return %1``.
_CONST = ("func.func @f() -> tensor<2xi64> {{\n  {body}\n  %1 = stablehlo.constant dense<[1, 2]> : tensor<2xi64>\n"
          "  return %1 : tensor<2xi64>\n}}\n")
#: A function whose broadcast_in_dim has the dictionary ``{dictionary}``, cut, closed on the next line.
_BROADCAST = ('func.func @f(%a: tensor<4xf32>) -> tensor<1x4xf32> {{\n  %0 = "stablehlo.broadcast_in_dim"(%a) '
              "{dictionary}\n  {close} : (tensor<4xf32>) -> tensor<1x4xf32>\n  return %0 : tensor<1x4xf32>\n}}\n")

#: name -> (text, jaxlib 0.12's line, column and message, which are ours too).
CASES = {
    # -- types: MLIR's type grammar reads the next line's tokens
    "dimension_cut_before_the_next_argument": (
        _ARGS.format(cut="tensor<2"), 1, 26, "expected 'x' in dimension list"),
    "element_type_cut_before_the_next_argument": (
        _ARGS.format(cut="tensor<8x8x"), 1, 29, "expected non-function type"),
    "tensor_cut_after_its_element_type": (
        _ARGS.format(cut="tensor<4xf64"), 1, 30, "expected '>' in tensor type"),
    "complex_element_type_cut": (
        _ARGS.format(cut="tensor<4xcomplex<f32"), 1, 38, "expected '>' in complex type"),
    "encoding_alias_that_is_not_defined": (
        _ARGS.format(cut="tensor<?xf32, #s"), 1, 34, "undefined symbol alias id 's'"),
    "bounded_result_type_cut_before_the_body": (
        "func.func @f() -> tensor<1x?xf32, #stablehlo.bounds<?, 5>\n  %0 = stablehlo.constant dense<1.0> : "
        "tensor<1x1xf32>\n  return %0 : tensor<1x1xf32>\n}\n", 1, 58, "expected '>' in tensor type"),
    "encoding_cut_after_the_dialect_dot": (
        _FN.format(body="%0 = stablehlo.abs %a : tensor<4xf32, #stablehlo."), 3, 3, "unknown StableHLO attribute"),
    "sdy_encoding_cut_after_the_dialect_dot": (
        _FN.format(body="%0 = stablehlo.abs %a : tensor<4xf32, #sdy."), 3, 3,
        "unknown attribute `return` in dialect `sdy`"),
    "encoding_mnemonic_without_its_body": (
        _FN.format(body="%0 = stablehlo.abs %a : tensor<4xf32, #stablehlo.bounds"), 2, 58, "expected '<'"),
    "dialect_type_cut_after_the_dot": (
        _FN.format(body="%0 = stablehlo.abs %a : tensor<4x!stablehlo."), 3, 3, "unknown stablehlo type: return"),
    "dialect_type_cut_before_a_blank_line_and_the_end": (
        "func.func private @f() -> !stablehlo.\n\n", 3, 1, "expected valid keyword"),
    "dialect_type_mnemonic_without_its_body": (
        "func.func private @f() -> !stablehlo.future\n\n", 1, 44, "expected '<'"),
    "dialect_type_cut_to_an_alias_name": (
        _FN.format(body='%0 = "stablehlo.create_token"() : () -> !sta'), 2, 47, "undefined symbol alias id 'sta'"),
    "element_type_cut_to_an_alias_name": (
        _FN.format(body='%0 = "stablehlo.create_token"() : () -> tensor<4x!sta>'), 2, 56,
        "undefined symbol alias id 'sta'"),
    "function_result_type_cut": (
        _FN.format(body='%0 = "stablehlo.abs"(%a) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf6'), 2, 74,
        "expected non-function type"),
    "function_type_cut_before_its_arrow": (
        _FN.format(body="%0 = stablehlo.reshape %a : (tensor<4xf32>)"), 2, 46, "expected '->' in function type"),
    "generic_function_type_cut_at_its_arrow": (
        _FN.format(body='%0 = "stablehlo.abs"(%a) : (tensor<4xf32>) -'), 2, 45, "expected '->' in function type"),
    "result_type_of_a_declared_format_cut_to_letters": (
        "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = chlo.broadcast_add %a, %a : (tensor<4xf32>, "
        "tensor<4xf32>) -> te\n  func.return %0 : tensor<4xf32>\n}\n", 2, 69, "expected non-function type"),
    "tensor_keyword_alone": (
        _FN.format(body="%0 = stablehlo.abs %a : tensor"), 2, 33, "expected '<' in tensor type"),
    "function_type_cut_after_the_colon": (
        _FN.format(body="%0 = stablehlo.reshape %a :"), 2, 30, "expected non-function type"),
    "block_label_cut_after_an_argument_type": (
        'func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = "stablehlo.map"(%a, %a) ({\n'
        "  ^bb0(%x: tensor<f32>, %y: tensor<f32>\n    %1 = stablehlo.add %x, %y : tensor<f32>\n"
        '    "stablehlo.return"(%1) : (tensor<f32>) -> ()\n  }) {dimensions = array<i64: 0>} : '
        "(tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n", 3, 40, "expected ')'"),
    "type_cut_to_a_letter": (
        "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %a : t\n}\n", 2, 14,
        "expected non-function type"),
    "type_cut_after_the_bang": (
        "func.func @f(%a: tensor<4xf32>) -> !\n  return %a : tensor<4xf32>\n}\n", 1, 36, "invalid type identifier"),
    "tensor_cut_at_the_end_of_the_input": (
        "func.func private @f(%a: tensor<8x", 1, 34, "expected non-function type"),
    # -- dense literals: MLIR's tensor literal grammar reads the next line's tokens
    "dense_list_cut_before_the_next_op": (
        _CONST.format(body="%0 = stablehlo.constant dense<[1, "), 3, 3, "expected element literal of primitive type"),
    "dense_cut_after_its_angle": (
        _CONST.format(body="%0 = stablehlo.constant dense<"), 3, 3, "expected element literal of primitive type"),
    "dense_ranks_not_consistent_at_the_cut": (
        _CONST.format(body="%0 = stablehlo.constant dense<[[1, 2], 3"), 3, 3,
        "tensor literal is invalid; ranks are not consistent between elements"),
    "complex_element_cut": (
        _CONST.format(body="%0 = stablehlo.constant dense<[(1.0, 2.0), (1.0"), 2, 50,
        "expected ',' between complex elements"),
    "negative_element_cut": (
        _CONST.format(body="%0 = stablehlo.constant dense<[1, -"), 3, 3,
        "expected integer or floating point literal"),
    "dense_literal_type_cut": (
        _CONST.format(body="%0 = stablehlo.constant dense<2> : tensor<"), 2, 45, "expected non-function type"),
    "dense_literal_without_its_type": (
        "func.func @f() -> tensor<i32> {\n  %0 = stablehlo.constant dense<0>\n  return %0 : tensor<i32>\n}\n", 2, 35,
        "expected ':'"),
    "sdy_constant_dense_cut": (
        'sdy.mesh @mesh = <["a"=2]>\nfunc.func @f() {\n  sdy.manual_computation() in_shardings=[] out_shardings=[] '
        'manual_axes={"a"} () {\n    %0 = sdy.constant dense<\n    sdy.return\n  } : () -> ()\n  return\n}\n',
        5, 5, "expected element literal of primitive type"),
    "dense_in_a_dictionary_runs_into_the_next_entry": (
        _FN.format(body='%0 = "stablehlo.collective_permute"(%a) {\n    source_target_pairs = dense<[[0, 1],\n'
                        "    channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>\n"
                        "  } : (tensor<4xf32>) -> tensor<4xf32>"),
        4, 5, "expected element literal of primitive type"),
    # -- dense arrays and array attributes
    "dense_array_in_properties_cut_after_the_colon": (
        _BROADCAST.format(dictionary="<{broadcast_dimensions = array<i64: ", close="}>"), 3, 3,
        "expected integer literal"),
    "dense_array_cut_before_its_closer": (
        _BROADCAST.format(dictionary="{broadcast_dimensions = array<i64: 1", close="}"), 2, 77,
        "expected '>' to close an array attribute"),
    "float_array_cut_after_a_comma": (
        _BROADCAST.format(dictionary="{broadcast_dimensions = array<f32: 1.0,", close="}"), 3, 3,
        "expected floating point literal"),
    "argument_attribute_cut_to_an_undefined_alias": (
        "func.func @f(%a: tensor<4xf32> {x.y = #s\n  ) -> tensor<4xf32> {\n  func.return %a : tensor<4xf32>\n}\n",
        1, 41, "undefined symbol alias id 's'"),
    "array_attribute_with_an_undefined_alias": (
        _FN.format(body="%0 = stablehlo.abs %a {x.y = [1, #s"), 2, 38, "undefined symbol alias id 's'"),
}


(test_first_error_is_where_mlir_stops, test_fast_paths_off_give_the_same_first_error,
 test_jaxlib_stops_at_the_same_place) = case_table_tests(CASES)


def test_a_type_alias_defined_before_its_use_is_no_error() -> None:
    text = ("!tok = !stablehlo.token\nfunc.func @f() -> !stablehlo.token {\n"
            '  %0 = "stablehlo.create_token"() : () -> !tok\n  func.return %0 : !stablehlo.token\n}\n')
    assert shardy_py.verify(shardy_py.parse(text)) == []


def test_a_type_broken_across_lines_is_read_whole() -> None:
    """MLIR's type grammar reads on into the next line: a type whose brackets close there is a type."""
    text = "func.func @f(%a: tensor<8x\n    16xf32>) -> tensor<8x16xf32> {\n  return %a : tensor<8x16xf32>\n}\n"
    module = shardy_py.parse(text)
    assert shardy_py.verify(module) == []
    assert str(module.body.ops[0].regions[0].blocks[0].arguments[0].type) == "tensor<8x16xf32>"


def test_jaxlib_reads_a_type_broken_across_lines_whole() -> None:
    pytest.importorskip("jax", reason="the oracle is MLIR in jaxlib 0.12 (pip install 'jax==0.12.0.1')")
    from jaxlib_worker import shared_worker

    text = "func.func @f(%a: tensor<8x\n    16xf32>) -> tensor<8x16xf32> {\n  return %a : tensor<8x16xf32>\n}\n"
    answer = shared_worker().call("module", text=text, pipeline="builtin.module()", verify=True)
    assert answer["ok"] and answer["pretty"] == str(shardy_py.parse(text))

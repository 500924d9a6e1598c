"""MLIR's structural rules: each broken module is rejected at the line and column jaxlib 0.12 reports
(its first error), by the parser (SSA names, types of uses, unknown ops) or the verifier
(terminators, func.return, symbol uses, dominance, isolation); no command reaches a pass with it.

``test_jaxlib_reports_the_same_place`` checks every case against jaxlib 0.12 (in a subprocess: it
can crash) and skips without jax.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from verify_helpers import first_error

import shardy_py

F = "func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {\n"
RET = "  return %0 : tensor<8xf32>\n}\n"

#: name -> (text, line, column, the start of our message)
CASES: dict[str, tuple[str, int, int, str]] = {
    "undeclared": (F + "  %0 = stablehlo.add %a, %b : tensor<8xf32>\n" + RET,
                   2, 26, "use of undeclared SSA value name"),
    "undeclared_in_reduce_body": (
        "func.func @main(%a: tensor<8xf32>) -> tensor<f32> {\n"
        "  %c = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "  %1 = stablehlo.reduce(%a init: %c) across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>\n"
        "   reducer(%x: tensor<f32>, %y: tensor<f32>) {\n"
        "    %s = stablehlo.add %x, %q : tensor<f32>\n"
        "    stablehlo.return %s : tensor<f32>\n"
        "  }\n  return %1 : tensor<f32>\n}\n", 5, 28, "use of undeclared SSA value name"),
    "undeclared_generic": (F + '  %0 = "stablehlo.add"(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>\n'
                           + RET, 2, 28, "use of undeclared SSA value name"),
    "undeclared_reported_after_a_later_syntax_error": (
        F + "  %0 = stablehlo.add %a, %b : tensor<8xf32>\n  %1 = stablehlo.add %a, %a : tensor<8xf32> foo\n" + RET,
        3, 45, ""),
    "redefinition": (F + "  %0 = stablehlo.add %a, %a : tensor<8xf32>\n  %0 = stablehlo.add %a, %a : tensor<8xf32>\n"
                     + RET, 3, 3, "redefinition of SSA value '%0'"),
    "redefinition_in_nested_region": (
        F + "  %0 = stablehlo.add %a, %a : tensor<8xf32>\n"
        '  %1 = "stablehlo.case"(%x) ({\n'
        "      %0 = stablehlo.add %a, %a : tensor<8xf32>\n"
        "      stablehlo.return %0 : tensor<8xf32>\n"
        "  }) : (tensor<i32>) -> tensor<8xf32>\n" + RET, 4, 7, "redefinition of SSA value '%0'"),
    "duplicate_function_argument": ("func.func @main(%a: tensor<8xf32>, %a: tensor<8xf32>) -> tensor<8xf32> {\n"
                                    "  return %a : tensor<8xf32>\n}\n",
                                    1, 36, "region entry argument '%a' is already in use"),
    "argument_named_like_a_forward_reference": (
        "func.func @f() -> tensor<8xf32> {\n  %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>\n"
        "  return %0 : tensor<8xf32>\n}\n"
        "func.func @g(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n  return %arg0 : tensor<8xf32>\n}\n",
        5, 14, "region entry argument '%arg0' is already in use"),
    "use_type_differs_from_definition": (
        F + "  %0 = stablehlo.convert %a : (tensor<8xf32>) -> tensor<8xi32>\n  return %0 : tensor<8xf32>\n}\n",
        3, 10, "use of value '%0' expects different type than prior uses: 'tensor<8xf32>' vs 'tensor<8xi32>'"),
    "use_type_differs_generic": (
        F + '  %0 = "stablehlo.add"(%a, %a) : (tensor<8xf32>, tensor<8xi32>) -> tensor<8xf32>\n' + RET,
        2, 28, "use of value '%a' expects different type than prior uses"),
    "forward_reference_of_another_type": (
        F + "  %0 = stablehlo.add %a, %b : tensor<8xf32>\n"
        "  %b = stablehlo.convert %a : (tensor<8xf32>) -> tensor<8xi32>\n" + RET,
        3, 3, "definition of SSA value '%b#0' has type 'tensor<8xi32>'"),
    "invalid_result_number": (F + "  %0 = stablehlo.add %a, %a : tensor<8xf32>\n"
                              "  %1 = stablehlo.add %0#1, %a : tensor<8xf32>\n" + RET,
                              3, 22, "reference to invalid result number"),
    "result_number_in_argument_list": ("func.func @main(%a#1: tensor<8xf32>) -> tensor<8xf32> {\n"
                                       "  return %a : tensor<8xf32>\n}\n",
                                       1, 19, "result number not allowed in argument list"),
    "forward_reference_in_the_same_block": (
        F + "  %0 = stablehlo.add %a, %b : tensor<8xf32>\n  %b = stablehlo.add %a, %a : tensor<8xf32>\n" + RET,
        2, 8, "operand #1 does not dominate this use"),
    "forward_reference_from_a_nested_region": (
        "func.func @main(%a: tensor<8xf32>, %i: tensor<i32>) -> tensor<8xf32> {\n"
        '  %1 = "stablehlo.case"(%i) ({\n      stablehlo.return %0 : tensor<8xf32>\n'
        "  }) : (tensor<i32>) -> tensor<8xf32>\n  %0 = stablehlo.add %a, %a : tensor<8xf32>\n"
        "  return %1 : tensor<8xf32>\n}\n", 3, 7, "operand #0 does not dominate this use"),
    "value_of_another_function": (
        F + "  %0 = stablehlo.add %a, %b : tensor<8xf32>\n" + RET
        + "func.func @g(%a: tensor<8xf32>) -> tensor<8xf32> {\n  %b = stablehlo.add %a, %a : tensor<8xf32>\n"
        "  return %b : tensor<8xf32>\n}\n", 2, 8, "'stablehlo.add' op using value defined outside the region"),
    "unknown_stablehlo_op": (F + "  %0 = stablehlo.frobnicate %a : tensor<8xf32>\n" + RET,
                             2, 8, "custom op 'stablehlo.frobnicate' is unknown"),
    "unknown_stablehlo_op_generic": (F + '  %0 = "stablehlo.frob"(%a) : (tensor<8xf32>) -> tensor<8xf32>\n' + RET,
                                     2, 8, "unregistered operation 'stablehlo.frob' found in dialect ('stablehlo')"),
    "more_results_named_than_the_op_has": (F + "  %0, %1 = stablehlo.add %a, %a : tensor<8xf32>\n" + RET,
                                           2, 3, ""),
    "block_without_terminator": (F + "  %0 = stablehlo.add %a, %a : tensor<8xf32>\n}\n",
                                 2, 8, "block with no terminator, has 'stablehlo.add'"),
    "terminator_not_last": (F + "  return %a : tensor<8xf32>\n  %0 = stablehlo.add %a, %a : tensor<8xf32>\n}\n",
                            2, 3, "'func.return' op must be the last operation in the parent block"),
    "return_count": (F + "  return %a, %a : tensor<8xf32>, tensor<8xf32>\n}\n",
                     2, 3, "'func.return' op has 2 operands, but enclosing function (@main) returns 1"),
    "duplicate_function": (F + "  return %a : tensor<8xf32>\n}\n" + F + "  return %a : tensor<8xf32>\n}\n",
                           4, 1, ""),
    "call_of_no_function": (F + "  %0 = func.call @nope(%a) : (tensor<8xf32>) -> tensor<8xf32>\n" + RET,
                            2, 8, "'func.call' op 'nope' does not reference a valid function"),
    "unclosed_function_body": ("func.func @f() { return\n", 1, 24, "expected '}' to close the region"),
    "label_in_a_region_with_named_arguments": ("func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {\n^bb0:\n"
                                               "  return %a : tensor<8xf32>\n}\n",
                                               2, 1, "invalid block name in region with named arguments"),
    "alias_of_three_values": ("#a = 1 2 3\nfunc.func @f() { return }\n", 1, 7, "unexpected '2' after the value"),
    "alias_of_nothing": ("#a =\nfunc.func @f() { return }\n", 1, 5, "expected"),
    "type_alias_of_no_type": ("!t = not a type\nfunc.func @f() { return }\n", 1, 5, "expected non-function type"),
    "torch_xla_debug_location_alias": ("#loc1 = /path:2901:0\nfunc.func @f() { return }\n", 1, 8,
                                       "expected an attribute"),
    "alias_of_a_dense_literal_of_another_shape": ("#a = dense<[1, 2, 3]> : tensor<2xi32>\nfunc.func @f() { return }\n",
                                                  1, 6, "inferred shape of elements literal ([3]) does not match type"),
    "alias_defined_twice": ("#a = 1 : i32\n#a = 2 : i32\nfunc.func @f() { return }\n",
                            2, 1, "redefinition of attribute alias id 'a'"),
    "undefined_attribute_alias": ("func.func @f() attributes {x = #b} { return }\n", 1, 34,
                                  "undefined symbol alias id 'b'"),
    "undefined_type_alias": ("!t = tensor<8xf32>\nfunc.func @f(%a: !u) { return }\n", 2, 20,
                             "undefined symbol alias id 'u'"),
    "undefined_location_alias": ('#loc1 = loc("x":1:2)\nfunc.func @f() { return } loc(#loc2)\n', 2, 31,
                                 "operation location alias was never defined"),
    "attribute_of_another_shape": ("func.func @f() attributes {x = dense<[1, 2, 3]> : tensor<2xi32>} { return }\n",
                                   1, 32, "inferred shape of elements literal ([3]) does not match type"),
    "attribute_entries_without_a_comma": ("func.func @f() attributes {\n  b = 2\n  a = 1, c = 3} { return }\n",
                                          2, 8, "expected '}' in attribute dictionary"),
    "block_argument_without_a_type": (
        F + '  %0 = "stablehlo.reduce"(%a, %a) ({\n  ^bb0(%x e:t, %y: tensor<f32>):\n'
        '    "stablehlo.return"(%x) : (tensor<f32>) -> ()\n'
        "  }) {dimensions = array<i64>} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>\n" + RET,
        3, 10, "expected ':'"),
    "result_number_in_a_result_name": (F + "  %0#1 = stablehlo.add %a, %a : tensor<8xf32>\n" + RET,
                                       2, 5, "expected '=' after SSA name"),
    "dense_constant_of_dynamic_type": ("func.func @f() -> tensor<?xf32> {\n"
                                       "  %0 = sdy.constant dense<1.0> : tensor<?xf32>\n"
                                       "  return %0 : tensor<?xf32>\n}\n",
                                       2, 21, "elements literal type must have static shape"),
    "results_counted_before_operands": (F + '  "stablehlo.constant"(%a) : (tensor<8xf32>) -> ()\n'
                                        "  return %a : tensor<8xf32>\n}\n", 2, 3,
                                        "'stablehlo.constant' op requires one result"),
    "regions_counted_first": (F + '  %0 = "stablehlo.add"(%a, %a) ({\n    "stablehlo.return"(%a) : (tensor<8xf32>) '
                              "-> ()\n  }) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>\n" + RET, 2, 8,
                              "'stablehlo.add' op requires zero regions"),
    "while_body_without_a_terminator": (
        "func.func @main(%a: tensor<i1>) -> tensor<i1> {\n"
        '  %0 = "stablehlo.while"(%a) ({\n  ^bb0(%x: tensor<i1>):\n    "stablehlo.return"(%x) : (tensor<i1>) -> ()\n'
        '  }, {\n  ^bb0(%x: tensor<i1>):\n    %1 = "stablehlo.not"(%x) : (tensor<i1>) -> tensor<i1>\n'
        "  }) : (tensor<i1>) -> tensor<i1>\n  return %0 : tensor<i1>\n}\n",
        2, 8, "The while body-region expected to have a terminator"),
    "reducer_without_a_terminator": (
        "func.func @main(%a: tensor<8xf32>, %i: tensor<f32>) -> tensor<f32> {\n"
        '  %0 = "stablehlo.reduce"(%a, %i) ({\n  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n'
        '    %1 = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n'
        "  }) {dimensions = array<i64: 0>} : (tensor<8xf32>, tensor<f32>) -> tensor<f32>\n"
        "  return %0 : tensor<f32>\n}\n",
        2, 8, "The reduction-region expected to have a terminator"),
    "alias_definition_using_a_later_alias": (
        F.replace("{\n", "{\n  return %a : tensor<8xf32> loc(#loc2)\n}\n", 1)
        + '#loc1 = loc("a.py":1:1)\n#loc2 = loc(callsite(#loc1 at #loc3))\n#loc3 = loc("b.py":2:2)\n',
        5, 36, "undefined symbol alias id 'loc3'"),
    "required_attribute_missing": (F + '  %0 = "chlo.constant_like"(%a) : (tensor<8xf32>) -> tensor<8xf32>\n' + RET,
                                   2, 8, "'chlo.constant_like' op requires attribute 'value'"),
    "required_attribute_missing_custom_form": (
        "func.func @main(%a: tensor<1x4x4x1xf32>, %b: tensor<1x1x1x1xf32>) -> tensor<1x4x4x1xf32> {\n"
        "  %0 = stablehlo.convolution(%a, %b) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} "
        "{feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x4x4x1xf32>\n"
        "  return %0 : tensor<1x4x4x1xf32>\n}\n", 2, 8, "'stablehlo.convolution' op requires attribute "
        "'batch_group_count'"),
    "integer_elements_of_a_float_type_in_an_attribute_dictionary": (
        F + '  %0 = "stablehlo.all_to_all"(%a) {\n    split_dimension = 0 : i64, concat_dimension = 0 : i64, '
        "split_count = 4 : i64,\n    replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xf16>\n"
        "  } : (tensor<8xf32>) -> tensor<8xf32>\n" + RET,
        4, 30, "unexpected decimal integer literal for a floating point value"),
    "empty_elements_literal_in_an_array": (
        F + '  %0 = "stablehlo.custom_call"(%a) {call_target_name = "foo", '
        "result_layouts = [dense<> : tensor<2xindex>]} : (tensor<8xf32>) -> tensor<8xf32>\n" + RET,
        2, 81, "parsed zero elements, but type (tensor<2xindex>) expected at least 1"),
    "location_alias_without_its_parentheses": (
        F.replace("{\n", "{\n  return %a : tensor<8xf32> loc(#loc1)\n}\n", 1) + "#loc1 = loc\n",
        4, 12, "expected '(' in inline location"),
    "colon_without_the_types": (
        "func.func @main(%a: tensor<i1>) -> tensor<i1> {\n  %0 = \"stablehlo.case\"(%a) ({\n"
        "    stablehlo.return %a :\n  }) : (tensor<i1>) -> tensor<i1>\n  return %0 : tensor<i1>\n}\n",
        3, 26, "expected non-function type"),
    "operands_without_their_types": (
        "func.func @main(%a: tensor<i1>) -> tensor<i1> {\n  %0 = \"stablehlo.case\"(%a) ({\n"
        "    stablehlo.return %a, %a\n  }) : (tensor<i1>) -> tensor<i1>\n  return %0 : tensor<i1>\n}\n",
        3, 22, "'stablehlo.return': number of operands and types do not match: got 2 operands and 0 types"),
    "torn_type_in_an_array_attribute": (
        F + '  %0 = "stablehlo.custom_call"(%a) {call_target_name = "foo", '
        "result_layouts = [dense<0> : tensor<1xindexi32>]} : (tensor<8xf32>) -> tensor<8xf32>\n" + RET,
        2, 101, "expected non-function type"),
    "type_cut_at_the_end_of_its_line": (F + "  %0 = stablehlo.abs %a : tensor<8xf32>\n  return %0 : tensor<8\n}\n",
                                        3, 23, "expected 'x' in dimension list"),
    "type_cut_before_a_blank_line_and_an_op": (
        F + "  %0 = stablehlo.abs %a : tensor<8x\n\n  %1 = stablehlo.abs %0 : tensor<8xf32>\n" + RET,
        2, 36, "expected non-function type"),
    "pretty_dialect_name_not_closed": (
        "func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@\n"
        '  %0 = stablehlo.abs %a {x.y = "s"} : tensor<8xf32>\n' + RET,
        2, 32, "unbalanced '<' character in pretty dialect name"),
    "region_list_left_open_by_a_duplicated_line": (
        "func.func @main(%a: tensor<f32>) -> tensor<f32> {\n"
        '  %0 = "stablehlo.map"(%a, %a) ({\n  %0 = "stablehlo.map"(%a, %a) ({\n'
        "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n    \"stablehlo.return\"(%x) : (tensor<f32>) -> ()\n"
        "  }) {dimensions = array<i64>} : (tensor<f32>, tensor<f32>) -> tensor<f32>\n  return %0 : tensor<f32>\n}\n",
        8, 2, "expected ')' to close the '(' opened at 2:32"),
    "no_op_starts_with_a_comma": (F + "  return %a : tensor<8xf32>\n}\n, {\n  return %a : tensor<8xf32>\n}\n",
                                  3, 2, "expected operation name in quotes"),
    "no_op_starts_with_an_arrow": (F + "  return %a : tensor<8xf32>\n}\n\n  -> (tensor<8xf32>) {\n}\n",
                                   3, 2, "expected operation name in quotes"),
    "block_label_first_in_a_function_body_before_a_later_scan_error": (
        F + "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n    \"stablehlo.return\"(%x) : (tensor<f32>) -> ()\n"
        "  }) {dimensions = array<i64>} : (tensor<f32>, tensor<f32>) -> tensor<f32>\n" + RET,
        2, 3, "invalid block name in region with named arguments"),
    "public_function_declaration": ("func.func @h(tensor<f32>)\n", 1, 1,
                                    "'func.func' op symbol declaration cannot have public visibility"),
    "public_function_declaration_with_named_arguments": ("func.func @h(%a: tensor<f32>)\n", 1, 1,
                                                         "'func.func' op symbol declaration cannot have public "
                                                         "visibility"),
    "value_from_outside_an_isolated_region_of_another_type": (
        "func.func @main(%a: tensor<8x2xf32>) -> !stablehlo.future<tensor<8x8xf32>> {\n"
        '  %0 = "stablehlo.async_start"(%a) ({\n  ^bb0(%b: tensor<8x2xf32>):\n'
        '    %1 = "stablehlo.all_gather"(%b) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 2, 4, 6], '
        '[1, 3, 5, 7]]> : tensor<2x4xi64>} : (tensor<8x2xf32>) -> tensor<8x8xf32>\n'
        '    "stablehlo.return"(%a) : (tensor<8x8xf32>) -> ()\n'
        "  }) : (tensor<8x2xf32>) -> !stablehlo.future<tensor<8x8xf32>>\n"
        "  return %0 : !stablehlo.future<tensor<8x8xf32>>\n}\n",
        5, 24, "use of value '%a' expects different type than prior uses"),
    "value_from_outside_an_isolated_region_returned": (
        "func.func @main(%a: tensor<8x2xf32>) -> !stablehlo.future<tensor<8x2xf32>> {\n"
        '  %0 = "stablehlo.async_start"(%a) ({\n  ^bb0(%b: tensor<8x2xf32>):\n'
        '    %1 = "stablehlo.all_gather"(%b) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 2, 4, 6], '
        '[1, 3, 5, 7]]> : tensor<2x4xi64>} : (tensor<8x2xf32>) -> tensor<8x8xf32>\n'
        '    "stablehlo.return"(%a) : (tensor<8x2xf32>) -> ()\n'
        "  }) : (tensor<8x2xf32>) -> !stablehlo.future<tensor<8x2xf32>>\n"
        "  return %0 : !stablehlo.future<tensor<8x2xf32>>\n}\n",
        5, 5, "'stablehlo.return' op using value defined outside the region"),
    "return_in_a_region_nested_in_a_function": (
        "func.func @main(%a: tensor<i32>) -> tensor<i32> {\n  %0 = \"stablehlo.case\"(%a) ({\n"
        "    return %a : tensor<i32>\n  }) : (tensor<i32>) -> tensor<i32>\n  return %0 : tensor<i32>\n}\n",
        3, 5, "'func.return' op expects parent op 'func.func'"),  # (jaxlib 0.12: a generic op keeps func default)
    "while_operand_of_another_type_than_written": (
        "func.func @main(%a: tensor<16x16xf32>) -> tensor<16xf32> {\n"
        "  %0 = stablehlo.while(%i = %a) : tensor<16xf32>\n  cond {\n"
        "    %c = stablehlo.constant dense<true> : tensor<i1>\n    stablehlo.return %c : tensor<i1>\n"
        "  } do {\n    %1 = stablehlo.add %i, %i : tensor<16x16xf32>\n    stablehlo.return %1 : tensor<16x16xf32>\n"
        "  }\n  return %0 : tensor<16xf32>\n}\n",
        2, 29, "use of value '%a' expects different type than prior uses: 'tensor<16xf32>' vs 'tensor<16x16xf32>'"),
    "attribute_dictionary_with_a_comma_after_its_last_entry": (
        F + '  %0 = "stablehlo.abs"(%a) {\n    x.y = 1,\n\n  } : (tensor<8xf32>) -> tensor<8xf32>\n' + RET,
        3, 13, "expected attribute name"),
    "attribute_dictionary_with_a_key_twice": (
        F + "  %0 = stablehlo.abs %a {x.y = 1, x.y = 2} : tensor<8xf32>\n" + RET,
        2, 35, "duplicate key 'x.y' in dictionary attribute"),
    "function_arguments_left_open_before_an_op": (
        "func.func @main(\n\n// a comment\nsdy.mesh @m = <[\"a\"=2]>\n  %a: tensor<8xf32>) -> tensor<8xf32> {\n"
        "  return %a : tensor<8xf32>\n}\n", 1, 17, "expected non-function type"),
    "keyword_missing_at_the_end_of_an_op": (
        "func.func @main(%a: tensor<1x4x4x1xf32>, %b: tensor<1x1x1x1xf32>) -> tensor<1x4x4x1xf32> {\n"
        "  %0 = stablehlo.convolution(%a, %b)\n\n  return %a : tensor<1x4x4x1xf32>\n}\n",
        4, 3, "'stablehlo.convolution': expected 'dim_numbers'"),
    "empty_function_body_with_arguments": ("func.func private @f(%a: tensor<8xf32>) {\n}\n", 1, 1,
                                           "empty block: expect at least a terminator"),
    "empty_case_branch": (
        "func.func @main(%a: tensor<i32>) -> tensor<i32> {\n  %0 = \"stablehlo.case\"(%a) ({\n"
        "    stablehlo.return %a : tensor<i32>\n  }, {\n  }) : (tensor<i32>) -> tensor<i32>\n"
        "  return %0 : tensor<i32>\n}\n",
        2, 8, "'stablehlo.case' op region #1 ('branches') failed to verify constraint: region with 1 blocks"),
    "return_before_the_last_op_of_a_named_computation": (
        F + '  %0 = sdy.named_computation<"n">(%a) (%b: tensor<8xf32>) {\n    sdy.return %b : tensor<8xf32>\n'
        "    %1 = stablehlo.abs %b : tensor<8xf32>\n  } : (tensor<8xf32>) -> tensor<8xf32>\n" + RET,
        3, 5, "'sdy.return' op must be the last operation in the parent block"),
    "unterminated_string_in_a_location_alias": (
        F.replace("{\n", "{\n  return %a : tensor<8xf32> loc(#loc1)\n}\n", 1) + '#loc1 = loc("a.py\n',
        4, 18, "expected '\"' in string literal"),
    "text_on_a_line_after_an_op_that_no_op_starts_with": (
        F + "  %0 = stablehlo.add %a, %a : tensor<8xf32>\n    (tensor<8xf32>) -> tensor<8xf32>\n" + RET,
        2, 44, "expected operation name in quotes"),
    "type_alias_named_with_a_dot": ("!a.b = tensor<f32>\n" + F + "  return %a : tensor<8xf32>\n}\n", 1, 1,
                                    "type names with a '.' are reserved for dialect-defined names"),
    "unknown_op_whose_text_the_scan_cannot_take": (
        "func.fun\n    %a: tensor<8xf32>) -> tensor<8xf32> {\n  return %a : tensor<8xf32>\n}\n",
        1, 1, "custom op 'func.fun' is unknown"),
    "result_number_in_the_result_name_of_a_continued_line": (
        F + "  %0 = stablehlo.add %a, %a : tensor<8xf32>\n  %0#1 = stablehlo.add %a, %a : tensor<8xf32>\n" + RET,
        3, 5, "expected '=' after SSA name"),
    "invalid_result_number_of_a_value_defined_outside_an_isolated_region": (
        "sdy.mesh @m = <[\"a\"=2]>\n" + F + "  %0 = stablehlo.add %a, %a : tensor<8xf32>\n"
        "  %1 = sdy.manual_computation(%a) in_shardings=[<@m, [{\"a\"}]>] out_shardings=[<@m, [{\"a\"}]>] "
        "manual_axes={\"a\"} (%b: tensor<4xf32>) {\n    %2 = stablehlo.add %0#1, %b : tensor<4xf32>\n"
        "    sdy.return %2 : tensor<4xf32>\n  } : (tensor<8xf32>) -> tensor<8xf32>\n  return %1 : tensor<8xf32>\n}\n",
        5, 24, "reference to invalid result number"),
    "function_argument_attribute_without_a_dialect": (
        "func.func @main(%a: tensor<8xf32> {x = 1}) -> tensor<8xf32> {\n  return %a : tensor<8xf32>\n}\n", 1, 1,
        "'func.func' op arguments may only have dialect attributes"),
    "function_result_attribute_without_a_dialect": (
        "func.func @main(%a: tensor<8xf32>) -> (tensor<8xf32> {y = 2}) {\n  return %a : tensor<8xf32>\n}\n", 1, 1,
        "'func.func' op results may only have dialect attributes"),
    # Shardy's computations have SingleBlockImplicitTerminator: the block count, checked on entering the op,
    # comes before the terminator of its first block (found by the differential mutant run, swap_lines)
    "manual_computation_body_of_two_blocks": (
        'sdy.mesh @mesh = <["x"=2]>\nfunc.func @main(%arg0: tensor<16xf32>) -> tensor<16xf32> {\n'
        '  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] '
        'manual_axes={"x"} (%arg2: tensor<8xf32>) {\n    %1 = stablehlo.abs %arg2 : tensor<8xf32>\n'
        "    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):\n    sdy.return %1 : tensor<8xf32>\n"
        "  } : (tensor<16xf32>) -> tensor<16xf32>\n  return %0 : tensor<16xf32>\n}\n",
        3, 8, "'sdy.manual_computation' op expects region #0 to have 0 or 1 blocks"),
    "named_computation_body_without_ops": (
        'func.func @main(%arg0: tensor<16xf32>) -> tensor<16xf32> {\n'
        '  %0 = sdy.named_computation<"a">(%arg0) (%arg2: tensor<16xf32>) {\n'
        "  } : (tensor<16xf32>) -> tensor<16xf32>\n  return %0 : tensor<16xf32>\n}\n",
        2, 8, "'sdy.named_computation' op expects a non-empty block"),
    # MLIR's isolation check walks a function's ops before the regions they hold, the last region first:
    # uses of a value another function defines (the definition of %0 deleted: the differential run) are met
    # in that order, not in text order
    "use_outside_at_the_function_level_before_one_in_a_region": (
        "func.func @a(%a: tensor<f32>, %p: tensor<i32>) -> tensor<f32> {\n"
        '  %1 = "stablehlo.case"(%p) ({\n'
        "    %3 = stablehlo.add %0, %a : tensor<f32>\n"
        "    stablehlo.return %3 : tensor<f32>\n"
        "  }) : (tensor<i32>) -> tensor<f32>\n"
        "  %2 = stablehlo.add %0, %1 : tensor<f32>\n"
        "  return %2 : tensor<f32>\n"
        "}\n"
        "func.func @b(%a: tensor<f32>) -> tensor<f32> {\n"
        "  %0 = stablehlo.abs %a : tensor<f32>\n"
        "  return %0 : tensor<f32>\n"
        "}\n",
        6, 8, "'stablehlo.add' op using value defined outside the region"),
    "use_outside_in_the_last_region_before_one_in_the_first": (
        "func.func @a(%a: tensor<f32>, %p: tensor<i32>) -> tensor<f32> {\n"
        '  %1:2 = "stablehlo.case"(%p) ({\n'
        "    %3 = stablehlo.add %0, %a : tensor<f32>\n"
        "    stablehlo.return %3, %3 : tensor<f32>, tensor<f32>\n"
        "  }, {\n"
        "    %3 = stablehlo.add %a, %0 : tensor<f32>\n"
        "    stablehlo.return %3, %3 : tensor<f32>, tensor<f32>\n"
        "  }) : (tensor<i32>) -> (tensor<f32>, tensor<f32>)\n"
        "  return %1#0 : tensor<f32>\n"
        "}\n"
        "func.func @b(%a: tensor<f32>) -> tensor<f32> {\n"
        "  %0 = stablehlo.abs %a : tensor<f32>\n"
        "  return %0 : tensor<f32>\n"
        "}\n",
        6, 10, "'stablehlo.add' op using value defined outside the region"),
    "module_attribute_without_a_dialect": ("module attributes {a.b = 1, x = 2} {\n}\n", 1, 1,
                                           "'builtin.module' op can only contain attributes with dialect-prefixed "
                                           "names, found: 'x'"),
    "nested_module_attribute_without_a_dialect": ("module {\n  module attributes {x = 2} {\n  }\n}\n", 2, 3,
                                                  "'builtin.module' op can only contain attributes with "
                                                  "dialect-prefixed names, found: 'x'"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_rejected_at_mlirs_place(name: str) -> None:
    text, line, column, message = CASES[name]
    got = first_error(text)
    assert got is not None and got[:2] == (line, column), got
    assert got[2].startswith(message), got


@pytest.mark.parametrize("command", ["propagate", "rules", "fmt"])
def test_commands_stop_at_an_undefined_value(tmp_path, command: str) -> None:
    path = tmp_path / "m.mlir"
    path.write_text(CASES["undeclared"][0])
    r = subprocess.run([sys.executable, "-m", "shardy_py", command, str(path)], capture_output=True, text=True,
                       timeout=120)
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr.startswith(f"{path}:2:26: error: use of undeclared SSA value name"), r.stderr


def test_commands_stop_at_a_use_before_its_definition(tmp_path) -> None:
    path = tmp_path / "m.mlir"
    path.write_text(CASES["forward_reference_in_the_same_block"][0])
    r = subprocess.run([sys.executable, "-m", "shardy_py", "propagate", str(path)], capture_output=True, text=True,
                       timeout=120)
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr.startswith(f"{path}:2:8: error: operand #1 does not dominate this use"), r.stderr


def test_executable_test_part_calling_the_harness_function_is_rejected(conformance_dir) -> None:
    """Shardy's executable tests call ``@sequential_*``, which their harness adds: the chunk alone is not
    valid IR (jaxlib 0.12: "'func.call' op 'sequential_reduce_window' does not reference a valid
    function", once the `check` ops it also holds are allowed), though the manifest calls it valid."""
    path = conformance_dir / "transforms/export/test/executable_convert_global_to_local/stablehlo_reduce_window.mlir"
    got = first_error(path.read_text().split("// -----")[0])
    assert got == (27, 10, "'func.call' op 'sequential_reduce_window' does not reference a valid function")


@pytest.mark.parametrize(("body", "message"), [
    ('"stablehlo.reshape"(%a) : (tensor<8xf32>) -> ()', "'stablehlo.reshape' op requires one result"),
    ('%0 = "stablehlo.reshape"(%a, %a) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>',
     "'stablehlo.reshape' op requires a single operand"),
    ('%0:2 = "stablehlo.add"(%a, %a) : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)',
     "'stablehlo.add' op requires one result"),
])
def test_operand_and_result_counts_of_declared_ops(body: str, message: str) -> None:
    # jaxlib 0.12: at the op's name (2:3, 2:8, 2:10)
    column = 3 if not body.startswith("%") else 8 if body.startswith("%0 ") else 10
    assert first_error(F + f"  {body}\n  return %a : tensor<8xf32>\n}}\n") == (2, column, message)


def test_used_alias_is_written_out() -> None:
    text = "#a = 1 : i32\n!t = tensor<8xf32>\nfunc.func @f(%x: !t) attributes {x = #a} { return }\n"
    assert first_error(text) is None
    assert "func.func @f(%arg0: tensor<8xf32>) attributes {x = 1 : i32}" in str(shardy_py.parse(text))


def test_bytecode_input_says_what_it_is_and_how_to_get_text(tmp_path) -> None:
    path = tmp_path / "m.mlirbc"
    path.write_bytes(b"ML\xefR\x00\x05\x09MLIR")
    r = subprocess.run([sys.executable, "-m", "shardy_py", "verify", str(path)], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode != 0 and r.stdout == ""
    assert r.stderr.startswith(f"{path}:1:1: error: this is MLIR bytecode, not MLIR text; write it as text with "
                               "`mlir-opt --emit-bytecode=false FILE`"), r.stderr


def test_text_that_is_not_utf8_is_located(tmp_path) -> None:
    path = tmp_path / "m.mlir"
    path.write_bytes(b"func.func @f() {\n  return \xff\n}\n")
    r = subprocess.run([sys.executable, "-m", "shardy_py", "fmt", str(path)], capture_output=True, text=True,
                       timeout=120)
    assert (r.returncode != 0, r.stdout) == (True, "")
    assert r.stderr == f"{path}:2:10: error: the input is not UTF-8 text (byte 0xff); MLIR reads UTF-8 text\n"


def test_a_forward_reference_resolves_to_its_value() -> None:
    module = shardy_py.parse(CASES["forward_reference_in_the_same_block"][0])
    add = module.funcs["main"].regions[0].blocks[0].ops[0]
    assert add.operands[1] is module.funcs["main"].regions[0].blocks[0].ops[1].results[0]


def test_unknown_dialects_stay_as_written() -> None:
    text = F + '  %0 = "foo.bar"(%a) : (tensor<8xf32>) -> tensor<8xf32>\n  %1 = foo.baz %0 : tensor<8xf32>\n' \
        "  return %a : tensor<8xf32>\n}\n"
    assert first_error(text) is None
    assert str(shardy_py.parse(text)).count("foo.") == 2


def test_names_may_be_reused_by_sibling_regions_and_functions() -> None:
    text = ("func.func @main(%a: tensor<8xf32>, %i: tensor<i32>) -> tensor<8xf32> {\n"
            '  %1 = "stablehlo.case"(%i) ({\n      %0 = stablehlo.add %a, %a : tensor<8xf32>\n'
            "      stablehlo.return %0 : tensor<8xf32>\n  }, {\n      %0 = stablehlo.add %a, %a : tensor<8xf32>\n"
            "      stablehlo.return %0 : tensor<8xf32>\n  }) : (tensor<i32>) -> tensor<8xf32>\n"
            "  %0 = stablehlo.add %a, %a : tensor<8xf32>\n  return %1 : tensor<8xf32>\n}\n"
            "func.func @g(%a: tensor<8xf32>) -> tensor<8xf32> {\n  %0 = stablehlo.add %a, %a : tensor<8xf32>\n"
            "  return %0 : tensor<8xf32>\n}\n")
    assert first_error(text) is None


_ORACLE = """
import json, re, sys
from jax._src.interpreters import mlir
from jax._src.lib.mlir import ir
ctx = mlir.make_ir_context()
out = {}
for name, text in json.load(sys.stdin).items():
    try:
        ir.Module.parse(text, context=ctx)
        out[name] = None
    except Exception as e:
        m = re.search(r'error: "-":(\\d+):(\\d+): ', str(e))
        out[name] = [int(m.group(1)), int(m.group(2))] if m else [0, 0]
print(json.dumps(out))
"""


def test_jaxlib_reports_the_same_place() -> None:
    pytest.importorskip("jax", reason="the oracle is jaxlib 0.12 (pip install 'jax==0.12.0.1')")
    import json

    r = subprocess.run([sys.executable, "-c", _ORACLE], input=json.dumps({k: v[0] for k, v in CASES.items()}),
                       capture_output=True, text=True, timeout=300, cwd=Path(__file__).parent)
    assert r.returncode == 0, r.stderr[-2000:]
    theirs = json.loads(r.stdout)
    assert {k: tuple(v) for k, v in theirs.items() if v} == {k: (c[1], c[2]) for k, c in CASES.items()}


def test_a_private_declaration_may_name_its_arguments() -> None:
    """MLIR reads the names of a declaration's arguments and drops them (jaxlib 0.12 prints
    ``func.func private @g(tensor<f32>)``); we rejected it ("a function with named arguments needs a body")."""
    module = shardy_py.parse("func.func private @g(%a: tensor<f32> {x.y = 1 : i64})\n")
    assert shardy_py.verify(module) == []
    assert str(module) == "module {\n  func.func private @g(tensor<f32> {x.y = 1 : i64})\n}\n"


@pytest.mark.parametrize("text", [
    'func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {\n  %0 = stablehlo.custom_call @foo(%a) {\n\n  } : '
    "(tensor<8xf32>) -> tensor<8xf32>\n  return %0 : tensor<8xf32>\n}\n",
    "module attributes {\n} {\n}\n",
])
def test_an_attribute_dictionary_over_lines_is_no_region(text: str) -> None:
    """An op of no regions takes a '{' as its attribute dictionary, and so does 'attributes', however the text
    is laid out (jaxlib 0.12 accepts both; we took them for regions; found by the differential mutant run)."""
    assert shardy_py.verify(shardy_py.parse(text)) == []


def _calls_of_f(width: int) -> str:
    """A module whose ``@f`` takes and returns ``tensor<{width}xf32>``, called twice on ``tensor<8xf32>``."""
    return (f"func.func private @f(%x: tensor<{width}xf32>) -> tensor<{width}xf32> {{\n"
            f"  return %x : tensor<{width}xf32>\n}}\n"
            "func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {\n"
            "  %0 = func.call @f(%a) : (tensor<8xf32>) -> tensor<8xf32>\n"
            "  %1 = func.call @f(%0) : (tensor<8xf32>) -> tensor<8xf32>\n"
            "  return %1 : tensor<8xf32>\n}\n")


def test_a_call_judged_clean_in_one_module_is_judged_again_in_the_next() -> None:
    """What verify remembers of a clean ``func.call`` holds for its own module only (the callee's meaning depends
    on the module): the same call text against another ``@f`` is MLIR's operand type mismatch."""
    assert first_error(_calls_of_f(8)) is None
    assert first_error(_calls_of_f(4)) == (5, 8, "'func.call' op operand type mismatch: expected operand type "
                                                 "'tensor<4xf32>', but provided 'tensor<8xf32>' for operand number 0")
    assert first_error(_calls_of_f(8)) is None

# ruff: noqa: E501  (MLIR text on one line, as written)
"""The first error of a broken module is MLIR's: the same message at the same line and column as jaxlib
0.12 gives, where MLIR's order of checks (what its parser finds, what its verifier finds, and in what
order) decides which of two errors comes first. Each case is one behaviour that the 100,000-mutant run
(benchmarks/differential_structure.py) found both sides rejecting with the first error on different
lines; ``test_jaxlib_gives_the_same_first_error`` checks every case against jaxlib (skips without jax).
"""
from __future__ import annotations

import pytest
from jaxlib_worker import shared_worker
from verify_helpers import first_error

import shardy_py

CUSTOM_CALL = """sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.custom_call @foo(%arg0) {DICT} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""

#: name -> (text, line, column, message): MLIR's first error.
CASES: dict[str, tuple[str, int, int, str]] = {
    # An attribute name is a string or a bare-id ([A-Za-z_][A-Za-z0-9_$.]*): '-' ends it, and after a
    # name comes '=', ',' or '}' (CI's fuzz finding: `sd-y.sharding` was read as one name).
    "attribute_name_with_a_dash": (
        CUSTOM_CALL.replace("DICT", 'sd-y.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>'),
        3, 45, "expected '}' in attribute dictionary"),
    "attribute_name_ending_in_a_dash": (CUSTOM_CALL.replace("DICT", "a-"), 3, 44, "expected '}' in attribute dictionary"),
    "second_name_without_a_comma": (CUSTOM_CALL.replace("DICT", "a b"), 3, 44, "expected '}' in attribute dictionary"),
    "dash_in_a_later_attribute_name": (CUSTOM_CALL.replace("DICT", "a = 1, b-c = 2"), 3, 51,
                                       "expected '}' in attribute dictionary"),
    "dash_in_an_argument_attribute_name": (
        "func.func @main(%arg0: tensor<8xf32> {sd-y.sharding = 1}) -> tensor<8xf32> {\n  return %arg0 : tensor<8xf32>\n}\n",
        1, 41, "expected '}' in attribute dictionary"),
    # The generic form's `{` after the operands (and regions) is the attribute dictionary, whatever it
    # holds: MLIR reads its first entry's name and wants '=', ',' or '}' next.
    "generic_dictionary_of_two_names": (
        'func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n  %0 = "stablehlo.abs"(%arg0) {a b} : (tensor<8xf32>) -> tensor<8xf32>\n  return %0 : tensor<8xf32>\n}\n',
        2, 33, "expected '}' in attribute dictionary"),
    "generic_dictionary_holding_a_function": (
        'func.func @main(%data: tensor<4x16xf32>) -> tensor<16x4xf32> {\n  %0 = "stablehlo.all_to_all"(%data) {\n'
        'func.func @g(%data: tensor<4x16xf32>) -> tensor<16x4xf32> {\n    split_dimension = 1 : i64,\n'
        '    concat_dimension = 0 : i64,\n    split_count = 4 : i64,\n    replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>\n'
        '  } : (tensor<4x16xf32>) -> tensor<16x4xf32>\n  func.return %0 : tensor<16x4xf32>\n}\n',
        3, 10, "expected '}' in attribute dictionary"),
    # A block label's argument defines its name: a use before it is a forward reference it resolves,
    # and the verifier then finds the second block.
    "label_argument_resolves_a_forward_reference": (
        'func.func @main(%arg0: tensor<2xf32>, %arg1: tensor<2xi32>) -> tensor<2xf32> {\n  %0 = "stablehlo.map"(%arg0, %arg1) ({\n'
        '    "stablehlo.return"(%arg2) : (tensor<f32>) -> ()\n    ^bb0(%arg2: tensor<f32>, %arg3: tensor<i32>):\n'
        '  }) {dimensions = array<i64: 0>} : (tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>\n  func.return %0 : tensor<2xf32>\n}\n',
        2, 8, "'stablehlo.map' op expects region #0 to have 0 or 1 blocks"),
    # MLIR resolves an op's operands once it has read the op's regions: a name only the op's own body
    # defines is no operand of the op's ...
    "operand_defined_only_in_the_ops_own_body": (
        'func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n  %0 = sdy.named_computation<"foo">(%x) (%arg1: tensor<8xf32>) {\n'
        '    %x = stablehlo.abs %arg1 : tensor<8xf32>\n    sdy.return %x : tensor<8xf32>\n  } : (tensor<8xf32>) -> tensor<8xf32>\n'
        '  %1 = stablehlo.abs %x : tensor<8xf32>\n  return %0 : tensor<8xf32>\n}\n',
        2, 37, "use of undeclared SSA value name"),
    # ... and an entry argument of that body may take the name of a forward reference among the operands.
    "entry_argument_named_like_the_ops_forward_operand": (
        'func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n  %0 = sdy.named_computation<"foo">(%x) (%x: tensor<8xf32>) {\n'
        '    sdy.return %x : tensor<8xf32>\n  } : (tensor<8xf32>) -> tensor<8xf32>\n  %x = stablehlo.abs %arg0 : tensor<8xf32>\n'
        '  return %0 : tensor<8xf32>\n}\n',
        2, 8, "operand #0 does not dominate this use"),
    # MLIR checks an op's inferred result types (InferTypeOpInterface) after its nested ops, as region
    # invariants: a body's misplaced return is the return's error first (map, if, chlo.scan) ...
    "map_body_checked_after_its_ops": (
        'func.func @main(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {\n  %0 = "stablehlo.map"(%arg0, %arg1) ({\n'
        '    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):\n    "stablehlo.return"(%1) : (tensor<f32>) -> ()\n'
        '    %1 = stablehlo.add %arg2, %arg3 : tensor<f32>\n  }) {dimensions = array<i64>} : (tensor<f32>, tensor<f32>) -> tensor<f32>\n'
        '  func.return %0 : tensor<f32>\n}\n',
        4, 5, "'stablehlo.return' op must be the last operation in the parent block"),
    "if_branches_checked_after_their_ops": (
        'func.func @main(%pred: tensor<i1>, %arg0: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = "stablehlo.if"(%pred) ({\n'
        '    "stablehlo.return"(%arg0) : (tensor<4xf32>) -> ()\n    %1 = "stablehlo.abs"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>\n'
        '  }, {\n    "stablehlo.return"(%arg0, %arg0) : (tensor<4xf32>, tensor<4xf32>) -> ()\n  }) : (tensor<i1>) -> tensor<4xf32>\n'
        '  func.return %0 : tensor<4xf32>\n}\n',
        3, 5, "'stablehlo.return' op must be the last operation in the parent block"),
    "scan_results_checked_after_its_body": (
        'func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>) -> tensor<2x3xf32> {\n'
        '  %0:2 = chlo.scan(%arg0) inits(%arg1) dimension=0 {\n  ^bb0(%input0: tensor<3xf32>, %carry0: tensor<3xf32>):\n'
        '    stablehlo.return %carry0, %carry0 : tensor<3xf32>, tensor<3xf32>\n'
        '    %2 = stablehlo.convert %input0 : (tensor<3xf32>) -> tensor<3xi32>\n'
        '  } : (tensor<2x3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>)\n  func.return %0#0 : tensor<2x3xf32>\n}\n',
        4, 5, "'stablehlo.return' op must be the last operation in the parent block"),
    # ... and async_start's body rules are its type inference: the nested collective's error comes first.
    "async_start_body_checked_after_the_collective": (
        'func.func @main(%arg0: tensor<4x4xf32>) -> !stablehlo.future<tensor<4x4xf32>> {\n  %0 = "stablehlo.async_start"(%arg0) ({\n'
        '  ^bb0(%barg0: tensor<4x4xf32>):\n    %1 = "stablehlo.all_reduce"(%barg0) ({\n    ^bb1(%arg2: tensor<f32>, %arg3: tensor<f32>):\n'
        '      %2 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n      "stablehlo.return"(%2) : (tensor<f32>) -> ()\n'
        '    "stablehlo.return"(%1) : (tensor<4x4xf32>) -> ()\n    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x4xf32>) -> tensor<4x4xf32>\n'
        '  }) : (tensor<4x4xf32>) -> !stablehlo.future<tensor<4x4xf32>>\n  func.return %0 : !stablehlo.future<tensor<4x4xf32>>\n}\n',
        4, 10, "The type of reduction-region's parameter at index 0 is different than the corresponding result type: "
               "'tensor<f32>' vs 'tensor<4x4xf32>'"),
    # An IsolatedFromAbove op (async_start) is verified after the other ops of the block that holds it.
    "isolated_async_start_verified_after_the_ops_around_it": (
        'func.func @main(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {\n  %0 = "stablehlo.async_start"(%arg0) ({\n'
        '  ^bb0(%barg0: tensor<4x4xf32>):\n    %1 = "stablehlo.abs"(%barg0) : (tensor<4x4xf32>) -> tensor<4x4xf32>\n'
        '    "stablehlo.return"(%1) : (tensor<4x4xf32>) -> ()\n  }) : (tensor<4x4xf32>) -> !stablehlo.future<tensor<4x4xf32>>\n'
        '  %2 = "stablehlo.add"(%arg0, %arg0) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi32>\n'
        '  func.return %arg0 : tensor<4x4xf32>\n}\n',
        7, 8, "op requires the same element type for all operands and results"),
    # An attribute dictionary after the generic form's operands is read as one (not as a region), so its
    # entries meet their ODS constraints: a DenseI64ArrayAttr written as a unit attribute, or as a list.
    "generic_reverse_with_a_unit_dimensions": (
        'func.func @main(%operand: tensor<3x2xi32>) -> tensor<3x2xi32> {\n  %0 = "stablehlo.reverse"(%operand) {\n    dimensions\n'
        '  } : (tensor<3x2xi32>) -> tensor<3x2xi32>\n  func.return %0 : tensor<3x2xi32>\n}\n',
        2, 8, "'stablehlo.reverse' op attribute 'dimensions' failed to satisfy constraint: i64 dense array attribute"),
    "slice_limits_written_as_a_list": (
        'func.func @main(%arg0: tensor<4xf32>) -> tensor<2xf32> {\n  %1 = "stablehlo.slice"(%arg0) {start_indices = array<i64: 0>, '
        'limit_indices = [2], strides = array<i64: 1>} : (tensor<4xf32>) -> tensor<2xf32>\n  return %1 : tensor<2xf32>\n}\n',
        2, 8, "'stablehlo.slice' op attribute 'limit_indices' failed to satisfy constraint: i64 dense array attribute"),
    # chlo.scan's parser reads its body before the ':' and the types: an error inside the body comes first.
    "scan_body_read_before_its_types": (
        '  %0, %1 = chlo.scan (%arg0) inits (%arg1) dimension = 0 attributes {} {\n'
        'func.func @scan(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>) -> tensor<2x3xf32> {\n'
        '  ^bb0(%input0: tensor<3xf32>, %carry0: tensor<3xf32>):\n    %2 = stablehlo.add %input0, %carry0 : tensor<3xf32>\n'
        '    stablehlo.return %2, %2 : tensor<3xf32>, tensor<3xf32>\n'
        '  } : (tensor<2x3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>)\n  func.return %0 : tensor<2x3xf32>\n}\n',
        3, 3, "invalid block name in region with named arguments"),
    # parseReduceOp reports a compact form's wrong inner op at the location it started from (its operands).
    "compact_reduce_of_a_non_commutative_op": (
        'func.func @main(%arg0: tensor<4x4xf32>, %arg1: tensor<f32>) -> tensor<4xf32> {\n  %0 = stablehlo.reduce(%arg0 init: %arg1)\n'
        '    applies stablehlo.subtract across dimensions = [1]\n    : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>\n'
        '  func.return %0 : tensor<4xf32>\n}\n',
        2, 24, "'stablehlo.reduce': expected the inner-op to be a commutative binary-op from the stablehlo dialect, "
               "with zero region, producing single result"),
    # A composite's checks are its verifySymbolUses: MLIR makes them with the module's symbol uses, after
    # every op, so a later op's error comes first.
    "composite_checked_with_the_symbol_uses": (
        'func.func @main(%arg0: tensor<f32>) -> tensor<f32> {\n'
        '  %0 = stablehlo.composite "my.op" %arg0 {decomposition = @missing} : (tensor<f32>) -> tensor<f32>\n'
        '  %1 = "stablehlo.add"(%arg0, %arg0) : (tensor<f32>, tensor<f32>) -> tensor<i32>\n  return %0 : tensor<f32>\n}\n',
        3, 8, "op requires the same element type for all operands and results"),
    # WhileOp::parse reads `%iterArg = %init` with parseOperand: a result number in the argument is allowed.
    "while_argument_with_a_result_number": (
        'func.func @main(%arg0: tensor<i32>) -> tensor<i32> {\n  %0 = stablehlo.while(%x#1 = %arg0) : tensor<i32>\n    cond {\n'
        '    %1 = stablehlo.compare LT, %x#1, %x#1 : (tensor<i32>, tensor<i32>) -> tensor<i1>\n    stablehlo.return %1 : tensor<i1>\n'
        '  } do {\n    stablehlo.return %y : tensor<i32>\n  }\n  return %0 : tensor<i32>\n}\n',
        7, 22, "use of undeclared SSA value name"),
    # An attribute's assembly format wants its keywords in order; parseKeyword reports a missing one at the
    # token there (on the next line), not just after the text before it.
    "dot_algorithm_keyword_out_of_order": (
        'func.func @main(%arg0: tensor<2x2xf32>, %arg1: tensor<2x2xf32>) -> tensor<2x2xf32> {\n'
        '  %0 = "stablehlo.dot_general"(%arg0, %arg1) {\n    dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], '
        'rhs_contracting_dimensions = [0]>,\n    algorithm = #stablehlo.dot_algorithm<\n      rhs_precision_type = f32,\n'
        '      lhs_precision_type = f32,\n      accumulation_type = f32,\n      lhs_component_count = 1,\n'
        '      rhs_component_count = 1,\n      num_primitive_operations = 1,\n      allow_imprecise_accumulation = false\n    >\n'
        '  } : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>\n  func.return %0 : tensor<2x2xf32>\n}\n',
        5, 7, "expected 'lhs_precision_type'"),
    # The inferred-type check of an op with regions comes after its nested ops even where the op has a
    # verifier of its own that runs before them (while, sort, all_reduce): a nested op's error comes first.
    "while_results_checked_after_its_body": (
        'func.func @main(%arg0: tensor<i32>) -> tensor<f32> {\n  %0 = "stablehlo.while"(%arg0) ({\n  ^bb0(%a: tensor<i32>):\n'
        '    %c = "stablehlo.compare"(%a, %a) {comparison_direction = #stablehlo<comparison_direction LT>} : '
        '(tensor<i32>, tensor<i32>) -> tensor<i1>\n    "stablehlo.return"(%c) : (tensor<i1>) -> ()\n  }, {\n  ^bb0(%a: tensor<i32>):\n'
        '    %x = "stablehlo.add"(%a, %a) : (tensor<i32>, tensor<i32>) -> tensor<f32>\n    "stablehlo.return"(%a) : (tensor<i32>) -> ()\n'
        '  }) : (tensor<i32>) -> tensor<f32>\n  func.return %0 : tensor<f32>\n}\n',
        8, 10, "op requires the same element type for all operands and results"),
    "sort_results_checked_after_its_comparator": (
        'func.func @main(%arg0: tensor<4xf32>) -> tensor<4xi32> {\n  %0 = "stablehlo.sort"(%arg0) ({\n'
        '  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n    %x = "stablehlo.add"(%a, %a) : (tensor<f32>, tensor<f32>) -> tensor<i32>\n'
        '    %c = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>} : '
        '(tensor<f32>, tensor<f32>) -> tensor<i1>\n    "stablehlo.return"(%c) : (tensor<i1>) -> ()\n'
        '  }) {dimension = 0 : i64} : (tensor<4xf32>) -> tensor<4xi32>\n  func.return %0 : tensor<4xi32>\n}\n',
        4, 10, "op requires the same element type for all operands and results"),
    "all_reduce_results_checked_after_its_reducer": (
        'func.func @main(%arg0: tensor<4xf32>) -> tensor<4xi32> {\n  %0 = "stablehlo.all_reduce"(%arg0) ({\n'
        '  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n    %x = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<i32>\n'
        '    %y = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n    "stablehlo.return"(%y) : (tensor<f32>) -> ()\n'
        '  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xi32>\n'
        '  func.return %0 : tensor<4xi32>\n}\n',
        4, 10, "op requires the same element type for all operands and results"),
    # A block's missing terminator is found on leaving that block, before the ops of the next region.
    "first_branch_without_a_terminator": (
        'func.func @main(%pred: tensor<i1>, %arg0: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = "stablehlo.if"(%pred) ({\n'
        '    %1 = "stablehlo.abs"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>\n  }, {\n'
        '    %2 = "stablehlo.add"(%arg0, %arg0) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi32>\n'
        '    "stablehlo.return"(%arg0) : (tensor<4xf32>) -> ()\n  }) : (tensor<i1>) -> tensor<4xf32>\n'
        '  func.return %0 : tensor<4xf32>\n}\n',
        3, 10, "block with no terminator, has 'stablehlo.abs'"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_first_error_is_mlirs(name: str) -> None:
    text, line, column, message = CASES[name]
    assert first_error(text) == (line, column, message)


@pytest.mark.parametrize("name", sorted(CASES))
def test_jaxlib_gives_the_same_first_error(name: str) -> None:
    pytest.importorskip("jax", reason="the oracle is jaxlib 0.12 (pip install 'jax==0.12.0.1')")
    text, line, column, message = CASES[name]
    theirs = shared_worker().call("module", text=text, pipeline="")
    assert not theirs.get("ok"), theirs
    theirs_first = theirs["error"].split("\n")[1]
    if message.startswith("'") and "': " in message:  # (a custom op's parse error: MLIR says "custom op 'NAME' ...")
        name, _, rest = message.partition("': ")
        message = f"custom op {name}' {rest}"
    if message.startswith("block with no terminator, has "):  # (MLIR prints the whole op there)
        message = "block with no terminator, has "
    assert f'"-":{line}:{column}: {message}' in theirs_first, theirs["error"]


def test_a_quoted_attribute_name_with_a_dash_is_valid_and_stays_quoted() -> None:
    text = CUSTOM_CALL.replace("DICT", '"a-b" = 1')
    assert first_error(text) is None
    assert '{"a-b" = 1 : i64}' in str(shardy_py.parse(text))
    assert '{"a-b" = 1 : i64}' in shardy_py.print_module(shardy_py.parse(text), generic=True)


SIGNATURE = "func.func @main(\n    %arg0: tensor<8x8xf32> ARG,\n    %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32> RESULT) {\n" \
            "  return %arg0 : tensor<8x8xf32>\n}\n"
BAD_MESH = '{sdy.sharding = #sdy.sharding<mesh<["x"=2], device_ids=[1, 1]>, [{"x"}, {}]>}'
GOOD_MESH = '{sdy.sharding = #sdy.sharding<mesh<["x"=2]>, [{"x"}, {}]>}'

#: name -> (text, line, column): a mesh written inline that MLIR's parser rejects is placed at its '<',
#: in a function's signature too (the message is Shardy's rule, which jaxlib 0.12 words otherwise).
INLINE_MESH_CASES: dict[str, tuple[str, int, int]] = {
    "in_an_argument_attribute": (SIGNATURE.replace("ARG", BAD_MESH).replace("RESULT", GOOD_MESH), 2, 62),
    "in_a_result_attribute": (SIGNATURE.replace("ARG", GOOD_MESH).replace("RESULT", BAD_MESH), 3, 83),
    "second_of_an_ops_shardings": (
        'func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {\n  %0:2 = "stablehlo.optimization_barrier"(%arg0, %arg0) '
        '{sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2]>, [{"x"}, {}]>, <mesh<["x"=2], device_ids=[1, 1]>, [{}, {}]>]>} : '
        '(tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)\n  return %0#0 : tensor<8x8xf32>\n}\n', 2, 133),
}


@pytest.mark.parametrize("name", sorted(INLINE_MESH_CASES))
def test_an_inline_mesh_is_rejected_at_its_bracket(name: str) -> None:
    text, line, column = INLINE_MESH_CASES[name]
    got = first_error(text)
    assert got is not None and got[:2] == (line, column), got
    assert got[2].startswith("device_ids must be a permutation of 0..1"), got


@pytest.mark.parametrize("name", sorted(INLINE_MESH_CASES))
def test_jaxlib_rejects_the_inline_mesh_at_the_same_place(name: str) -> None:
    pytest.importorskip("jax", reason="the oracle is jaxlib 0.12 (pip install 'jax==0.12.0.1')")
    text, line, column = INLINE_MESH_CASES[name]
    theirs = shared_worker().call("module", text=text, pipeline="")
    assert f'"-":{line}:{column}: sorted device ids must be iota(product(axes)), got: 1, 1' in theirs["error"]


WHILE_OPERAND_DEFINED_IN_COND = """func.func @main(%arg0: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.while(%iterArg = %4) : tensor<i32>
    cond {
    %4 = stablehlo.compare  LT, %iterArg, %iterArg : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %4 : tensor<i1>
  } do {
    stablehlo.return %iterArg : tensor<i32>
  }
  return %0 : tensor<i32>
}
"""


def test_while_resolves_its_operands_before_its_regions() -> None:
    # (WhileOp::parse resolves the operands, then reads cond and do: the forward operand %4 is resolved by
    # the definition in cond, whose type differs; our message adds where the use is)
    assert first_error(WHILE_OPERAND_DEFINED_IN_COND) == (
        4, 5, "definition of SSA value '%4#0' has type 'tensor<i1>' (previously used at 2:35 with type 'tensor<i32>')")


def test_jaxlib_resolves_whiles_operands_before_its_regions() -> None:
    pytest.importorskip("jax", reason="the oracle is jaxlib 0.12 (pip install 'jax==0.12.0.1')")
    theirs = shared_worker().call("module", text=WHILE_OPERAND_DEFINED_IN_COND, pipeline="")
    assert "\"-\":4:5: definition of SSA value '%4#0' has type 'tensor<i1>'" in theirs["error"]


def test_a_while_argument_with_a_result_number_is_valid() -> None:
    text = CASES["while_argument_with_a_result_number"][0].replace("%y", "%x#1")
    assert first_error(text) is None
    assert "stablehlo.while(%iterArg = %arg0)" in str(shardy_py.parse(text))

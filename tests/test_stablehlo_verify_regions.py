"""StableHLO's verifiers of ops with regions and windows (reduce, reduce_window, select_and_scatter,
map, sort, while, if, case): MLIR's message at MLIR's line, checked against jaxlib 0.12 too."""
from __future__ import annotations

import pytest
from stablehlo_verify_cases import check, jaxlib, module, ours

import shardy_py

_ADD = """\
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
"""


def _reduce(dims: str, init: str = "tensor<f32>", result: str = "tensor<4xf32>", region: str = _ADD) -> str:
    return module(f"%x: tensor<4x8xf32>, %i: {init}", result, f"""\
        %r = stablehlo.reduce(%x init: %i) across dimensions = [{dims}] : (tensor<4x8xf32>, {init}) -> {result}
          reducer(%a: tensor<f32>, %b: tensor<f32>) {{
            %s = stablehlo.add %a, %b : tensor<f32>
            stablehlo.return %s : tensor<f32>
          }}
        return %r : {result}
        """) if region is _ADD else module(f"%x: tensor<4x8xf32>, %i: {init}", result, f"""\
        %r = "stablehlo.reduce"(%x, %i) ({{
        {region}}}) {{dimensions = array<i64: {dims}>}} : (tensor<4x8xf32>, {init}) -> {result}
        return %r : {result}
        """)


def test_valid_reduce_is_clean() -> None:
    text = _reduce("1")
    assert ours(text) == []
    assert jaxlib(text) == []


@pytest.mark.parametrize(("dims", "message"), [
    ("2", "Out-of-bounds dimension 2, expected to be in range [0, 2)"),
    ("-1", "Out-of-bounds dimension -1, expected to be in range [0, 2)"),
    ("1, 1", "Duplicate reduction dimension: 1"),
])
def test_reduce_dimensions(dims: str, message: str) -> None:
    check(_reduce(dims, result="tensor<4xf32>"), message)


def test_reduce_region_arity() -> None:
    region = """\
  ^bb0(%a: tensor<f32>):
    stablehlo.return %a : tensor<f32>
"""
    check(_reduce("1", region=region), "Reduction-region must take 2 parameters, but takes 1 parameter(s)")


def test_reduce_region_result_type_against_init_value() -> None:
    region = """\
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %a : tensor<i32>
"""
    check(_reduce("1", region=region),
          "The element-type of reduction-region's result type at index 0 is expected to be promotable from the "
          "op's corresponding init-value element-type: 'tensor<i32>' vs 'tensor<f32>'")


def test_reduce_inferred_result_type() -> None:
    check(_reduce("1", result="tensor<8xf32>"),
          "'stablehlo.reduce' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of "
          "operation 'tensor<8xf32>'")


def _reduce_window(attrs: str, result: str = "tensor<2x8xf32>") -> str:
    return module("%x: tensor<4x8xf32>, %i: tensor<f32>", result, f"""\
        %r = "stablehlo.reduce_window"(%x, %i) ({{
        {_ADD}}}) {{{attrs}}} : (tensor<4x8xf32>, tensor<f32>) -> {result}
        return %r : {result}
        """)


def test_valid_reduce_window_is_clean() -> None:
    text = _reduce_window("window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2, 1>")
    assert ours(text) == []
    assert jaxlib(text) == []


@pytest.mark.parametrize(("attrs", "message"), [
    ("window_dimensions = array<i64: 2>",
     "expects window-dimensions size == input rank, but got window-dimensions size: 1 and input: "
     "'tensor<4x8xf32>' with rank = 2."),
    ("window_dimensions = array<i64: 2, 0>",
     "expects window to have positive value for 1-th window dimension, but got 0."),
    ("window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2>",
     "expects window-strides to have same dimension-size as size of window dimensions (2), but got: 1."),
    ("window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 0, 1>",
     "expects window to have positive stride for 0-th window dimension, but got 0."),
    ("window_dimensions = array<i64: 2, 1>, padding = dense<0> : tensor<2x3xi64>",
     "expects the shape of padding-attribute to be {N, 2}, but got {2, 3}."),
    ("window_dimensions = array<i64: 2, 1>, base_dilations = array<i64: 1, 0>",
     "expects window to have positive base dilation factor for 1-th window dimension, but got 0."),
    ("window_dimensions = array<i64: 2, 1>",
     "'stablehlo.reduce_window' op inferred type(s) 'tensor<3x8xf32>' are incompatible with return type(s) of "
     "operation 'tensor<2x8xf32>'"),
])
def test_reduce_window_attributes(attrs: str, message: str) -> None:
    check(_reduce_window(attrs), message)


def _select_and_scatter(source: str, select_args: str = "%a: tensor<f32>, %b: tensor<f32>") -> str:
    return module(f"%x: tensor<4x8xf32>, %src: {source}, %i: tensor<f32>", "tensor<4x8xf32>", f"""\
        %r = "stablehlo.select_and_scatter"(%x, %src, %i) ({{
          ^bb0({select_args}):
            %c = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
            stablehlo.return %c : tensor<i1>
        }}, {{
        {_ADD}}}) {{window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2, 1>}}
          : (tensor<4x8xf32>, {source}, tensor<f32>) -> tensor<4x8xf32>
        return %r : tensor<4x8xf32>
        """)


def test_valid_select_and_scatter_is_clean() -> None:
    text = _select_and_scatter("tensor<2x8xf32>")
    assert ours(text) == []
    assert jaxlib(text) == []


def test_select_and_scatter_source_type() -> None:
    check(_select_and_scatter("tensor<2x4xf32>"),
          "expects source-type to be 'tensor<2x8xf32>', but got'tensor<2x4xf32>'")


def test_select_and_scatter_select_parameters() -> None:
    text = _select_and_scatter("tensor<2x8xf32>", "%a: tensor<f32>, %b: tensor<f32>, %c2: tensor<f32>")
    check(text, "expects the select-region to take 2 parameters, but takes 3")


def _sort(dimension: int, comparator_args: str = "%a: tensor<f32>, %b: tensor<f32>") -> str:
    return module("%x: tensor<4x8xf32>", "tensor<4x8xf32>", f"""\
        %r = "stablehlo.sort"(%x) ({{
          ^bb0({comparator_args}):
            %c = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
            stablehlo.return %c : tensor<i1>
        }}) {{dimension = {dimension} : i64}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
        return %r : tensor<4x8xf32>
        """)


def test_sort_dimension_range() -> None:
    assert ours(_sort(-2)) == []
    check(_sort(2), "dimension attribute value must be in range [-2, 2), but found 2")


def test_sort_comparator_arguments() -> None:
    check(_sort(0, "%a: tensor<f32>, %b: tensor<f32>, %c2: tensor<f32>"), "comparator block should have 2 arguments")


def _while(cond_result: str) -> str:
    return module("%x: tensor<i32>", "tensor<i32>", f"""\
        %r = stablehlo.while(%it = %x) : tensor<i32>
          cond {{
            %c = stablehlo.constant dense<1> : {cond_result}
            stablehlo.return %c : {cond_result}
          }} do {{
            stablehlo.return %it : tensor<i32>
          }}
        return %r : tensor<i32>
        """)


def test_while_condition_returns_a_predicate() -> None:
    assert ours(_while("tensor<i1>")) == []
    check(_while("tensor<i32>"), "expect condition block return a zero-ranked tensor of i1 but got 'tensor<i32>'")


def _if(false_type: str) -> str:
    return module("%p: tensor<i1>, %x: tensor<f32>, %y: tensor<i32>", "tensor<f32>", f"""\
        %r = "stablehlo.if"(%p) ({{
          stablehlo.return %x : tensor<f32>
        }}, {{
          stablehlo.return {'%x' if false_type == 'tensor<f32>' else '%y'} : {false_type}
        }}) : (tensor<i1>) -> tensor<f32>
        return %r : tensor<f32>
        """)


def test_if_branches_return_the_same_types() -> None:
    assert ours(_if("tensor<f32>")) == []
    check(_if("tensor<i32>"), "branch 0 and branch 1 have mismatched return types: 'tensor<f32>' vs 'tensor<i32>'")


def test_case_index_is_a_scalar() -> None:
    text = module("%i: tensor<2xi32>, %x: tensor<f32>", "tensor<f32>", """\
        %r = "stablehlo.case"(%i) ({
          stablehlo.return %x : tensor<f32>
        }) : (tensor<2xi32>) -> tensor<f32>
        return %r : tensor<f32>
        """)
    check(text, "operand should be rank 0 tensor but got rank 1")


def test_map_computation_arity() -> None:
    text = module("%x: tensor<4xf32>, %y: tensor<4xf32>", "tensor<4xf32>", """\
        %r = "stablehlo.map"(%x, %y) ({
          ^bb0(%a: tensor<f32>):
            stablehlo.return %a : tensor<f32>
        }) {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
        return %r : tensor<4xf32>
        """)
    check(text, "expects number of operands to match the arity of map computation, but got: 2 and 1")


def test_an_operand_that_is_never_defined_is_a_parse_error() -> None:
    """An operand whose name is never defined is MLIR's parse error, before any op verifier (jaxlib 0.12:
    'use of undeclared SSA value name' at the use)."""
    text = _reduce("5").replace("(%x init: %i)", "(%nowhere init: %i)")
    with pytest.raises(shardy_py.ParseError, match="use of undeclared SSA value name"):
        shardy_py.parse(text)


def test_sort_results_have_the_operands_types() -> None:
    text = module("%x: tensor<4xf32>", "tensor<4xi32>", """\
        %r = "stablehlo.sort"(%x) ({
          ^bb0(%a: tensor<f32>, %b: tensor<f32>):
            %c = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
            stablehlo.return %c : tensor<i1>
        }) : (tensor<4xf32>) -> tensor<4xi32>
        return %r : tensor<4xi32>
        """)
    check(text, "'stablehlo.sort' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of "
                "operation 'tensor<4xi32>'")


def test_if_results_are_tensors_or_tokens() -> None:
    text = module("%p: tensor<i1>, %b: memref<2xf32>", "memref<2xf32>", """\
        %r = "stablehlo.if"(%p) ({
          "stablehlo.return"(%b) : (memref<2xf32>) -> ()
        }, {
          "stablehlo.return"(%b) : (memref<2xf32>) -> ()
        }) : (tensor<i1>) -> memref<2xf32>
        return %r : memref<2xf32>
        """)
    check(text, "'stablehlo.if' op result #0 must be variadic of ranked tensor of 4/6/8/16/32/64-bit float or bool or "
                "2/4/8/16/32/64-bit integer or complex type with 32/64-bit float elements or per-tensor integer "
                "quantized values or ranked tensor of per-axis integer quantized values or token, but got "
                "'memref<2xf32>'")

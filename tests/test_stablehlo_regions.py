# ruff: noqa: E501  (expected MLIR text is printed on one line, however long; it must be exact)
"""StableHLO's region ops and dimension-number syntax (``dialects.stablehlo_regions``,
``stablehlo_region_directives``, ``stablehlo_conv_directives``): each expected text is jaxlib's
print of the input (pretty or generic), plus a differential run against jaxlib when it is installed."""
from __future__ import annotations

import pytest

import shardy_py
from shardy_py.dialects.stablehlo_conv_directives import canonical_conv_attr


def _print(text: str, generic: bool = False) -> str:
    return shardy_py.print_module(shardy_py.parse(text), generic=generic).rstrip("\n")


WHILE_PRETTY_IN = """func.func @f(%arg0: tensor<i64>, %arg1: tensor<i64>) -> tensor<i64> {
  %0:2 = stablehlo.while(%a = %arg0, %b = %arg1) : tensor<i64>, tensor<i64> attributes {foo = 1 : i64}
  cond {
    %c = stablehlo.compare LT, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %s = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %s, %b : tensor<i64>, tensor<i64>
  }
  return %0#0 : tensor<i64>
}"""

REDUCE_COMPACT_IN = """func.func @f(%x: tensor<4x6xf32>, %i: tensor<f32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce(%x init: %i) applies stablehlo.add across dimensions = [1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}"""

REDUCE_REDUCER_PAIRS_IN = """func.func @f(%x: tensor<4x6xf32>, %y: tensor<4x6xi32>, %i: tensor<f32>, %j: tensor<i32>) -> tensor<4xi32> {
  %1:2 = stablehlo.reduce(%x init: %i), (%y init: %j) across dimensions = [1] : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>)  {
    %m = stablehlo.maximum %a, %c : tensor<f32>
    %n = stablehlo.maximum %b, %d : tensor<i32>
    stablehlo.return %m, %n : tensor<f32>, tensor<i32>
  }
  return %1#1 : tensor<4xi32>
}"""

REDUCE_NOT_COMPACT_IN = """func.func @f(%x: tensor<4x6xf32>, %i: tensor<f32>) -> tensor<4xf32> {
  %2 = "stablehlo.reduce"(%x, %i) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %r = stablehlo.multiply %q, %p : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) {dimensions = array<i64: 1>} : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}"""

CONV_WINDOW_IN = """func.func @f(%arg0: tensor<1x8x8x207xf32>, %arg1: tensor<3x3x207x16xf32>) -> tensor<1x8x8x16xf32> {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [1, 0]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]} : (tensor<1x8x8x207xf32>, tensor<3x3x207x16xf32>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}"""

CONV_RAW_DIMS_PRETTY_IN = """func.func @f(%arg0: tensor<1x8x8x207xf32>, %arg1: tensor<3x3x207x16xf32>) -> tensor<1x8x8x16xf32> {
  %1 = "stablehlo.convolution"(%arg0, %arg1) {batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [2, 1], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, feature_group_count = 1 : i64, padding = dense<[[0, 2], [1, 1]]> : tensor<2x2xi64>} : (tensor<1x8x8x207xf32>, tensor<3x3x207x16xf32>) -> tensor<1x8x8x16xf32>
  return %1 : tensor<1x8x8x16xf32>
}"""

IF_CASE_GENERIC_ONLY_IN = """func.func @f(%p: tensor<i1>, %k: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %x : tensor<4xf32>
  }, {
    %n = stablehlo.negate %x : tensor<4xf32>
    stablehlo.return %n : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  %1 = "stablehlo.case"(%k) ({
    stablehlo.return %0 : tensor<4xf32>
  }, {
    stablehlo.return %x : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}"""

SORT_SCATTER_GATHER_PROPERTIES_IN = """func.func @f(%x: tensor<4xf32>, %idx: tensor<2x1xi32>, %u: tensor<2xf32>) -> tensor<2xf32> {
  %2 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "stablehlo.scatter"(%2, %idx, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<4xf32>
  %4 = "stablehlo.gather"(%3, %idx) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>} : (tensor<4xf32>, tensor<2x1xi32>) -> tensor<2xf32>
  return %4 : tensor<2xf32>
}"""



def test_while_pretty() -> None:
    """while: %iterArg names, types after ':', 'attributes' keyword, cond/do regions."""
    assert _print(WHILE_PRETTY_IN, generic=False) == """module {
  func.func @f(%arg0: tensor<i64>, %arg1: tensor<i64>) -> tensor<i64> {
    %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<i64>, tensor<i64> attributes {foo = 1 : i64}
    cond {
      %1 = stablehlo.compare LT, %iterArg, %iterArg_0 : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1 = stablehlo.add %iterArg, %iterArg_0 : tensor<i64>
      stablehlo.return %1, %iterArg_0 : tensor<i64>, tensor<i64>
    }
    return %0#0 : tensor<i64>
  }
}"""


def test_while_generic() -> None:
    """while in generic form: both regions get their entry block arguments."""
    assert _print(WHILE_PRETTY_IN, generic=True) == """"builtin.module"() ({
  "func.func"() <{function_type = (tensor<i64>, tensor<i64>) -> tensor<i64>, sym_name = "f"}> ({
  ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
    %0:2 = "stablehlo.while"(%arg0, %arg1) ({
    ^bb0(%arg4: tensor<i64>, %arg5: tensor<i64>):
      %2 = "stablehlo.compare"(%arg4, %arg5) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i64>, tensor<i64>) -> tensor<i1>
      "stablehlo.return"(%2) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg2: tensor<i64>, %arg3: tensor<i64>):
      %1 = "stablehlo.add"(%arg2, %arg3) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%1, %arg3) : (tensor<i64>, tensor<i64>) -> ()
    }) {foo = 1 : i64} : (tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    "func.return"(%0#0) : (tensor<i64>) -> ()
  }) : () -> ()
}) : () -> ()"""


WHILE_COND_ARGS_DIFFER = """func.func @f(%arg0: tensor<i64>, %arg1: tensor<f32>) -> tensor<i64> {
  %0:2 = "stablehlo.while"(%arg0, %arg1) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %c = stablehlo.compare LT, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>, %b: tensor<f32>):
    stablehlo.return %a, %b : tensor<i64>, tensor<f32>
  }) : (tensor<i64>, tensor<f32>) -> (tensor<i64>, tensor<f32>)
  return %0#0 : tensor<i64>
}"""


def test_while_whose_cond_arguments_are_not_its_operand_types_prints_generic() -> None:
    """A while whose cond block takes types incompatible with its operands (invalid: the verifier says so) prints
    generic, so the print reads back as the same invalid op; the custom form's one type list dropped the cond's
    types and the print verified clean (found by test_one_line_regions on verify_while.mlir's @while_c1)."""
    module = shardy_py.parse(WHILE_COND_ARGS_DIFFER)
    printed = str(module)
    assert '"stablehlo.while"(%arg0, %arg1) ({\n    ^bb0(%iterArg: tensor<i64>, %iterArg_0: tensor<i64>):' in printed
    message = ("expect operands to be compatible with condition block arguments but got 'tensor<i64>', 'tensor<f32>' "
               "vs 'tensor<i64>', 'tensor<i64>'")
    assert [d.message for d in shardy_py.verify(module)] == [message]
    assert [d.message for d in shardy_py.verify(shardy_py.parse(printed))] == [message]


def test_while_whose_cond_arguments_refine_its_operand_types_prints_custom() -> None:
    """A cond block argument of a compatible type (tensor<?xi64> for tensor<3xi64>: valid) is dropped by the custom
    form, as jaxlib 0.12 prints it."""
    text = WHILE_COND_ARGS_DIFFER.replace("tensor<f32>", "tensor<3xi64>").replace(
        "%b: tensor<i64>):", "%b: tensor<?xi64>):").replace("LT, %a, %b", "LT, %a, %a")
    assert _print(text) == """module {
  func.func @f(%arg0: tensor<i64>, %arg1: tensor<3xi64>) -> tensor<i64> {
    %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<i64>, tensor<3xi64>
    cond {
      %1 = stablehlo.compare LT, %iterArg, %iterArg : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      stablehlo.return %iterArg, %iterArg_0 : tensor<i64>, tensor<3xi64>
    }
    return %0#0 : tensor<i64>
  }
}"""


def test_reduce_compact() -> None:
    """reduce ... applies OP is printed back compact."""
    assert _print(REDUCE_COMPACT_IN, generic=False) == """module {
  func.func @f(%arg0: tensor<4x6xf32>, %arg1: tensor<f32>) -> tensor<4xf32> {
    %0 = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.add across dimensions = [1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}"""


def test_reduce_compact_generic() -> None:
    """the region 'applies OP' implies, in generic form."""
    assert _print(REDUCE_COMPACT_IN, generic=True) == """"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>, sym_name = "f"}> ({
  ^bb0(%arg0: tensor<4x6xf32>, %arg1: tensor<f32>):
    %0 = "stablehlo.reduce"(%arg0, %arg1) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %1 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1) : (tensor<f32>) -> ()
    }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
    "func.return"(%0) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()"""


def test_reduce_reducer_pairs() -> None:
    """reducer(%a, %c) (%b, %d): block arguments stored inputs' first, printed pairwise."""
    assert _print(REDUCE_REDUCER_PAIRS_IN, generic=False) == """module {
  func.func @f(%arg0: tensor<4x6xf32>, %arg1: tensor<4x6xi32>, %arg2: tensor<f32>, %arg3: tensor<i32>) -> tensor<4xi32> {
    %0:2 = stablehlo.reduce(%arg0 init: %arg2), (%arg1 init: %arg3) across dimensions = [1] : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
     reducer(%arg4: tensor<f32>, %arg6: tensor<f32>) (%arg5: tensor<i32>, %arg7: tensor<i32>)  {
      %1 = stablehlo.maximum %arg4, %arg6 : tensor<f32>
      %2 = stablehlo.maximum %arg5, %arg7 : tensor<i32>
      stablehlo.return %1, %2 : tensor<f32>, tensor<i32>
    }
    return %0#1 : tensor<4xi32>
  }
}"""


def test_reduce_reducer_pairs_generic() -> None:
    """the pairwise reducer arguments in their stored order (generic form)."""
    assert _print(REDUCE_REDUCER_PAIRS_IN, generic=True) == """"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> tensor<4xi32>, sym_name = "f"}> ({
  ^bb0(%arg0: tensor<4x6xf32>, %arg1: tensor<4x6xi32>, %arg2: tensor<f32>, %arg3: tensor<i32>):
    %0:2 = "stablehlo.reduce"(%arg0, %arg1, %arg2, %arg3) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<i32>, %arg6: tensor<f32>, %arg7: tensor<i32>):
      %1 = "stablehlo.maximum"(%arg4, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      %2 = "stablehlo.maximum"(%arg5, %arg7) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%1, %2) : (tensor<f32>, tensor<i32>) -> ()
    }) : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
    "func.return"(%0#1) : (tensor<4xi32>) -> ()
  }) : () -> ()
}) : () -> ()"""


def test_reduce_not_compact() -> None:
    """a commutative body that does not forward its arguments in order is printed with its reducer."""
    assert _print(REDUCE_NOT_COMPACT_IN, generic=False) == """module {
  func.func @f(%arg0: tensor<4x6xf32>, %arg1: tensor<f32>) -> tensor<4xf32> {
    %0 = stablehlo.reduce(%arg0 init: %arg1) across dimensions = [1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
     reducer(%arg2: tensor<f32>, %arg3: tensor<f32>)  {
      %1 = stablehlo.multiply %arg3, %arg2 : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }
    return %0 : tensor<4xf32>
  }
}"""


def test_conv_window() -> None:
    """convolution: dimension numbers and window attributes (integers for reverse read as bools)."""
    assert _print(CONV_WINDOW_IN, generic=False) == """module {
  func.func @f(%arg0: tensor<1x8x8x207xf32>, %arg1: tensor<3x3x207x16xf32>) -> tensor<1x8x8x16xf32> {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]} : (tensor<1x8x8x207xf32>, tensor<3x3x207x16xf32>) -> tensor<1x8x8x16xf32>
    return %0 : tensor<1x8x8x16xf32>
  }
}"""


def test_conv_window_generic() -> None:
    """convolution in generic form: splat padding, i1 reversal array, conv attribute."""
    assert _print(CONV_WINDOW_IN, generic=True) == """"builtin.module"() ({
  "func.func"() <{function_type = (tensor<1x8x8x207xf32>, tensor<3x3x207x16xf32>) -> tensor<1x8x8x16xf32>, sym_name = "f"}> ({
  ^bb0(%arg0: tensor<1x8x8x207xf32>, %arg1: tensor<3x3x207x16xf32>):
    %0 = "stablehlo.convolution"(%arg0, %arg1) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: true, false>, window_strides = array<i64: 1, 1>}> : (tensor<1x8x8x207xf32>, tensor<3x3x207x16xf32>) -> tensor<1x8x8x16xf32>
    "func.return"(%0) : (tensor<1x8x8x16xf32>) -> ()
  }) : () -> ()
}) : () -> ()"""


def test_conv_raw_dims_pretty() -> None:
    """a raw-form conv attribute is printed in the dimension-number syntax."""
    assert _print(CONV_RAW_DIMS_PRETTY_IN, generic=False) == """module {
  func.func @f(%arg0: tensor<1x8x8x207xf32>, %arg1: tensor<3x3x207x16xf32>) -> tensor<1x8x8x16xf32> {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 1, 0, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[0, 2], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x207xf32>, tensor<3x3x207x16xf32>) -> tensor<1x8x8x16xf32>
    return %0 : tensor<1x8x8x16xf32>
  }
}"""


def test_if_case_generic_only() -> None:
    """if and case have no custom form: MLIR prints them generic with pretty bodies."""
    assert _print(IF_CASE_GENERIC_ONLY_IN, generic=False) == """module {
  func.func @f(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "stablehlo.if"(%arg0) ({
      stablehlo.return %arg2 : tensor<4xf32>
    }, {
      %2 = stablehlo.negate %arg2 : tensor<4xf32>
      stablehlo.return %2 : tensor<4xf32>
    }) : (tensor<i1>) -> tensor<4xf32>
    %1 = "stablehlo.case"(%arg1) ({
      stablehlo.return %0 : tensor<4xf32>
    }, {
      stablehlo.return %arg2 : tensor<4xf32>
    }) : (tensor<i32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}"""


def test_sort_scatter_gather_properties() -> None:
    """sort/scatter/gather attributes are properties in generic form."""
    assert _print(SORT_SCATTER_GATHER_PROPERTIES_IN, generic=True) == """"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<2xf32>, sym_name = "f"}> ({
  ^bb0(%arg0: tensor<4xf32>, %arg1: tensor<2x1xi32>, %arg2: tensor<2xf32>):
    %0 = "stablehlo.sort"(%arg0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %3 = "stablehlo.compare"(%arg5, %arg6) <{comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%3) : (tensor<i1>) -> ()
    }) : (tensor<4xf32>) -> tensor<4xf32>
    %1 = "stablehlo.scatter"(%0, %arg1, %arg2) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      "stablehlo.return"(%arg4) : (tensor<f32>) -> ()
    }) : (tensor<4xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<4xf32>
    %2 = "stablehlo.gather"(%1, %arg1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>}> : (tensor<4xf32>, tensor<2x1xi32>) -> tensor<2xf32>
    "func.return"(%2) : (tensor<2xf32>) -> ()
  }) : () -> ()
}) : () -> ()"""



def test_reduce_applies_rejects_a_non_commutative_op() -> None:
    """'applies' names a commutative binary op of the stablehlo dialect, as parseReduceOp checks."""
    text = REDUCE_COMPACT_IN.replace("stablehlo.add", "stablehlo.subtract")
    with pytest.raises(Exception, match="commutative binary-op"):
        shardy_py.parse(text)


@pytest.mark.parametrize(("dims", "message"), [
    ("[b, 0, 2, f]x[0, 1, i, o]->[b, 0, 1, f]", "2:70: .*Expected spatial dimensions 1 not specified"),
    ("[b, 0, 1, q]x[0, 1, i, o]->[b, 0, 1, f]", "2:68: .*Unexpected dimension q, expecting f"),
    ("[b, 0, 1]x[0, 1, i, o]->[b, 0, 1, f]", "2:66: .*Expected dimensions f not specified"),
    ("[b, 0, 0, f]x[0, 1, i, o]->[b, 0, 1, f]", "2:65: .*Duplicate entries for spatial dimension 0"),
    ("[b, 0, 1, fx]x[0, 1, i, o]->[b, 0, 1, f]", "2:68: .*Unexpected keyword fx"),
])
def test_conv_dimension_errors(dims: str, message: str) -> None:
    """Malformed dimension numbers fail with jaxlib's message at jaxlib's line:column."""
    text = CONV_WINDOW_IN.replace("[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]", dims, 1)
    with pytest.raises(Exception, match=message):
        shardy_py.parse(text)


def test_window_rejects_a_repeated_keyword() -> None:
    """Each window keyword may appear once (parseWindowAttributes)."""
    text = CONV_WINDOW_IN.replace("lhs_dilate = [1, 1]", "stride = [1, 1]")
    with pytest.raises(Exception, match="Unexpected keyword stride"):
        shardy_py.parse(text)


def test_canonical_conv_attr_from_raw() -> None:
    """The raw struct form of #stablehlo.conv prints in the bracket form."""
    raw = ("#stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, "
           "input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, "
           "kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, "
           "output_feature_dimension = 3, output_spatial_dimensions = [2, 1]>")
    assert canonical_conv_attr(raw) == "#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 1, 0, f]>"


DIFFERENTIAL = [WHILE_PRETTY_IN, REDUCE_COMPACT_IN, REDUCE_REDUCER_PAIRS_IN, REDUCE_NOT_COMPACT_IN, CONV_WINDOW_IN,
                IF_CASE_GENERIC_ONLY_IN, SORT_SCATTER_GATHER_PROPERTIES_IN,
                CONV_WINDOW_IN.replace("pad = [[1, 1], [1, 1]]", "pad = [[0, 2], [1, 1]]")]


@pytest.mark.parametrize("generic", [False, True])
@pytest.mark.parametrize("index", range(len(DIFFERENTIAL)))
def test_differential_against_jaxlib(index: int, generic: bool) -> None:
    """The same texts through jaxlib's MLIR and shardy_py print identically (and back from generic)."""
    mlir = pytest.importorskip("jax._src.interpreters.mlir", reason="jax is not installed: no oracle to compare")
    from jax._src.lib.mlir import ir

    ctx = mlir.make_ir_context()
    ctx.allow_unregistered_dialects = True
    text = DIFFERENTIAL[index]
    want = ir.Module.parse(text, context=ctx).operation.get_asm(print_generic_op_form=generic).rstrip("\n")
    assert _print(text, generic) == want
    if generic:
        assert _print(want) == ir.Module.parse(text, context=ctx).operation.get_asm().rstrip("\n")

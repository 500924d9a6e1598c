"""Verifier rules B9-B33, C4-C7: tensor shardings on op results and func arguments/results."""
from __future__ import annotations

import pytest
from verify_helpers import diagnostics, errors

HEAD = 'sdy.mesh @mesh = <["a"=2, "b"=4, "c"=8]>\nsdy.mesh @maximal = <[], device_ids=[0]>\n'


def on_op(sharding: str, t: str = "tensor<8x8xf32>") -> str:
    """``sharding`` on an op of type ``t``: ``stablehlo.abs`` for tensors, an op of a dialect we do not model for
    the types abs does not take (tokens, tuples), so that only the sharding is judged."""
    op = (f"stablehlo.abs %arg0 {{sdy.sharding = #sdy.sharding_per_value<[{sharding}]>}} : {t}"
          if t.startswith("tensor<") else
          f'"test.identity"(%arg0) {{sdy.sharding = #sdy.sharding_per_value<[{sharding}]>}} : ({t}) -> {t}')
    return HEAD + f"func.func @f(%arg0: {t}) -> {t} {{\n  %0 = {op}\n  return %0 : {t}\n}}"


@pytest.mark.parametrize("sharding", [
    '<@mesh, [{"a"}, {"b", ?}p1], replicated={"c"}>',
    '<@maximal, []>',
    '<@mesh, [{"c":(1)2}, {"c":(4)2}]>',
    '<mesh<[]>, [{}, {?}]>',
    '<@mesh, [{}, {}], replicated={"c":(1)2, "c":(4)2}>',
    '<@mesh, [{"a", ?}p0, {?}p3], unreduced=max{"b"}>',
])
def test_valid_shardings(sharding):
    assert errors(on_op(sharding)) == []


P = "4: 'stablehlo.abs' op result: "
#: The prefix for the types stablehlo.abs does not take (on_op puts them on an op of an unmodelled dialect).
P_OTHER = "4: 'test.identity' op result: "


@pytest.mark.parametrize("sharding, want", [
    ('<@mesh, [{"a"}]>', "sharding has 1 dimension sharding(s) but the tensor 'tensor<8x8xf32>' has rank 2"),
    ('<@nomesh, [{}, {}]>', "sharding refers to mesh @nomesh, which is not defined by any sdy.mesh in the module"),
    ('<@mesh, [{"d"}, {}]>', 'axis "d" in dim 0 is not an axis of the mesh (mesh axes: "a", "b", "c")'),
    ('<@mesh, [{"a"}, {"a"}]>', 'axis "a" in dim 1 is used more than once; each axis ref may appear only once per sharding'),  # noqa: E501
    ('<@mesh, [{}, {}], replicated={"b", "a"}>', 'replicated axes ["b", "a"] must be sorted in mesh axis order ("a", "b", "c")'),  # noqa: E501
    ('<@mesh, [{}, {}], unreduced={"c", "a"}>', 'unreduced axes ["c", "a"] must be sorted in mesh axis order ("a", "b", "c")'),  # noqa: E501
    ('<@mesh, [{"c":(1)2, "c":(2)2}, {}]>',
     'adjacent sub-axes "c":(1)2, "c":(2)2 in dim 0 can be merged into one; write the merged (sub-)axis instead'),
    ('<@mesh, [{"c":(1)2}, {"c"}]>', 'axis "c" is used both as a full axis and through a sub-axis; use one or the other'),  # noqa: E501
    ('<@mesh, [{"c":(0)2}, {}]>', 'sub-axis "c":(0)2 has pre-size 0; the pre-size must be at least 1'),
    ('<@mesh, [{"c":(2)1}, {}]>', 'sub-axis "c":(2)1 has size 1; a sub-axis must have size greater than 1'),
    ('<@mesh, [{"c":(3)2}, {}]>', 'sub-axis "c":(3)2 does not fit axis "c" of size 8: pre-size*size = 6 must divide 8'),
    ('<@mesh, [{"c":(1)8}, {}]>', 'sub-axis "c":(1)8 spans all of axis "c" (size 8); write "c" instead'),
    ('<@mesh, [{"c":(1)4}, {"c":(2)2}]>', 'sub-axes "c":(1)4 and "c":(2)2 overlap'),
    ('<@mesh, [{}p0, {}]>',
     "dim 0 is closed and has no axes, so it cannot have a priority (p0); drop the priority or open the dimension with '?'"),  # noqa: E501
    ('<@maximal, [{}, {}]>', "a sharding on a maximal mesh must have no dimension shardings and no replicated or "
                             "unreduced axes, got 2 dimension sharding(s)"),
])
def test_invalid_shardings(sharding, want):
    assert errors(on_op(sharding)) == [P + want]


def test_non_shaped_and_unranked_types():
    assert errors(on_op("<@mesh, []>", "!stablehlo.token")) == []
    assert errors(on_op("<@mesh, [{}]>", "!stablehlo.token")) == [
        P_OTHER + "type '!stablehlo.token' is not a shaped type, so its sharding must be rank 0 with no replicated or "
            "unreduced axes; got #sdy.sharding<@mesh, [{}]>"]
    assert errors(on_op("<@mesh, [{}]>", "tensor<*xf32>")) == [
        P + "type 'tensor<*xf32>' is unranked; only ranked tensors can carry a sharding"]
    assert errors(on_op('<@mesh, [{"a"}, {}]>', "tensor<?x?xf32>")) == []


def test_sharding_count_and_attribute_kind():
    text = HEAD + """func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}]>]>} : tensor<8xf32>
  %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding<@mesh, [{}]>} : tensor<8xf32>
  return %1 : tensor<8xf32>
}"""
    assert errors(text) == [
        "4: 'stablehlo.abs' op result shardings: expected one sharding per value, got 2 sharding(s) for 1 value(s)",
        "5: 'stablehlo.abs' op attribute 'sdy.sharding' must be a #sdy.sharding_per_value, got TensorSharding",
    ]


def test_zero_result_special_case():
    def call(s):
        return HEAD + ('func.func @f(%arg0: tensor<8xf32>) {\n'
                       f'  stablehlo.custom_call @x(%arg0) {{sdy.sharding = #sdy.sharding_per_value<[{s}]>}}'
                       ' : (tensor<8xf32>) -> ()\n  return\n}')
    assert errors(call("<@mesh, []>")) == []
    assert errors(call("<@maximal, []>")) == []
    assert errors(call("<@mesh, [{}]>")) == [
        "4: 'stablehlo.custom_call' op result 0: a sharding on no value must have no dimension shardings and no "
        "replicated or unreduced axes, got 1 dimension sharding(s)"]
    assert errors(call('<@mesh, [{"a"}]>')) == [
        "4: 'stablehlo.custom_call' op result shardings: expected one sharding per value, got 1 sharding(s) for 0 "
        "value(s)"]


def test_func_arg_and_result_shardings():
    text = HEAD + """func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>},
             %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
func.func @g(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"q"}]>}) {
  return %arg0 : tensor<8xf32>
}"""
    assert errors(text) == [
        "3: 'func.func' op arg 1: attribute 'sdy.sharding' on a function arg must be a #sdy.sharding, got "
        "TensorShardingPerValue",
        "7: 'func.func' op result 0: axis \"q\" in dim 0 is not an axis of the mesh (mesh axes: \"a\", \"b\", \"c\")",
    ]


def test_tuple_types():
    assert errors(on_op('<@mesh, [{"a"}]>', "tuple<tensor<8xf32>>")) == []
    assert errors(on_op('<@mesh, [{"a"}]>', "tuple<tensor<8xf32>, tensor<8xf32>>")) == [
        P_OTHER + "a sharding can only describe a tuple with exactly one element, got "
            "'tuple<tensor<8xf32>, tensor<8xf32>>' with 2"]


def test_axis_bound_by_enclosing_manual_computation():
    text = HEAD + """func.func @f(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"c"}]>] out_shardings=[<@mesh, [{"c"}]>] manual_axes={"c"} (%arg1: tensor<2xf32>) {
    %1 = stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"c":(1)2}]>]>} : tensor<2xf32>
    sdy.return %1 : tensor<2xf32>
  } : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}"""  # noqa: E501
    [d] = diagnostics(text)
    assert (d.line, d.message) == (5, "'stablehlo.abs' op result: axis \"c\" is already manual in an enclosing "
                                      "sdy.manual_computation and cannot be used here")
    assert d.notes == ((4, 3, 'enclosing sdy.manual_computation making axis "c" manual'),)

"""Verifier rules C14-C30: sdy.manual_computation and sdy.named_computation."""
from __future__ import annotations

from verify_helpers import diagnostics, errors

HEAD = 'sdy.mesh @mesh = <["a"=2, "b"=2]>\n'


def mc(ins: str, outs: str, manual: str, local: str = "tensor<8x32xf32>",
       body: str = "%1 = stablehlo.abs %arg1 : {L}") -> str:
    body = body.replace("{L}", local)
    head = f"sdy.manual_computation(%arg0) in_shardings=[{ins}] out_shardings=[{outs}] manual_axes={manual}"
    return HEAD + f"""func.func @f(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {{
  %0 = {head} (%arg1: {local}) {{
    {body}
    sdy.return %1 : {local}
  }} : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}}"""


A = '<@mesh, [{"a"}, {}]>'
MC = "3: 'sdy.manual_computation' op "


def test_valid_manual_computation():
    assert errors(mc(A, A, '{"a"}')) == []
    assert errors(mc('<@mesh, [{}, {}]>', '<@mesh, [{}, {}]>', "{}", local="tensor<16x32xf32>")) == []


def test_local_type_must_match():
    assert errors(mc(A, A, '{"a"}', local="tensor<16x32xf32>")) == [
        MC + "operand 0: global type 'tensor<16x32xf32>' sharded on the manual axes gives local type "
             "'tensor<8x32xf32>', but the region operand has type 'tensor<16x32xf32>'"]
    assert errors(mc(A, '<mesh<["a"=4]>, [{"a"}, {}]>', '{"a"}')) == [
        MC + "result 0: global type 'tensor<16x32xf32>' sharded on the manual axes gives local type "
             "'tensor<4x32xf32>', but the region result has type 'tensor<8x32xf32>'"]


def test_manual_axes_first_known_and_common_mesh():
    assert errors(mc('<@mesh, [{"b", "a"}, {}]>', A, '{"a"}')) == [
        MC + 'operand 0 sharding, dim 0: manual axis "a" comes after free axis "b"; manual axes must come first']
    assert errors(mc(A, A, '{"a", "c"}')) == [MC + 'manual axis "c" is not an axis of the mesh of its shardings']
    assert errors(mc(A, '<mesh<["a"=2]>, [{"a"}, {}]>', '{"a"}')) == [
        MC + "has manual axes, so its in and out shardings must all use the same mesh (or an empty mesh)"]


def test_isolated_from_above():
    # (a use of the outer value with the body's local type would be MLIR's parse error: its type differs)
    [d] = diagnostics(mc(A, A, '{"a"}', body="%2 = stablehlo.abs %arg0 : tensor<16x32xf32>\n"
                                          "    %1 = stablehlo.abs %arg1 : {L}"))
    assert (d.line, d.message) == (4, "'stablehlo.abs' op uses %arg0, which is defined outside the isolated body of "
                                      "'sdy.manual_computation'; pass it in as an operand instead")
    assert [(n[0], n[2]) for n in d.notes] == [(3, "'sdy.manual_computation' is isolated from above")]


def test_manual_axes_bound_in_body():
    body = '%1 = stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : {L}'
    assert errors(mc(A, A, '{"a"}', body=body)) == [
        "4: 'stablehlo.abs' op result: axis \"a\" is already manual in an enclosing sdy.manual_computation and cannot "
        "be used here"]
    nested = HEAD + """func.func @f(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<8x32xf32>) {
    %1 = sdy.manual_computation(%arg1) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg2: tensor<4x32xf32>) {
      sdy.return %arg2 : tensor<4x32xf32>
    } : (tensor<8x32xf32>) -> tensor<8x32xf32>
    sdy.return %1 : tensor<8x32xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}"""  # noqa: E501
    assert errors(nested) == ["4: 'sdy.manual_computation' op axis \"a\" is already manual in an enclosing "
                              "sdy.manual_computation and cannot be used here"]


def nc(args: str = "(%arg1: tensor<8x2xi32>)", ret: str = "%arg1 : tensor<8x2xi32>", extra: str = "") -> str:
    return HEAD + f"""func.func @f(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {{
  %0 = sdy.named_computation<"foo">(%arg0) {extra}{args} {{
    sdy.return {ret}
  }} : (tensor<8x2xi32>) -> tensor<8x2xi32>
  return %0 : tensor<8x2xi32>
}}"""


def test_named_computation():
    assert errors(nc()) == []
    assert errors(nc(extra='in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{}, {"b"}]>] ')) == []
    assert errors(nc(args="(%arg1: tensor<4x2xi32>)", ret="%arg1 : tensor<4x2xi32>")) == [
        "3: 'sdy.named_computation' op returns (tensor<4x2xi32>) from its body but declares result type(s) "
        "(tensor<8x2xi32>)"]
    assert errors(nc(args="(%arg1: tensor<8x2xi32>, %arg2: tensor<8x2xi32>)")) == [
        "3: sdy.named_computation body has 2 argument(s) but the op has 1 operand(s); they must match"]
    assert errors(nc(extra='in_shardings=[<@mesh, [{"a"}]>] ')) == [
        "3: 'sdy.named_computation' op in_shardings: sharding has 1 dimension sharding(s) but the tensor "
        "'tensor<8x2xi32>' has rank 2"]
    assert errors(nc(extra='out_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, [{}, {}]>] ')) == [
        "3: 'sdy.named_computation' op out_shardings shardings: expected one sharding per value, got 2 sharding(s) "
        "for 1 value(s)"]

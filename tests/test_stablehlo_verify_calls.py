"""StableHLO's verifiers of custom_call, composite, batch norm, infeed/send/recv and the async ops:
MLIR's message at MLIR's line, checked against jaxlib 0.12 too."""
from __future__ import annotations

import pytest
from stablehlo_verify_cases import check, jaxlib, module, ours


def _custom_call(attrs: str, types: str = "(tensor<2x3xf32>) -> tensor<2x3xf32>") -> str:
    return module("%x: tensor<2x3xf32>", "tensor<2x3xf32>", f"""\
        %r = "stablehlo.custom_call"(%x) {{call_target_name = "foo"{attrs}}} : {types}
        return %r : tensor<2x3xf32>
        """)


def test_custom_call_without_layouts_is_clean() -> None:
    assert ours(_custom_call("")) == []


@pytest.mark.parametrize(("attrs", "message"), [
    (", operand_layouts = [dense<[1, 0]> : tensor<2xindex>]",
     "'stablehlo.custom_call' op Layout attributes should be specified for either both operands and results or none."),
    (", operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[0, 1, 2]> : tensor<3xindex>]",
     "'stablehlo.custom_call' op incorrect layout dense<[0, 1, 2]> : tensor<3xindex> for type 'tensor<2x3xf32>', "
     "layout must be a permutation of [0, 2)"),
    (", output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, "
     "operand_tuple_indices = []>]",
     "'stablehlo.custom_call' op expects operandIndex in the output_operand_alias attribute to be in range [0, 1); "
     "got: 1."),
    (", api_version = 4 : i32, backend_config = \"cfg\"",
     "'stablehlo.custom_call' op backend_config for api_version API_VERSION_TYPED_FFI must be a dictionary "
     "attribute."),
])
def test_custom_call_rules(attrs: str, message: str) -> None:
    check(_custom_call(attrs), message)


def _composite(name: str, decomposition_type: str = "tensor<f32>") -> str:
    return (f"func.func @f(%x: tensor<f32>) -> tensor<f32> {{\n"
            f"  %r = stablehlo.composite \"{name}\" %x {{decomposition = @g}} : (tensor<f32>) -> tensor<f32>\n"
            f"  return %r : tensor<f32>\n}}\n"
            f"func.func @g(%x: {decomposition_type}) -> {decomposition_type} {{\n"
            f"  return %x : {decomposition_type}\n}}\n")


def test_composite_name_and_decomposition() -> None:
    assert ours(_composite("my.op")) == []
    check(_composite("myop"), "name must be a valid namespaced op name, i.e. it must match the following regular "
                              "expression: ^[a-zA-Z][a-zA-Z0-9_]*([.][a-zA-Z0-9_$]+)+$ e.g. \"my_namespace.my_op\"")
    check(_composite("my.op", "tensor<f64>"),
          "operand at index 0 has type 'tensor<f32>', but decomposition has type 'tensor<f64>'")


def _batch_norm(feature_index: int, scale: str = "tensor<3xf32>") -> str:
    return module(f"%x: tensor<2x3xf32>, %s: {scale}, %o: {scale}", "tensor<2x3xf32>", f"""\
        %r:3 = "stablehlo.batch_norm_training"(%x, %s, %o)
          {{epsilon = 1.0e-3 : f32, feature_index = {feature_index} : i64}}
          : (tensor<2x3xf32>, {scale}, {scale}) -> (tensor<2x3xf32>, {scale}, {scale})
        return %r#0 : tensor<2x3xf32>
        """)


def test_batch_norm_feature_index() -> None:
    assert ours(_batch_norm(1)) == []
    check(_batch_norm(2), "expects featureIndex to be smaller than the rank of multi-dimensional operands; got "
                          "featureIndex 2, and rank 2.")
    check(_batch_norm(0, "tensor<3xf32>"),
          "expects the size of single-dimensional operands to be compatible with feature count, but the size of "
          "single-dimensional operands is 3 and the feature count is 2.")


def test_infeed_results_end_with_a_token() -> None:
    text = module("%t: !stablehlo.token", "tensor<i32>", """\
        %r:2 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (!stablehlo.token, tensor<i32>)
        return %r#1 : tensor<i32>
        """)
    check(text, "all elements of result types, except the last element, are expected to be of tensor type, but got "
                "'!stablehlo.token'")


def test_recv_channel_type() -> None:
    text = module("%t: !stablehlo.token", "tensor<i32>", """\
        %r:2 = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>}
          : (!stablehlo.token) -> (tensor<i32>, !stablehlo.token)
        return %r#0 : tensor<i32>
        """)
    check(text, "channel_type should be DEVICE_TO_DEVICE when is_host_transfer is false")


def _async(body: str, value: str = "tensor<8x4xf32>") -> str:
    return module("%x: tensor<4x4xf32>", value, f"""\
        %f = "stablehlo.async_start"(%x) ({{
          ^bb0(%a: tensor<4x4xf32>):
            {body}
        }}) : (tensor<4x4xf32>) -> !stablehlo.future<{value}>
        %r = "stablehlo.async_done"(%f) : (!stablehlo.future<{value}>) -> {value}
        return %r : {value}
        """)


_GATHER = """%g = "stablehlo.all_gather"(%a) {all_gather_dim = 0 : i64,
              replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x4xf32>) -> tensor<8x4xf32>
            stablehlo.return %g : tensor<8x4xf32>"""


def test_async_start_wraps_one_collective() -> None:
    assert ours(_async(_GATHER)) == []
    check(_async("stablehlo.return %a : tensor<4x4xf32>", "tensor<4x4xf32>"),
          "'stablehlo.async_start' op region must contain exactly one operation and a return")


def test_optimization_barrier_operand_and_type_counts() -> None:
    """MLIR's resolveOperands: one type per operand (jaxlib reports it on the same line, at the operands)."""
    import shardy_py
    from shardy_py.errors import ParseError

    text = module("%x: tensor<2xf32>", "tensor<2xf32>", """\
        %r = stablehlo.optimization_barrier %x, %x : tensor<2xf32>
        return %r : tensor<2xf32>
        """)
    with pytest.raises(ParseError) as e:
        shardy_py.parse(text)
    assert (e.value.line, e.value.message) == (
        2, "custom op 'stablehlo.optimization_barrier' number of operands and types do not match: got 2 operands "
           "and 1 types")
    assert [(line, m) for line, m in jaxlib(text)] == [(2, e.value.message)]


@pytest.mark.parametrize(("op", "result", "message"), [
    ("replica_id", "tensor<i32>", "'stablehlo.replica_id' op result #0 must be ranked tensor of 32-bit unsigned "
                                  "integer values, but got 'tensor<i32>'"),
    ("partition_id", "tensor<2xui32>", "'stablehlo.partition_id' op inferred type(s) 'tensor<ui32>' are incompatible "
                                       "with return type(s) of operation 'tensor<2xui32>'"),
    ("create_token", "tensor<f32>", "'stablehlo.create_token' op result #0 must be token, but got 'tensor<f32>'"),
])
def test_fixed_result_types(op: str, result: str, message: str) -> None:
    check(module("", result, f"""\
        %r = stablehlo.{op} : {result}
        return %r : {result}
        """), message)

# ruff: noqa: E501  (expected MLIR text is printed on one line, however long; it must be exact)
"""StableHLO's collective/async/communication ops, CHLO's ops and func's call ops: source text ->
exact pretty and generic prints (the expected texts are jaxlib's prints of the same sources), and
a differential test against jaxlib's MLIR when jax is installed."""
from __future__ import annotations

import pytest

import shardy_py


def module(body: str, sig: str) -> str:
    """A module with one function ``@f`` of signature ``sig`` and body ``body`` (one op a line)."""
    lines = "".join(f"    {ln}\n" for ln in body.strip("\n").splitlines())
    return f"module {{\n  func.func @f{sig} {{\n{lines}  }}\n}}\n"


def pretty(text: str) -> str:
    return str(shardy_py.parse(text))


def generic(text: str) -> str:
    return shardy_py.print_module(shardy_py.parse(text), generic=True)


def generic_func(ops: str, sig_types: str, args: str) -> str:
    """jaxlib's generic print of a module holding function ``@f`` whose body is ``ops``."""
    body = "".join(f"    {ln}\n" for ln in ops.strip("\n").splitlines())
    return ('"builtin.module"() ({\n'
            f'  "func.func"() <{{function_type = {sig_types}, sym_name = "f"}}> ({{\n'
            f"  ^bb0({args}):\n{body}"
            "  }) : () -> ()\n"
            "}) : () -> ()\n")


_SIG = "(%arg0: tensor<8x2xf32>, %arg1: !stablehlo.token)"

# ---- collectives: generic form only; the attributes the ODS lists are properties ------------------------------


def test_all_gather_attributes_become_properties_sorted():
    src = module('%0 = "stablehlo.all_gather"(%arg0) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, all_gather_dim = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<8x2xf32>) -> tensor<8x4xf32>\nreturn', _SIG)
    assert pretty(src) == module('%0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<8x2xf32>) -> tensor<8x4xf32>\nreturn', _SIG)


def test_all_reduce_region_and_discardable_attribute():
    src = module("""
%0 = "stablehlo.all_reduce"(%arg0) ({
^bb0(%x: tensor<f32>, %y: tensor<f32>):
  %s = stablehlo.add %x, %y : tensor<f32>
  stablehlo.return %s : tensor<f32>
}) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, foo = 1 : i32} : (tensor<8x2xf32>) -> tensor<8x2xf32>
return
""", _SIG)
    assert pretty(src) == module("""
%0 = "stablehlo.all_reduce"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
  %1 = stablehlo.add %arg2, %arg3 : tensor<f32>
  stablehlo.return %1 : tensor<f32>
}) {foo = 1 : i32} : (tensor<8x2xf32>) -> tensor<8x2xf32>
return
""", _SIG)


def test_all_to_all_and_collective_permute_generic():
    ops = """
%0 = "stablehlo.all_to_all"(%arg0) {split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x2xf32>) -> tensor<4x4xf32>
%1 = "stablehlo.collective_permute"(%arg0) {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>} : (tensor<8x2xf32>) -> tensor<8x2xf32>
return
"""
    assert generic(module(ops, _SIG)) == generic_func("""
%0 = "stablehlo.all_to_all"(%arg0) <{concat_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64}> : (tensor<8x2xf32>) -> tensor<4x4xf32>
%1 = "stablehlo.collective_permute"(%arg0) <{source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<8x2xf32>) -> tensor<8x2xf32>
"func.return"() : () -> ()
""", "(tensor<8x2xf32>, !stablehlo.token) -> ()", "%arg0: tensor<8x2xf32>, %arg1: !stablehlo.token")


def test_cross_replica_sum_is_declared():
    src = module('%0 = "stablehlo.cross-replica-sum"(%arg0) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x2xf32>) -> tensor<8x2xf32>\nreturn', _SIG)
    assert pretty(src) == module('%0 = "stablehlo.cross-replica-sum"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<8x2xf32>) -> tensor<8x2xf32>\nreturn', _SIG)


def test_outfeed_config_materialized_and_send_defaults():
    src = module("""
%0 = "stablehlo.outfeed"(%arg0, %arg1) : (tensor<8x2xf32>, !stablehlo.token) -> !stablehlo.token
%1 = "stablehlo.send"(%arg0, %arg1) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>} : (tensor<8x2xf32>, !stablehlo.token) -> !stablehlo.token
return
""", _SIG)
    assert pretty(src) == module("""
%0 = "stablehlo.outfeed"(%arg0, %arg1) <{outfeed_config = ""}> : (tensor<8x2xf32>, !stablehlo.token) -> !stablehlo.token
%1 = "stablehlo.send"(%arg0, %arg1) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>}> : (tensor<8x2xf32>, !stablehlo.token) -> !stablehlo.token
return
""", _SIG)


def test_infeed_and_recv_results():
    src = module("""
%0:2 = "stablehlo.infeed"(%arg1) {layout = [[0, 1]]} : (!stablehlo.token) -> (tensor<3x3xi32>, !stablehlo.token)
%1:2 = "stablehlo.recv"(%arg1) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 3>, is_host_transfer = true} : (!stablehlo.token) -> (tensor<3x4xi32>, !stablehlo.token)
return
""", _SIG)
    assert pretty(src) == module("""
%0:2 = "stablehlo.infeed"(%arg1) <{infeed_config = "", layout = [[0, 1]]}> : (!stablehlo.token) -> (tensor<3x3xi32>, !stablehlo.token)
%1:2 = "stablehlo.recv"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 3>, is_host_transfer = true}> : (!stablehlo.token) -> (tensor<3x4xi32>, !stablehlo.token)
return
""", _SIG)


def test_async_start_and_done():
    src = module("""
%0 = "stablehlo.async_start"(%arg0) ({
^bb0(%b: tensor<8x2xf32>):
  %r = "stablehlo.all_gather"(%b) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x2xf32>) -> tensor<8x4xf32>
  "stablehlo.return"(%r) : (tensor<8x4xf32>) -> ()
}) : (tensor<8x2xf32>) -> !stablehlo.future<tensor<8x4xf32>>
%1 = "stablehlo.async_done"(%0) : (!stablehlo.future<tensor<8x4xf32>>) -> tensor<8x4xf32>
return
""", _SIG)
    assert pretty(src) == module("""
%0 = "stablehlo.async_start"(%arg0) ({
^bb0(%arg2: tensor<8x2xf32>):
  %2 = "stablehlo.all_gather"(%arg2) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<8x2xf32>) -> tensor<8x4xf32>
  stablehlo.return %2 : tensor<8x4xf32>
}) : (tensor<8x2xf32>) -> !stablehlo.future<tensor<8x4xf32>>
%1 = "stablehlo.async_done"(%0) : (!stablehlo.future<tensor<8x4xf32>>) -> tensor<8x4xf32>
return
""", _SIG)


# ---- CHLO ------------------------------------------------------------------------------------------------------

_CSIG = "(%arg0: tensor<4xf32>, %arg1: tensor<2x4xf32>)"


def test_chlo_broadcast_binary_pretty_from_generic():
    src = module('%0 = "chlo.broadcast_add"(%arg0, %arg1) {broadcast_dimensions = array<i64: 1>, aaa = 1 : i32} : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>\nreturn', _CSIG)
    assert pretty(src) == module("%0 = chlo.broadcast_add %arg0, %arg1 {aaa = 1 : i32, broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>\nreturn", _CSIG)


def test_chlo_broadcast_binary_generic_splits_property():
    src = module("%0 = chlo.broadcast_multiply %arg0, %arg1 {broadcast_dimensions = array<i64: 1>, aaa = 1 : i32} : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>\nreturn", _CSIG)
    assert generic(src) == generic_func(
        '%0 = "chlo.broadcast_multiply"(%arg0, %arg1) <{broadcast_dimensions = array<i64: 1>}> {aaa = 1 : i32} : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>\n"func.return"() : () -> ()',
        "(tensor<4xf32>, tensor<2x4xf32>) -> ()", "%arg0: tensor<4xf32>, %arg1: tensor<2x4xf32>")


def test_chlo_broadcast_compare_enum_attributes():
    src = module("%0 = chlo.broadcast_compare %arg0, %arg1 {comparison_direction = #chlo<comparison_direction GE>, broadcast_dimensions = array<i64: 1>, compare_type = #chlo<comparison_type TOTALORDER>} : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>\nreturn", _CSIG)
    assert pretty(src) == module("%0 = chlo.broadcast_compare %arg0, %arg1 {broadcast_dimensions = array<i64: 1>, compare_type = #chlo<comparison_type TOTALORDER>, comparison_direction = #chlo<comparison_direction GE>} : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>\nreturn", _CSIG)


def test_chlo_unary_and_asin_acos_kernel():
    sig = "(%arg0: tensor<4xf32>, %arg1: tensor<4xcomplex<f32>>)"
    src = module('%0 = chlo.erf_inv %arg0 : tensor<4xf32> -> tensor<4xf32>\n%1 = "chlo._asin_acos_kernel"(%arg1) : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>\n%2 = chlo.is_inf %arg0 : tensor<4xf32> -> tensor<4xi1>\nreturn', sig)
    assert pretty(src) == module("%0 = chlo.erf_inv %arg0 : tensor<4xf32> -> tensor<4xf32>\n%1 = chlo._asin_acos_kernel %arg1 : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>\n%2 = chlo.is_inf %arg0 : tensor<4xf32> -> tensor<4xi1>\nreturn", sig)


def test_chlo_constant_result_type_from_value():
    src = module("%0 = chlo.constant dense<[1, 2]> : tensor<2xi32>\n%1 = chlo.constant {foo} dense<1.0> : tensor<f32>\nreturn", "()")
    assert pretty(src) == module("%0 = chlo.constant dense<[1, 2]> : tensor<2xi32>\n%1 = chlo.constant {foo} dense<1.000000e+00> : tensor<f32>\nreturn", "()")
    assert '%0 = "chlo.constant"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>' in generic(src)


def test_chlo_top_k_named_results():
    src = module("%0:2 = chlo.top_k(%arg1, k=3) : tensor<2x4xf32> -> (tensor<2x3xf32>, tensor<2x3xi32>)\nreturn", _CSIG)
    assert pretty(src) == module("%values, %indices = chlo.top_k(%arg1, k = 3) : tensor<2x4xf32> -> (tensor<2x3xf32>, tensor<2x3xi32>)\nreturn", _CSIG)


def test_chlo_ragged_dot_leaves_out_empty_dimension_lists():
    sig = "(%arg0: tensor<2x11x5xf32>, %arg1: tensor<2x5x7xf32>, %arg2: tensor<3xi64>)"
    src = module('%0 = "chlo.ragged_dot"(%arg0, %arg1, %arg2) {ragged_dot_dimension_numbers = #chlo.ragged_dot<\n  lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2],\n  rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [2], rhs_group_dimensions = []\n>} : (tensor<2x11x5xf32>, tensor<2x5x7xf32>, tensor<3xi64>) -> tensor<3x2x11x7xf32>\nreturn', sig)
    assert pretty(src) == module('%0 = "chlo.ragged_dot"(%arg0, %arg1, %arg2) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [2]>}> : (tensor<2x11x5xf32>, tensor<2x5x7xf32>, tensor<3xi64>) -> tensor<3x2x11x7xf32>\nreturn', sig)


# ---- func ------------------------------------------------------------------------------------------------------

_CALLEE = "  func.func private @g(tensor<4xf32>) -> tensor<4xf32>\n"


def test_func_call_prints_without_dialect_in_a_body():
    """``no_inline`` is inherent: jaxlib 0.12 prints it in func.call's ``prop-dict`` (``call @g(%arg0)
    <no_inline>``); jaxlib 0.10.2 printed ``{no_inline}``."""
    src = _CALLEE + 'func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = "func.call"(%a) {callee = @g, no_inline} : (tensor<4xf32>) -> tensor<4xf32>\n  %1 = func.call @g(%0) {foo = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>\n  return %1 : tensor<4xf32>\n}'
    assert pretty(src) == ("module {\n" + _CALLEE + "  func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
                           "    %0 = call @g(%arg0) <no_inline> : (tensor<4xf32>) -> tensor<4xf32>\n"
                           "    %1 = call @g(%0) {foo = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>\n"
                           "    return %1 : tensor<4xf32>\n  }\n}\n")


def test_func_call_generic_properties():
    src = _CALLEE + "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = call @g(%a) {no_inline, foo} : (tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}"
    assert '    %0 = "func.call"(%arg0) <{callee = @g, no_inline}> {foo} : (tensor<4xf32>) -> tensor<4xf32>\n' in generic(src)


def test_func_constant_named_f_and_call_indirect_infers_results():
    src = _CALLEE + "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %fn = func.constant @g : (tensor<4xf32>) -> tensor<4xf32>\n  %0 = call_indirect %fn(%a) : (tensor<4xf32>) -> tensor<4xf32>\n  %k = constant {bar} @g : (tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}"
    assert pretty(src) == ("module {\n" + _CALLEE + "  func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
                           "    %f = constant @g : (tensor<4xf32>) -> tensor<4xf32>\n"
                           "    %0 = call_indirect %f(%arg0) : (tensor<4xf32>) -> tensor<4xf32>\n"
                           "    %f_0 = constant {bar} @g : (tensor<4xf32>) -> tensor<4xf32>\n"
                           "    return %0 : tensor<4xf32>\n  }\n}\n")
    assert ('    %1 = "func.call_indirect"(%0, %arg0) : ((tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n'
            in generic(src))


# ---- differential: jaxlib's MLIR and shardy_py print the same text --------------------------------------------

DIFFERENTIAL = [
    module("""
%0 = "stablehlo.reduce_scatter"(%arg0) ({
^bb0(%x: tensor<f32>, %y: tensor<f32>):
  %s = stablehlo.maximum %x, %y : tensor<f32>
  stablehlo.return %s : tensor<f32>
}) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, use_global_device_ids} : (tensor<8x2xf32>) -> tensor<4x2xf32>
%1 = "stablehlo.collective_broadcast"(%arg0) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x2xf32>) -> tensor<8x2xf32>
%2:2 = "stablehlo.all_reduce"(%arg0, %0) ({
^bb0(%x: tensor<f32>, %y: tensor<f32>):
  %s = stablehlo.add %x, %y : tensor<f32>
  stablehlo.return %s : tensor<f32>
}) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x2xf32>, tensor<4x2xf32>) -> (tensor<8x2xf32>, tensor<4x2xf32>)
%3 = "stablehlo.send"(%arg0, %arg1) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, is_host_transfer = false, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x2xf32>, !stablehlo.token) -> !stablehlo.token
return
""", _SIG),
    module("""
%0 = chlo.broadcast_select %arg2, %arg0, %arg1 : (tensor<i1>, tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
%1 = chlo.broadcast_shift_left %arg3, %arg3 {broadcast_dimensions = array<i64: 0>} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
%2 = chlo.broadcast_compare %arg0, %arg0 {comparison_direction = #chlo<comparison_direction EQ>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
%3 = chlo.next_after %arg0, %arg0 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
%4 = chlo.mulhi %arg3, %arg3 : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
%5 = "chlo.constant_like"(%arg0) {value = 1.0 : f32, zz} : (tensor<4xf32>) -> tensor<4xf32>
%6:2 = chlo.top_k(%arg1, k = 2) : tensor<2x4xf32> -> (tensor<2x2xf32>, tensor<2x2xi32>)
%7 = chlo.broadcast_complex %arg0, %arg1 : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xcomplex<f32>>
return
""", "(%arg0: tensor<4xf32>, %arg1: tensor<2x4xf32>, %arg2: tensor<i1>, %arg3: tensor<4xi32>)"),
    module("""
%0:2 = chlo.scan (%arg0) inits (%arg1) dimension=0 attributes {is_reverse = true, foo = "x"} {
^bb0(%in: tensor<2xf32>, %c: tensor<2xf32>):
  %s = stablehlo.add %in, %c : tensor<2xf32>
  stablehlo.return %s, %s : tensor<2xf32>, tensor<2xf32>
} : (tensor<4x2xf32>, tensor<2xf32>) -> (tensor<4x2xf32>, tensor<2xf32>)
return
""", "(%arg0: tensor<4x2xf32>, %arg1: tensor<2xf32>)"),
    "func.func private @h(tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)\n"
    "func.func private @v()\n"
    "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %0:2 = call @h(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)\n"
    "  call @v() : () -> ()\n"
    '  %1 = "func.call"(%0#1) {callee = @h2, res_attrs = [{sdy.y}]} : (tensor<4xf32>) -> tensor<4xf32>\n'
    "  %c = constant @v : () -> ()\n"
    "  call_indirect %c() {foo} : () -> ()\n"
    "  return %1 : tensor<4xf32>\n}\n"
    "func.func private @h2(tensor<4xf32>) -> tensor<4xf32>\n",
    # jaxlib 0.12's func.call format has a ``prop-dict``: inherent attributes print as
    # ``call @h2(%arg0) <arg_attrs = [{sdy.x}], res_attrs = [{sdy.y}], no_inline> {foo}`` (declaration
    # order), and both ``<{...}>`` and ``<...>`` parse (0.10.2 printed them in the ``{...}`` attr-dict).
    "func.func private @h2(tensor<4xf32>) -> tensor<4xf32>\n"
    "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %0 = func.call @h2(%a) <{no_inline, res_attrs = [{sdy.y}], arg_attrs = [{sdy.x}]}> {foo} : (tensor<4xf32>) -> tensor<4xf32>\n"
    "  %1 = call @h2(%0) <no_inline> : (tensor<4xf32>) -> tensor<4xf32>\n"
    "  return %1 : tensor<4xf32>\n}\n",
]


@pytest.mark.parametrize("text", DIFFERENTIAL)
def test_same_prints_as_jaxlib(text: str):
    pytest.importorskip("jax", reason="jax (jaxlib's MLIR) is not installed: no oracle to compare against")
    from jax._src.interpreters import mlir
    from jax._src.lib.mlir import ir

    ctx = mlir.make_ir_context()
    ctx.allow_unregistered_dialects = True
    op = ir.Module.parse(text, context=ctx).operation
    want_pretty, want_generic = op.get_asm(), op.get_asm(print_generic_op_form=True)
    assert pretty(text) == want_pretty
    assert generic(text) == want_generic
    assert pretty(want_generic) == want_pretty

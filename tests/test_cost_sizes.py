# ruff: noqa: E501  (MLIR inputs are written one line per line, however long)
"""Bytes one device holds of a value (``shardy_py.cost.sizes``): every StableHLO element type as XLA
stores it, local shapes under a sharding with the padding of sizes that do not divide, sub-axes,
replicated and unreduced axes, maximal meshes, and the values of manual computations and loops."""
from __future__ import annotations

import pytest

import shardy_py
from shardy_py.cost.sizes import element_bits, local_shape, tensor_bytes, type_size, value_size


@pytest.mark.parametrize(("element", "bits"), [
    ("i1", 8), ("i2", 2), ("i4", 4), ("i8", 8), ("i16", 16), ("i32", 32), ("i64", 64),
    ("ui2", 2), ("ui4", 4), ("ui8", 8), ("ui16", 16), ("ui32", 32), ("ui64", 64), ("si8", 8),
    ("f4E2M1FN", 4), ("f6E2M3FN", 6), ("f6E3M2FN", 6), ("f8E3M4", 8), ("f8E4M3", 8), ("f8E4M3FN", 8),
    ("f8E4M3FNUZ", 8), ("f8E4M3B11FNUZ", 8), ("f8E5M2", 8), ("f8E5M2FNUZ", 8), ("f8E8M0FNU", 8),
    ("bf16", 16), ("f16", 16), ("f32", 32), ("f64", 64), ("tf32", 32),
    ("complex<f32>", 64), ("complex<f64>", 128), ("index", 64),
    ("!quant.uniform<i8:f32, 5.000000e-01:3>", 8), ("!quant.uniform<u8:f32, 2.000000e+00>", 8),
    ("!quant.uniform<i16:f32, 1.000000e+00>", 16), ("!quant.uniform<i4:f32, 1.000000e+00>", 4),
])
def test_every_element_type_has_its_storage_width(element, bits):
    assert element_bits(element) == bits


@pytest.mark.parametrize(("shape", "element", "size"), [
    ((7,), "i4", 4),          # two per byte, the last byte half used
    ((5,), "ui4", 3),
    ((7,), "i2", 2),          # four per byte
    ((7,), "f4E2M1FN", 4),
    ((3,), "f6E2M3FN", 3),    # 6-bit floats take a byte each, as XLA stores them
    ((3,), "i1", 3),          # pred: a byte each
    ((2, 3), "complex<f64>", 96),
    ((), "f32", 4),
    ((0, 4), "f32", 0),
])
def test_tensor_bytes_pack_two_and_four_bit_elements(shape, element, size):
    assert tensor_bytes(shape, element) == size


def test_unknown_element_types_and_dynamic_shapes_have_no_size():
    assert element_bits("!foo.bar") is None
    assert tensor_bytes((4,), "!foo.bar") is None
    assert tensor_bytes((-1, 4), "f32") is None


MESH = shardy_py.parse_attribute('#sdy.mesh<["x"=4, "y"=2]>')


def _s(text: str):
    return shardy_py.parse_attribute(text)


@pytest.mark.parametrize(("sharding", "shape", "local", "padded"), [
    ('#sdy.sharding<@m, [{"x"}, {}]>', (16, 8), (4, 8), False),
    ('#sdy.sharding<@m, [{"x"}, {}]>', (10, 8), (3, 8), True),          # ceil(10 / 4): padded
    ('#sdy.sharding<@m, [{"x", "y"}, {}]>', (10, 8), (2, 8), True),     # ceil(10 / 8)
    ('#sdy.sharding<@m, [{"x":(1)2}, {"y"}]>', (16, 8), (8, 4), False),  # a sub-axis of size 2
    ('#sdy.sharding<@m, [{}, {}], replicated={"x"}>', (16, 8), (16, 8), False),
    ('#sdy.sharding<@m, [{"y"}, {}], unreduced={"x"}>', (16, 8), (8, 8), False),
    ('#sdy.sharding<@m, [{"x"}, {?}]>', (3, 8), (1, 8), True),
])
def test_local_shapes_divide_by_the_axes_of_each_dimension_rounding_up(sharding, shape, local, padded):
    assert local_shape(shape, _s(sharding), MESH) == local
    size = type_size(shardy_py.parse_type(f"tensor<{shape[0]}x{shape[1]}xf32>"), _s(sharding), MESH)
    assert (size.bytes, size.padded, size.device) == (local[0] * local[1] * 4, padded, None)


def test_a_maximal_mesh_holds_the_whole_value_on_its_device():
    maximal = shardy_py.parse_attribute("#sdy.mesh<[], device_ids=[3]>")
    size = type_size(shardy_py.parse_type("tensor<4x4xf32>"), _s("#sdy.sharding<@one, [{}, {}]>"), maximal)
    assert (size.bytes, size.device, size.local_type) == (64, 3, "tensor<4x4xf32>")


def test_tokens_take_nothing_and_tuples_sum_their_members():
    assert type_size(shardy_py.parse_type("!stablehlo.token")).bytes == 0
    assert type_size(shardy_py.parse_type("tuple<tensor<2xf32>, tensor<3xi8>>")).bytes == 11


def _values(text: str):
    module = shardy_py.parse(text)
    return module, {v.name: v for op in module.walk() for v in op.results}, module.funcs


def test_a_manual_computation_body_is_split_by_its_free_axes_only():
    """The body's argument is tensor<4x16xf32> already (local on "x"); "y" still splits dimension 1."""
    module, _, funcs = _values('''sdy.mesh @m = <["x"=4, "y"=2]>
func.func @main(%a: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@m, [{"x"}, {"y"}]>] out_shardings=[<@m, [{"x"}, {"y"}]>] manual_axes={"x"} (%b: tensor<4x16xf32>) {
    sdy.return %b : tensor<4x16xf32>
  } : (tensor<16x16xf32>) -> tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}
''')
    body_arg = funcs["main"].regions[0].blocks[0].ops[0].regions[0].blocks[0].arguments[0]
    result = funcs["main"].regions[0].blocks[0].ops[0].results[0]
    assert value_size(body_arg, module.meshes).local_type == "tensor<4x8xf32>"
    assert value_size(result, module.meshes).local_type == "tensor<4x8xf32>"


def test_a_while_block_argument_takes_its_loops_sharding():
    module, values, funcs = _values('''sdy.mesh @m = <["x"=4]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c, %v = %a) : tensor<i32>, tensor<8x8xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@m, []>, <@m, [{"x"}, {}]>]>}
   cond {
    %c1 = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare LT, %i, %c1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %2 = stablehlo.negate %v : tensor<8x8xf32>
    stablehlo.return %i, %2 : tensor<i32>, tensor<8x8xf32>
  }
  return %0#1 : tensor<8x8xf32>
}
''')
    loop = next(op for op in module.walk() if op.name == "stablehlo.while")
    body_value = loop.regions[1].blocks[0].arguments[1]
    assert value_size(body_value, module.meshes).local_type == "tensor<2x8xf32>"

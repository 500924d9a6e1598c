# ruff: noqa: E501  (expected MLIR text is printed on one line, however long; it must be exact)
"""The IR model of a parsed module: meshes, functions, ops, operands, shardings, as Python objects."""
from __future__ import annotations

import textwrap

import pytest

import shardy_py
from shardy_py import (
    AxisRefAttr,
    AxisRefListAttr,
    ListOfAxisRefListsAttr,
    ManualAxesAttr,
    MeshAttr,
    MeshAxisAttr,
    OpaqueAttr,
    TensorShardingAttr,
    TensorShardingPerValueAttr,
    parse_attribute,
)


def d(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def in_func(body: str, sig: str = "(%arg0: tensor<8xf32>) -> tensor<8xf32>", mesh: str = '<["a"=2, "b"=2]>') -> str:
    """A module with mesh @m and one func @f whose body is ``body`` (canonical indentation)."""
    lines = "".join(f"    {ln}\n" for ln in d(body).splitlines())
    return f"module {{\n  sdy.mesh @m = {mesh}\n  func.func @f{sig} {{\n{lines}  }}\n}}\n"


def sharding(text: str) -> TensorShardingAttr:
    return parse_attribute(f"#sdy.sharding{text}")


def func_ops(module, name: str = "f"):
    return module.funcs[name].regions[0].block.ops


# ---- the model --------------------------------------------------------------------------------------------

MODEL_SRC = d('''
    module @jit_f attributes {mhlo.num_partitions = 8 : i32} {
      sdy.mesh @mesh = <["a"=2, "b"=4]>
      sdy.mesh @"m-1" = <["x"=2], device_ids=[1, 0]>
      func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b"}p1]>}, %arg1: tensor<16xf32>) -> tensor<8x16xf32> {
        %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {}]> : tensor<8x16xf32>
        %1 = sdy.reshard %0 <@mesh, [{}, {"b"}], replicated={"a"}> : tensor<8x16xf32>
        %2 = stablehlo.add %1, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : tensor<8x16xf32>
        %3 = sdy.manual_computation(%2) in_shardings=[<@mesh, [{"a", "b"}, {"b", ?}], replicated={"a"}>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg2: tensor<4x16xf32>) {
          %5 = stablehlo.multiply %arg2, %arg2 : tensor<4x16xf32>
          sdy.return %5 : tensor<4x16xf32>
        } : (tensor<8x16xf32>) -> tensor<8x16xf32>
        %4 = sdy.all_reduce max {"b"} %3 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x16xf32>
        return %4 : tensor<8x16xf32>
      }
    }
    ''')


@pytest.fixture(scope="module")
def model():
    m = shardy_py.parse(MODEL_SRC)
    return m, m.funcs["main"], func_ops(m, "main")


def test_model_source_round_trips(model):
    assert str(model[0]) == MODEL_SRC


def test_model_meshes(model):
    m, _, _ = model
    assert m.meshes == {
        "mesh": MeshAttr((MeshAxisAttr("a", 2), MeshAxisAttr("b", 4))),
        "m-1": MeshAttr((MeshAxisAttr("x", 2),), (1, 0)),
    }


def test_model_module_name_and_attributes(model):
    m, _, _ = model
    assert m.op.properties["sym_name"] == "jit_f"
    assert m.op.attributes["mhlo.num_partitions"] == OpaqueAttr("8 : i32")


def test_model_op_names(model):
    _, _, ops = model
    assert [op.name for op in ops] == ["sdy.sharding_constraint", "sdy.reshard", "stablehlo.add",
                                       "sdy.manual_computation", "sdy.all_reduce", "func.return"]


def test_model_properties(model):
    _, _, ops = model
    assert ops[0].properties["sharding"] == sharding('<@mesh, [{"a"}, {}]>')
    assert ops[3].properties["manual_axes"] == ManualAxesAttr(("a",))
    assert isinstance(ops[3].properties["in_shardings"], TensorShardingPerValueAttr)
    assert ops[4].properties["reduction_axes"] == AxisRefListAttr((AxisRefAttr("b"),))
    assert ops[4].properties["out_sharding"] == sharding('<@mesh, [{"a"}, {}]>')


def test_model_collective_property_types():
    m = shardy_py.parse(in_func('%0 = sdy.all_gather [{"a"}] %arg0 out_sharding=<@m, [{}]> : tensor<8xf32>\n'
                                "return %0 : tensor<8xf32>"))
    assert func_ops(m)[0].properties["gathering_axes"] == ListOfAxisRefListsAttr((AxisRefListAttr((AxisRefAttr("a"),)),))


def test_model_operands_resolve_to_values(model):
    _, f, ops = model
    args = f.regions[0].block.arguments
    assert ops[0].operands[0] is args[0]
    assert ops[1].operands[0] is ops[0].results[0]
    assert ops[2].operands == (ops[1].results[0], ops[1].results[0])
    assert ops[5].operands[0] is ops[4].results[0]


def test_model_region_operands_resolve_to_block_args(model):
    _, _, ops = model
    body = ops[3].regions[0].block
    mul, ret = body.ops
    assert mul.operands[0] is body.arguments[0]
    assert ret.operands[0] is mul.results[0]
    assert mul.parent_op is ops[3]


def test_model_sharding_of_func_arg(model):
    m, f, _ = model
    args = f.regions[0].block.arguments
    assert m.sharding_of(args[0]) == sharding('<@mesh, [{"a", ?}, {"b"}p1]>')
    assert m.sharding_of(args[1]) is None


def test_model_sharding_of_op_results(model):
    m, _, ops = model
    assert m.sharding_of(ops[0].results[0]) == sharding('<@mesh, [{"a"}, {}]>')
    assert m.sharding_of(ops[1].results[0]) == sharding('<@mesh, [{}, {"b"}], replicated={"a"}>')
    assert m.sharding_of(ops[2].results[0]) == sharding('<@mesh, [{"a"}, {}]>')
    assert m.sharding_of(ops[3].results[0]) == sharding('<@mesh, [{"a"}, {}]>')
    assert m.sharding_of(ops[4].results[0]) == sharding('<@mesh, [{"a"}, {}]>')


def test_model_sharding_of_manual_computation_block_arg_drops_manual_axes(model):
    m, _, ops = model
    arg = ops[3].regions[0].block.arguments[0]
    assert m.sharding_of(arg) == sharding('<@mesh, [{"b"}, {"b", ?}]>')


def test_model_sharding_of_unsharded_result_is_none(model):
    m, _, ops = model
    mul = ops[3].regions[0].block.ops[0]
    assert m.sharding_of(mul.results[0]) is None


def test_model_walk_is_preorder(model):
    m, _, _ = model
    assert [op.name for op in m.walk()][:6] == ["builtin.module", "sdy.mesh", "sdy.mesh", "func.func",
                                                "sdy.sharding_constraint", "sdy.reshard"]

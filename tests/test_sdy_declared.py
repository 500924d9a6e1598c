"""The sdy ops are declared once (``shardy_py/dialects/sdy.py``) and read and printed by the same
assembly-format engine as every other declared op: each op of ``ops.td`` has a declaration, and a
drawn sdy op reads back the same from its pretty print and from its generic print."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

import shardy_py
from shardy_py import strategies as sst
from shardy_py.dialects.registry import lookup
from shardy_py.ir.ops import Location

#: Every op of ``shardy/dialect/sdy/ir/ops.td`` at the conformance commit.
SDY_OPS = ("mesh", "sharding_constraint", "reshard", "return", "manual_computation", "sharding_group",
           "constant", "data_flow_edge", "propagation_barrier", "named_computation", "all_gather", "all_slice",
           "all_to_all", "collective_permute", "all_reduce", "reduce_scatter", "sharded_to_unreduced",
           "replicated_to_unreduced", "func_data_flow_edge")


@pytest.mark.parametrize("name", SDY_OPS)
def test_every_sdy_op_is_declared_with_its_syntax(name):
    decl = lookup(f"sdy.{name}")
    assert decl is not None
    assert decl.format is not None or (decl.parse is not None and decl.print is not None)
    assert decl.as_attrs is not None and decl.from_attrs is not None


@pytest.mark.parametrize(("name", "format"), [
    ("mesh", "$sym_name `=` $mesh attr-dict"),
    ("sharding_constraint", "$input $sharding attr-dict `:` type($result)"),
    ("sharding_group", "$input `group_id` `` `=` `` $group_id attr-dict `:` type($input)"),
    ("all_reduce", "($reduction_op^)? $reduction_axes $tensor `out_sharding` `` `=` `` $out_sharding attr-dict "
                   "`:` type($result)"),
])
def test_formats_are_the_ods_assembly_formats(name, format):
    """(``ops.td`` writes ````=```` for `` `=` `` between two empty literals.)"""
    assert lookup(f"sdy.{name}").format == format


def _model(op):
    """What an op reads into, without where it was written."""
    props = {k: v for k, v in op.properties.items() if not isinstance(v, Location)}
    return (op.name, props, dict(op.attributes), [str(t) for t in op.operand_types_view],
            [str(r.type) for r in op.results], len(op.regions))


def _sdy_ops(module):
    return [op for op in module.walk() if op.name.startswith("sdy.")]


DRAWN = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                 derandomize=True)


@DRAWN
@given(text=sst.module_texts(reductions=sst.REDUCTIONS))
def test_drawn_sdy_ops_read_back_from_their_pretty_print(text):
    module = shardy_py.parse(text)
    again = shardy_py.parse(str(module))
    assert [_model(op) for op in _sdy_ops(again)] == [_model(op) for op in _sdy_ops(module)]
    assert str(again) == str(module)


@DRAWN
@given(text=sst.module_texts(reductions=sst.REDUCTIONS))
def test_drawn_sdy_ops_read_back_from_their_generic_print(text):
    module = shardy_py.parse(text)
    generic = shardy_py.parse(shardy_py.print_module(module, generic=True))
    assert [_model(op) for op in _sdy_ops(generic)] == [_model(op) for op in _sdy_ops(module)]
    assert str(generic) == str(module)


def test_a_located_property_keeps_where_it_was_written():
    m = shardy_py.parse('sdy.mesh @m = <["x"=2]>\nfunc.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n'
                        '  %0 = sdy.sharding_constraint %arg0 <@m, [{"x"}]> : tensor<8xf32>\n'
                        "  return %0 : tensor<8xf32>\n}\n")
    mesh = m.ops[0]
    constraint = m.funcs["f"].regions[0].blocks[0].ops[0]
    assert (mesh.properties["sym_loc"], mesh.properties["mesh_loc"]) == (Location(1, 10), Location(1, 15))
    assert constraint.properties["sharding_loc"] == Location(3, 38)


def test_inherent_attributes_in_the_generic_dictionary_are_properties():
    """jaxlib 0.12 reads ``"sdy.sharding_group"(%arg0) {group_id = 3 : i64}`` (and prints it back with
    ``group_id`` a property): MLIR's ``Operation::setAttrs`` splits inherent attributes out."""
    m = shardy_py.parse('func.func @f(%arg0: tensor<8xf32>) {\n'
                        '  "sdy.sharding_group"(%arg0) {group_id = 3 : i64} : (tensor<8xf32>) -> ()\n  return\n}\n')
    op = m.funcs["f"].regions[0].blocks[0].ops[0]
    assert (op.properties["group_id"], dict(op.attributes)) == (3, {})
    assert "sdy.sharding_group %arg0 group_id=3 : tensor<8xf32>" in str(m)

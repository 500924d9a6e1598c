"""Ops of one shape share their properties, attributes and operand types until one is changed.

``Operation.properties`` / ``attributes`` / ``operand_types`` must behave as the op's own dict / list
whatever the parser shared behind them (``syntax.op_recipes``): changing one op never shows in another.
"""
from __future__ import annotations

from types import MappingProxyType

import shardy_py
from shardy_py.ir import attrs as A
from shardy_py.ir.ops import Operation

TEXT = """module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @f(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
    %3 = stablehlo.add %2, %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<8x8xf32>
    %4 = stablehlo.add %3, %3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<8x8xf32>
    %5 = stablehlo.add %4, %4 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<8x8xf32>
    return %5 : tensor<8x8xf32>
  }
}
"""


def _ops(name: str):
    module = shardy_py.parse(TEXT)
    return module, [op for op in module.walk() if op.name == name]


def test_recipe_ops_share_until_asked():
    _, ops = _ops("sdy.sharding_constraint")
    second, third = ops[1], ops[2]
    assert second.properties_view is third.properties_view  # one mapping for the shape
    assert isinstance(second.properties_view, MappingProxyType)
    props = second.properties
    assert type(props) is dict and second.properties is props  # owned from now on, the same dict
    assert second.properties_view is props
    assert third.properties_view is not props


def test_changing_one_op_leaves_the_others():
    module, ops = _ops("sdy.sharding_constraint")
    new = shardy_py.parse_attribute('#sdy.sharding<@mesh, [{}, {"y"}]>')
    ops[1].properties["sharding"] = new
    assert ops[2].properties["sharding"] != new and ops[0].properties["sharding"] != new
    text = str(module)
    assert '%1 = sdy.sharding_constraint %0 <@mesh, [{}, {"y"}]>' in text
    assert '%2 = sdy.sharding_constraint %1 <@mesh, [{"x"}, {}]>' in text
    generic = shardy_py.print_module(module, generic=True)
    assert generic.count('sharding = #sdy.sharding<@mesh, [{}, {"y"}]>') == 1
    assert generic.count('sharding = #sdy.sharding<@mesh, [{"x"}, {}]>') == 2


def test_attributes_and_operand_types_are_owned_on_access():
    module, ops = _ops("stablehlo.add")
    a, b = ops[1], ops[2]
    assert a.attributes_view is b.attributes_view
    del a.attributes["sdy.sharding"]
    assert "sdy.sharding" in b.attributes
    a.attributes["foo"] = A.UNIT_ATTR
    assert "foo" not in b.attributes_view
    types = a.operand_types
    assert type(types) is list and a.operand_types is types
    types.append(types[0])
    assert len(b.operand_types) == 2
    text = str(module)
    assert "%4 = stablehlo.add %3, %3 {foo} : tensor<8x8xf32>" in text
    assert '%5 = stablehlo.add %4, %4 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>}' in text


def test_mutable_values_are_copied_with_the_mapping():
    shared = MappingProxyType({"dims": [1, 2], "name": "x"})
    one = Operation("test.op", properties=shared)
    two = Operation("test.op", properties=shared)
    one.properties["dims"].append(3)
    assert two.properties["dims"] == [1, 2]
    assert shared["dims"] == [1, 2]


def test_plain_construction_and_assignment():
    op = Operation("test.op", properties={"a": 1}, attributes={"b": A.UNIT_ATTR}, operand_types=[])
    props = op.properties
    assert props == {"a": 1} and op.properties is props
    op.properties = {"c": 2}
    assert op.properties == {"c": 2} and op.properties_view == {"c": 2}
    op.attributes = MappingProxyType({"d": A.UNIT_ATTR})
    op.attributes["e"] = A.UNIT_ATTR
    assert set(op.attributes) == {"d", "e"}


def test_verify_and_print_do_not_take_copies():
    module, ops = _ops("stablehlo.add")
    shared = ops[2].attributes_view
    assert shardy_py.verify(module) == []
    str(module)
    shardy_py.print_module(module, generic=True)
    assert ops[2].attributes_view is shared


def test_operand_names_made_from_the_operands_when_asked():
    module, ops = _ops("stablehlo.add")
    op = ops[1]
    assert op.operand_names_view == ("%3", "%3")
    names = op.operand_names
    assert names == ["%3", "%3"] and op.operand_names is names  # owned from now on
    names[0] = "%written"
    assert op.operand_names_view == ["%written", "%3"]
    assert "%4 = stablehlo.add %3, %3" in str(module)  # values print by their own names


def test_print_template_kept_by_the_recipe_follows_value_types():
    module, ops = _ops("stablehlo.add")
    str(module)  # the shape's template is made and kept
    from shardy_py.ir.types import parse_type

    ops[2].results[0].type = parse_type("tensor<8x4xf32>")
    text = str(module)
    assert "%5 = stablehlo.add %4, %4 {sdy.sharding" in text
    line = next(ln for ln in text.splitlines() if ln.strip().startswith("%5 ="))
    assert line.endswith("(tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x4xf32>")
    assert next(ln for ln in text.splitlines() if ln.strip().startswith("%4 =")).endswith(": tensor<8x8xf32>")

"""The generic form read back into the op model: wrong properties are located errors, never
tracebacks (the generic parser checks what the custom syntax would have checked)."""
from __future__ import annotations

import pytest

import shardy_py


def _in_func(line: str) -> str:
    return f"func.func @f(%arg0: tensor<8xf32>) {{\n  {line}\n  return\n}}\n"


@pytest.mark.parametrize(("line", "column", "message"), [
    ('"sdy.sharding_group"(%arg0) <{group_id = "x"}> : (tensor<8xf32>) -> ()', 23,
     "'sdy.sharding_group': property 'group_id' must be an integer of type i64, not '\"x\"'"),
    ('%0 = "sdy.propagation_barrier"(%arg0) <{allowed_direction = 9 : i32}> : (tensor<8xf32>) -> tensor<8xf32>', 33,
     "'sdy.propagation_barrier': allowed_direction 9 is not a propagation direction (0 to 3)"),
    ('"sdy.mesh"() <{sym_name = "m", mesh = 3}> : () -> ()', 13,
     "'sdy.mesh': property 'mesh' must be a #sdy.mesh, not '3 : i64'"),
    ('%0 = "sdy.sharding_constraint"(%arg0) <{sharding = 1}> : (tensor<8xf32>) -> tensor<8xf32>', 33,
     "'sdy.sharding_constraint': property 'sharding' must be a TensorShardingAttr, not '1 : i64'"),
    ('"sdy.mesh"() <{sym_name = 3, mesh = #sdy.mesh<["x"=2]>}> : () -> ()', 13,
     "'sdy.mesh': property 'sym_name' must be a string"),
    ('%0:2 = "stablehlo.add"(%arg0, %arg0) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>', 3,
     "operation defines 1 results but was provided 2 to bind"),
])
def test_wrong_generic_properties_are_located_errors(line, column, message):
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse(_in_func(line))
    assert (e.value.line, e.value.column, e.value.message) == (2, column, message)


def test_generic_sdy_op_reads_into_the_custom_model():
    m = shardy_py.parse(_in_func('%0 = "sdy.propagation_barrier"(%arg0) <{allowed_direction = 1 : i32}> : '
                                 "(tensor<8xf32>) -> tensor<8xf32>"))
    op = m.funcs["f"].regions[0].blocks[0].ops[0]
    assert op.properties["allowed_direction"] == "FORWARD"
    assert "sdy.propagation_barrier %arg0 allowed_direction=FORWARD : tensor<8xf32>" in str(m)


_ALL_REDUCE = ('%0 = "sdy.all_reduce"(%arg0) <{out_sharding = #sdy.sharding<@m, [{}]>, reduction_axes = '
               '#sdy<axis_ref_list{"x"}>EXTRA}> : (tensor<8xf32>) -> tensor<8xf32>')


def _with_mesh(line: str) -> str:
    return 'sdy.mesh @m = <["x"=2]>\n' + _in_func(line).replace("%arg0: tensor<8xf32>", "%arg0: tensor<8xf32> "
                                                                "{sdy.sharding = #sdy.sharding<@m, [{}]>}")


@pytest.mark.parametrize(("written", "kind"), [("", "sum"), (", reduction_op = 0 : i32", "sum"),
                                               (", reduction_op = 1 : i32", "max"),
                                               (", reduction_op = 2 : i32", "min")])
def test_generic_reduction_op_reads_into_the_custom_model(written, kind):
    """jaxlib 0.12: ``reduction_op`` is an i32 enum (0 sum, 1 max, 2 min), absent means sum; the custom
    form writes max/min after the op name and leaves sum out."""
    m = shardy_py.parse(_with_mesh(_ALL_REDUCE.replace("EXTRA", written)))
    op = m.funcs["f"].regions[0].blocks[0].ops[0]
    assert op.properties["reduction_op"] == kind
    keyword = "" if kind == "sum" else f" {kind}"
    assert f'sdy.all_reduce{keyword} {{"x"}} %arg0 out_sharding=<@m, [{{}}]>' in str(m)
    assert f"reduction_op = {['sum', 'max', 'min'].index(kind)} : i32" in shardy_py.print_module(m, generic=True)


@pytest.mark.parametrize("value", ["3 : i32", "-1 : i32", "1 : i64", "1", '"max"', "1 : ui32"])
def test_generic_reduction_op_out_of_the_enum_is_mlirs_property_conversion_error(value):
    """What jaxlib 0.12 says, at the op name: ``invalid properties {...} for op sdy.all_reduce:
    Invalid attribute `reduction_op` in property conversion: 3 : i32``."""
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse(_with_mesh(_ALL_REDUCE.replace("EXTRA", f", reduction_op = {value}")))
    shown = value if value != "1" else "1 : i64"
    assert (e.value.line, e.value.column) == (3, 8)
    assert e.value.message == (
        'invalid properties {out_sharding = #sdy.sharding<@m, [{}]>, reduction_axes = #sdy<axis_ref_list{"x"}>, '
        f"reduction_op = {shown}}} for op sdy.all_reduce: Invalid attribute `reduction_op` in property "
        f"conversion: {shown}")

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
    ('"stablehlo.add"(%arg0, %arg0) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>', 3,
     "'stablehlo.add' has 1 result type, but 0 results were named"),
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

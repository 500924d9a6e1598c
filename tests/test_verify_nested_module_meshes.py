"""A sharding names a mesh of its nearest module (``lookupNearestSymbolFrom``): in a module nested in the
module, a mesh defined outside it is unknown, and a mesh defined in it is unknown outside.  jaxlib 0.12 rejects
both (the 100,000-mutant differential run found 4 mutants, a ``sdy.func_data_flow_edge`` in a nested module
naming the outer module's mesh, accepted).  The places are jaxlib's; the messages are ours (jaxlib says
"unknown mesh", or "expected a common mesh for propagation edges attr." when the op has propagation edges)."""
from __future__ import annotations

import pytest
from cpp_oracle import context

import shardy_py
from shardy_py.verify import verify

TEMPLATE = """sdy.mesh @outer = <["a"=2]>
module @inner {{
  sdy.mesh @mesh = <["z"=4]>
  func.func @f(%arg0: tensor<8x8xf32> {{sdy.sharding = #sdy.sharding<@{inner}, [{{"{inner_axis}"}}, {{}}]>}})
      -> tensor<8x8xf32> {{
    return %arg0 : tensor<8x8xf32>
  }}
}}
func.func @g(%arg0: tensor<8x8xf32> {{sdy.sharding = #sdy.sharding<@{outer}, [{{"{outer_axis}"}}, {{}}]>}})
    -> tensor<8x8xf32> {{
  return %arg0 : tensor<8x8xf32>
}}
"""
VALID = {"inner": "mesh", "inner_axis": "z", "outer": "outer", "outer_axis": "a"}
#: name -> (the changed meshes, (line, column) of the function jaxlib reports).
INVALID = {
    "outer_mesh_inside": ({"inner": "outer", "inner_axis": "a"}, (4, 3)),
    "inner_mesh_outside": ({"outer": "mesh", "outer_axis": "z"}, (9, 1)),
}


def _errors(text: str) -> list:
    return [(d.line, d.column, d.message) for d in verify(shardy_py.parse(text)) if d.severity == "error"]


def test_each_module_naming_its_own_meshes_accepted() -> None:
    assert _errors(TEMPLATE.format(**VALID)) == []


@pytest.mark.parametrize("name", sorted(INVALID))
def test_mesh_of_another_module_rejected(name: str) -> None:
    changes, (line, column) = INVALID[name]
    errors = _errors(TEMPLATE.format(**{**VALID, **changes}))
    assert errors[:1] and errors[0][:2] == (line, column)
    assert f"mesh @{changes.get('inner', changes.get('outer'))}" in errors[0][2]


def test_jaxlib_accepts_the_valid_one() -> None:
    from jax._src.lib.mlir import ir

    ir.Module.parse(TEMPLATE.format(**VALID), context=context())


@pytest.mark.parametrize("name", sorted(INVALID))
def test_jaxlib_rejects_the_mesh_of_another_module_there(name: str) -> None:
    from jax._src.lib.mlir import ir

    changes, (line, column) = INVALID[name]
    mesh = changes.get("inner", changes.get("outer"))
    with pytest.raises(ir.MLIRError) as e:
        ir.Module.parse(TEMPLATE.format(**{**VALID, **changes}), context=context())
    assert f'"-":{line}:{column}: ' in str(e.value) and f"unknown mesh: @{mesh}" in str(e.value)

"""``return`` means ``func.return`` only where MLIR's default dialect is ``func``: the body of a custom-form
``func.func`` and, since a generic op sets no default dialect (MLIR pushes one in ``parseCustomOperation``
only), the regions of generic ops within it; not the body of a generic ``"func.func"`` at the top level
nor the regions of custom-form ops such as ``sdy.named_computation``. Places and verdicts are jaxlib
0.12's (the mutant fuzz found a ``stablehlo.case`` region with ``return`` in it rejected at another line)."""
from __future__ import annotations

import pytest
from cpp_oracle import context

import shardy_py
from shardy_py.verify import verify

CASES = {
    "generic_op_region_in_a_function": ('''func.func @f(%a: tensor<f32>) -> tensor<f32> {
  %0 = "test.op"() ({
    return %a : tensor<f32>
  }) : () -> tensor<f32>
  return %0 : tensor<f32>
}
''', (3, 5, "'func.return' op expects parent op 'func.func'")),
    "generic_case_region": ('''func.func @f(%p: tensor<i32>, %a: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.case"(%p) ({
    "stablehlo.return"(%a) : (tensor<f32>) -> ()
    return %a : tensor<f32>
  }) : (tensor<i32>) -> tensor<f32>
  return %0 : tensor<f32>
}
''', (3, 5, "'stablehlo.return' op must be the last operation in the parent block")),
    "custom_op_region": ('''func.func @f(%a: tensor<f32>) -> tensor<f32> {
  %1 = sdy.named_computation<"x">(%a) (%b: tensor<f32>) {
    return %b : tensor<f32>
  } : (tensor<f32>) -> tensor<f32>
  return %1 : tensor<f32>
}
''', (3, 5, None)),
    "generic_function_body": ('''"func.func"() <{function_type = (tensor<f32>) -> tensor<f32>, sym_name = "f"}> ({
^bb0(%a: tensor<f32>):
  return %a : tensor<f32>
}) : () -> ()
''', (3, 3, None)),
}


def _ours(text: str) -> tuple[int, int, str]:
    try:
        module = shardy_py.parse(text)
    except shardy_py.ParseError as e:
        return e.line, e.column, "<parse error>"
    errors = [d for d in verify(module) if d.severity == "error"]
    assert errors, "accepted"
    return errors[0].line, errors[0].column, errors[0].message


@pytest.mark.parametrize("name", sorted(CASES))
def test_rejected_where_mlir_rejects_it(name: str) -> None:
    text, (line, column, message) = CASES[name]
    assert _ours(text) == (line, column, message or "<parse error>")


@pytest.mark.parametrize("name", sorted(CASES))
def test_jaxlib_rejects_it_there(name: str) -> None:
    from jax._src.lib.mlir import ir

    text, (line, column, message) = CASES[name]
    with pytest.raises(ir.MLIRError) as e:
        ir.Module.parse(text, context=context())
    assert f'"-":{line}:{column}: {message or ""}' in str(e.value)

"""jaxlib 0.12 registers the arith dialect: an arith op name it does not know is MLIR's unknown op (found
by the mutant fuzz: a line cut to ``%cst = arith.consta`` was accepted), while its real ops are still
kept as written."""
from __future__ import annotations

import pytest
from cpp_oracle import context

import shardy_py
from shardy_py.syntax.known_ops import REGISTERED_OPS
from shardy_py.verify import verify

TEMPLATE = """func.func @f() -> tensor<i32> {{
  {line}
  %d = stablehlo.constant dense<1> : tensor<i32>
  return %d : tensor<i32>
}}
"""


@pytest.mark.parametrize(("line", "message"), [
    ("%c = arith.consta", "custom op 'arith.consta' is unknown"),
    ("%c = arith.constan dense<1> : tensor<i32>", "custom op 'arith.constan' is unknown"),
    ('%c = "arith.foo"() : () -> tensor<i32>',
     "unregistered operation 'arith.foo' found in dialect ('arith') that does not allow unknown operations"),
])
def test_an_unknown_arith_op_is_rejected_at_its_name(line: str, message: str) -> None:
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse(TEMPLATE.format(line=line))
    assert (e.value.line, e.value.column, e.value.message) == (2, 8, message)


def test_a_registered_arith_op_is_kept() -> None:
    module = shardy_py.parse(TEMPLATE.format(line="%c = arith.constant dense<2> : tensor<i32>"))
    assert verify(module) == []
    assert "%cst = arith.constant dense<2> : tensor<i32>" in str(module)  # (named as MLIR names it)


def test_the_arith_ops_are_those_jaxlib_registers() -> None:
    from jax._src.lib.mlir.dialects import arith

    ctx = context()
    bound = {v.OPERATION_NAME for v in vars(arith).values() if hasattr(v, "OPERATION_NAME")}
    assert REGISTERED_OPS["arith"] == bound
    assert all(ctx.is_registered_operation(name) for name in REGISTERED_OPS["arith"])
    assert not ctx.is_registered_operation("arith.consta")


# -- the tensor dialect (found by the 30-minute atheris run: ``tensor.oldahd %arg0, %arg0`` was accepted)

def test_an_unknown_tensor_op_is_rejected_at_its_name() -> None:
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse(TEMPLATE.format(line="%c = tensor.oldahd %d, %d {x = [0, 2]}"))
    assert (e.value.line, e.value.column, e.value.message) == (2, 8, "custom op 'tensor.oldahd' is unknown")


def test_a_registered_tensor_op_is_kept() -> None:
    text = TEMPLATE.format(line='%c = "tensor.empty"() : () -> tensor<4xf32>')
    module = shardy_py.parse(text)
    assert verify(module) == []
    assert '"tensor.empty"() : () -> tensor<4xf32>' in str(module)


def test_the_tensor_ops_are_registered_in_jaxlib() -> None:
    ctx = context()
    assert all(ctx.is_registered_operation(name) for name in REGISTERED_OPS["tensor"])
    assert not ctx.is_registered_operation("tensor.oldahd")
    assert not any(ctx.is_registered_operation(f"tensor.{name}") for name in ("pack", "unpack", "add", "fill"))

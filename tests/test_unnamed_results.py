"""Results left unnamed (``"stablehlo.add"(%a, %a) : (...) -> tensor<8xf32>``, ``stablehlo.constant dense<0.0> :
tensor<f32>``): MLIR binds names only when they are written, so such an op is valid and its results print
numbered, as jaxlib 0.12 prints them; names that do not match the op's result count are MLIR's
"operation defines N results but was provided M to bind", at the op."""
from __future__ import annotations

import pytest
from jaxlib_worker import shared_worker

import shardy_py
from shardy_py.syntax.parser import parse_module

UNNAMED = """sdy.mesh @m = <["x"=2]>
func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  "stablehlo.add"(%a, %a) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  stablehlo.constant dense<0.0> : tensor<f32>
  sdy.sharding_constraint %a <@m, [{"x"}]> : tensor<8xf32>
  "foo.bar"(%a) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<i1>)
  func.call @f(%a) : (tensor<8xf32>) -> tensor<8xf32>
  stablehlo.add %a, %a : tensor<8xf32>
  stablehlo.add %a, %a : tensor<8xf32>
  return %a : tensor<8xf32>
}
"""

#: jaxlib 0.12's print of UNNAMED (unregistered dialects allowed)
PRINTED = """module {
  sdy.mesh @m = <["x"=2]>
  func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = sdy.sharding_constraint %arg0 <@m, [{"x"}]> : tensor<8xf32>
    %2:2 = "foo.bar"(%arg0) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<i1>)
    %3 = call @f(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
    %4 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    %5 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %arg0 : tensor<8xf32>
  }
}
"""


def test_ops_with_unnamed_results_parse_verify_and_print_numbered() -> None:
    module = shardy_py.parse(UNNAMED)
    assert shardy_py.verify(module) == []
    assert str(module) == PRINTED
    assert str(parse_module(UNNAMED, fast_paths=False)) == PRINTED


def test_unnamed_results_are_results() -> None:
    module = shardy_py.parse(UNNAMED)
    counts = [(op.name, len(op.results)) for op in module.funcs["f"].regions[0].blocks[0].ops]
    assert counts == [("stablehlo.add", 1), ("stablehlo.constant", 1), ("sdy.sharding_constraint", 1),
                      ("foo.bar", 2), ("func.call", 1), ("stablehlo.add", 1), ("stablehlo.add", 1),
                      ("func.return", 0)]


@pytest.mark.parametrize(("line", "message"), [
    ('%0:2 = "stablehlo.add"(%a, %a) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>',
     "operation defines 1 results but was provided 2 to bind"),
    ('%0:2 = "foo.bar"() : () -> (tensor<i64>)', "operation defines 1 results but was provided 2 to bind"),
    ("%0, %1 = sdy.sharding_constraint %a <@m, [{}]> : tensor<8xf32>",
     "operation defines 1 results but was provided 2 to bind"),
    ('%0 = "foo.bar"() : () -> ()', "cannot name an operation with no results"),
])
def test_names_that_do_not_match_the_results_are_rejected_at_the_op(line: str, message: str) -> None:
    text = UNNAMED.replace('  "stablehlo.add"(%a, %a) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>\n',
                           f"  {line}\n")
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse(text)
    assert (e.value.line, e.value.column, e.value.message) == (3, 3, message)


def test_jaxlib_prints_and_rejects_the_same() -> None:
    pytest.importorskip("jax", reason="the oracle is jaxlib 0.12 (pip install 'jax==0.12.0.1')")
    worker = shared_worker()
    assert worker.call("module", text=UNNAMED)["pretty"] == PRINTED
    for line, message in [('%0:2 = "foo.bar"() : () -> (tensor<i64>)',
                           "operation defines 1 results but was provided 2 to bind"),
                          ('%0 = "foo.bar"() : () -> ()', "cannot name an operation with no results")]:
        text = UNNAMED.replace('  "stablehlo.add"(%a, %a) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>\n',
                               f"  {line}\n")
        answer = worker.call("module", text=text)
        assert f'"-":3:3: {message}' in answer["error"]

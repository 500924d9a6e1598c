# ruff: noqa: E501  (MLIR inputs are written one op per line, however long)
"""The propagation pipeline on drawn modules (``strategies.propagation_module_texts()``) against
the C++ Shardy in jaxlib, in the default and the conservative mode (tests/propagation_pipelines.py),
byte-identical output; the drawn modules verify clean; and the differences the long run
(benchmarks/differential_propagation.py) found, pinned."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings

import shardy_py
from shardy_py import strategies as sst
from shardy_py.verify import verify

try:  # (test_propagation_cpp skips itself without jax; imported here, not inside a @given run)
    from test_propagation_cpp import cpp_cannot_run
except pytest.skip.Exception:
    cpp_cannot_run = None

_FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_FAST
@given(sst.propagation_module_texts())
def test_drawn_modules_verify_clean(text):
    assert [d for d in verify(shardy_py.parse(text)) if d.severity == "error"] == []


@pytest.mark.parametrize("mode", ["default", "conservative"])
@_FAST
@given(text=sst.propagation_module_texts())
def test_pipeline_matches_cpp_on_drawn_modules(mode, text):
    if cpp_cannot_run is None:
        pytest.skip("the oracle is the C++ Shardy in jaxlib")
    from cpp_oracle import cpp
    from propagation_pipelines import CPP_PIPELINES, FAILED, ours

    assume(cpp_cannot_run(shardy_py.parse(text)) is None)
    theirs = cpp(text, CPP_PIPELINES[mode])
    assert ours(text, mode == "conservative") == (FAILED if theirs == "<the pass failed>" else theirs)


def test_expanded_pipeline_is_the_registered_one():
    """The spelt-out pipeline the conservative mode is run with is jaxlib's registered one."""
    pytest.importorskip("jax", reason="the oracle is the C++ Shardy in jaxlib")
    from cpp_oracle import cpp
    from propagation_pipelines import CPP_PIPELINES

    assert cpp(REPEATED_OPERAND, CPP_PIPELINES["expanded"]) == cpp(REPEATED_OPERAND, CPP_PIPELINES["default"])


#: Two concatenates of one shape, the first of one value twice: the print template the first made
#: (operand 0 twice) was reused for the second, which printed ``%arg1, %arg1``.
REPEATED_OPERAND = """\
sdy.mesh @mesh = <["x"=8]>
func.func @main(%arg0: tensor<5xf32>, %arg1: tensor<5xf32>, %arg2: tensor<5xf32>) -> (tensor<10xf32>, tensor<10xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  %0 = stablehlo.concatenate %arg0, %arg0, dim = 0 : (tensor<5xf32>, tensor<5xf32>) -> tensor<10xf32>
  %1 = stablehlo.concatenate %arg1, %arg2, dim = 0 : (tensor<5xf32>, tensor<5xf32>) -> tensor<10xf32>
  return %0, %1 : tensor<10xf32>, tensor<10xf32>
}"""

#: jaxlib's output on ``REPEATED_OPERAND`` (both modes).
REPEATED_OPERAND_OUT = """\
module {
  sdy.mesh @mesh = <["x"=8]> {stablehlo.mesh = {axes = [{name = "x", size = 8 : i64}]}}
  func.func @main(%arg0: tensor<5xf32>, %arg1: tensor<5xf32>, %arg2: tensor<5xf32>) -> (tensor<10xf32>, tensor<10xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
    %0 = stablehlo.concatenate %arg0, %arg0, dim = 0 : (tensor<5xf32>, tensor<5xf32>) -> tensor<10xf32>
    %1 = stablehlo.concatenate %arg1, %arg2, dim = 0 : (tensor<5xf32>, tensor<5xf32>) -> tensor<10xf32>
    return %0, %1 : tensor<10xf32>, tensor<10xf32>
  }
}
"""


@pytest.mark.parametrize("conservative", [False, True])
def test_print_template_of_an_op_with_a_repeated_operand(conservative):
    from propagation_pipelines import ours

    assert ours(REPEATED_OPERAND, conservative) == REPEATED_OPERAND_OUT

"""Part 2 ops the C++ registry cannot give a rule: there the populate pass fails with an error at
the op (what jaxlib does instead is in the docstrings; the StableHLO corpus run of
test_rules_part2_differential.py meets both cases)."""
from __future__ import annotations

import pytest
from conftest import run_cli

import shardy_py
from shardy_py.passes.manager import PassError, PassManager


def _diagnostics(text: str) -> list[tuple[int, int, str, str]]:
    with pytest.raises(PassError) as info:
        PassManager.parse(["-sdy-populate-op-sharding-rules"]).run(shardy_py.parse(text))
    return [(d.line, d.column, d.severity, d.message) for d in info.value.diagnostics]


def test_a_reshape_whose_factorisation_never_ends_is_an_error_at_the_op():
    """``3x?`` holds INT64_MIN * 3 elements, which wraps to INT64_MIN, not 0: the C++ walk never
    meets ``12`` and grows its factor list until jaxlib runs out of memory."""
    text = ("func.func @f(%a: tensor<3x?xf32>) -> tensor<12xf32> {\n"
            "  %0 = stablehlo.reshape %a : (tensor<3x?xf32>) -> tensor<12xf32>\n"
            "  return %0 : tensor<12xf32>\n}\n")
    assert _diagnostics(text) == [(2, 3, "error", "the sharding rule of this reshape cannot be built: its dynamic "
                                   "dimensions make the factorisation of the shapes endless")]


def test_a_reduce_window_with_a_ranked_init_value_is_an_error_at_the_op():
    """A rank-1 init value is mapped on every result dimension by the C++, which writes past its one
    dimension: jaxlib crashes or prints whatever it finds there."""
    text = ("func.func @f(%a: tensor<4x2xf32>, %i: tensor<4xf32>) -> tensor<2x1xf32> {\n"
            '  %0 = "stablehlo.reduce_window"(%a, %i) ({\n'
            "  ^bb0(%x: tensor<4xf32>, %y: tensor<4xf32>):\n"
            "    %s = stablehlo.add %x, %y : tensor<4xf32>\n"
            "    stablehlo.return %s : tensor<4xf32>\n"
            "  }) {padding = dense<[[2, 2], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 4, 2>,"
            " window_strides = array<i64: 3, 1>} : (tensor<4x2xf32>, tensor<4xf32>) -> tensor<2x1xf32>\n"
            "  return %0 : tensor<2x1xf32>\n}\n")
    assert _diagnostics(text) == [(2, 3, "error", "the sharding rule of this reduce_window cannot be built: an "
                                   "operand has fewer dimensions than the result (the C++ reads past its end)")]


def test_opt_reports_the_error_and_exits_1(tmp_path):
    path = tmp_path / "reshape.mlir"
    path.write_text("func.func @f(%a: tensor<3x?xf32>) -> tensor<12xf32> {\n"
                    "  %0 = stablehlo.reshape %a : (tensor<3x?xf32>) -> tensor<12xf32>\n"
                    "  return %0 : tensor<12xf32>\n}\n")
    r = run_cli("opt", str(path), "-sdy-populate-op-sharding-rules")
    assert r.returncode == 1
    assert r.stderr.startswith(f"{path}:2:3: error: the sharding rule of this reshape cannot be built")

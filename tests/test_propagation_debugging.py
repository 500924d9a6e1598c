# ruff: noqa: E501  (MLIR inputs are written one op per line, however long)
"""Propagation debugging (``debug-sharding-origins``, ``debug-propagation-edge-sharding``):
byte-identical to the C++ Shardy in jaxlib on every chunk of Shardy's two debugging test files,
with the flags of their RUN lines and with the other propagation passes and both options at once;
plus the exact attributes for small cases, written out."""
from __future__ import annotations

from pathlib import Path

import pytest
from cpp_oracle import FAILED, cpp

import shardy_py
from shardy_py.cli import split_chunks
from shardy_py.passes.manager import PassError, PassManager

TEST_DIR = Path("/work/shared/conformance/transforms/propagation/debugging/test")
FILES = {"sharding_origins.mlir": ("debug-sharding-origins",), "edge_shardings.mlir": ("debug-propagation-edge-sharding",)}
BOTH = ("debug-sharding-origins", "debug-propagation-edge-sharding")
PASSES = ("sdy-aggressive-propagate", "sdy-basic-propagate", "sdy-op-priority-propagate", "sdy-user-priority-propagate")


def _flags(pass_name: str, options) -> tuple[list[str], str]:
    """Our flags and jaxlib's pipeline: add edges, apply constraints, propagate, sink, all with ``options``."""
    sink = [o.replace("debug-", "sink-debug-") for o in options]
    ours = ["-sdy-add-data-flow-edges",
            "-sdy-apply-sharding-constraints=" + " ".join(f"{o}=true" for o in options),
            f"-{pass_name}=" + " ".join(f"{o}=true" for o in options),
            "-sdy-sink-data-flow-edges=" + " ".join(f"{o}=true" for o in sink)]

    def braces(opts) -> str:
        return "{" + " ".join(f"{o}=true" for o in opts) + "}"
    pipeline = (f"builtin.module(sdy-add-data-flow-edges, sdy-apply-sharding-constraints{braces(options)}, "
                f"{pass_name}{braces(options)}, func.func(sdy-sink-data-flow-edges{braces(sink)}))")
    return ours, pipeline


def _ours(text: str, flags: list[str]) -> str:
    module = shardy_py.parse(text)
    try:
        PassManager.parse(flags).run(module)
    except PassError:
        return FAILED
    return str(module)


def _cases():
    for name, options in FILES.items():
        chunks = split_chunks((TEST_DIR / name).read_text())
        for index, (chunk, _line) in enumerate(chunks):
            for pass_name in PASSES:
                for opts in (options, BOTH):
                    if pass_name != PASSES[0] and opts == BOTH:
                        continue
                    yield pytest.param(chunk, pass_name, opts, id=f"{name}:{index}:{pass_name}:{'+'.join(opts)}")


@pytest.mark.parametrize(("chunk", "pass_name", "options"), list(_cases()))
def test_debug_info_matches_jaxlib(chunk, pass_name, options):
    """Each chunk through edges, constraints, a propagation pass and sinking, debug options on:
    our module prints exactly as jaxlib's."""
    ours_flags, pipeline = _flags(pass_name, options)
    assert _ours(chunk, ours_flags) == cpp(chunk, pipeline)


MESH = 'sdy.mesh @mesh = <["a"=2, "b"=2]>\n'

ADD_CHAIN = MESH + """func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{?}, {"b", ?}]> : tensor<8x8xf32>
  %2 = stablehlo.negate %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}"""


def test_origins_name_the_user_shardings_and_self():
    """Axis "a" comes from argument 0, "b" from the only constraint; each user sharding says
    "self" for its own axes, and the constraint is named "constraint_0"."""
    flags, _ = _flags("sdy-basic-propagate", ("debug-sharding-origins",))
    assert _ours(ADD_CHAIN, flags) == """module {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "self", b = "constraint_0"}}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "input: 0", b = "constraint_0"}}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "input: 0", b = "constraint_0"}}) {
    %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>, sdy.sharding_origins = [{a = "input: 0", b = "constraint_0"}]} : tensor<8x8xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{"a", ?}, {"b", ?}]> {sdy.sharding_origin_name = "constraint_0", sdy.sharding_origins = {a = "input: 0", b = "self"}} : tensor<8x8xf32>
    %2 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>, sdy.sharding_origins = [{a = "input: 0", b = "constraint_0"}]} : tensor<8x8xf32>
    return %2 : tensor<8x8xf32>
  }
}
"""


def test_edges_number_the_steps_in_propagation_order():
    """Every op records, per step, where each new axis came from and went to."""
    flags, _ = _flags("sdy-basic-propagate", ("debug-propagation-edge-sharding",))
    out = _ours(ADD_CHAIN, flags)
    add = next(line for line in out.splitlines() if "stablehlo.add" in line)
    assert add.strip() == ('%0 = stablehlo.add %arg0, %arg1 {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = operand-0 -> [operand-1, result-0]}]}, '
                           '{step-2 = [{"b" = result-0 -> [operand-0, operand-1]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x8xf32>')


def test_without_the_options_nothing_is_recorded():
    """Propagation without debug options leaves no debug attribute."""
    out = _ours(ADD_CHAIN, ["-sdy-add-data-flow-edges", "-sdy-apply-sharding-constraints", "-sdy-basic-propagate",
                            "-sdy-sink-data-flow-edges"])
    assert "sdy.sharding_origin" not in out and "sdy.propagation_edges" not in out


def test_manual_computation_without_edges_is_a_clear_error():
    """Origins of a manual computation live on its data-flow edges: without them, a located error."""
    text = MESH + """func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}"""
    module = shardy_py.parse(text)
    with pytest.raises(PassError) as err:
        PassManager.parse(["-sdy-basic-propagate=debug-sharding-origins=true"]).run(module)
    assert [f"{d.severity}: {d.message}" for d in err.value.diagnostics] == [
        "error: debug-sharding-origins needs the data-flow edges of sdy.manual_computation "
        "(run -sdy-add-data-flow-edges first)"]

"""``canonicalize`` (every sdy pattern) against jaxlib 0.12's ``builtin.module(canonicalize)``, byte for
byte: every chunk of Shardy's ir/ and transforms/ tests (../shared/conformance) that has an sdy op,
top-down and bottom-up; modules drawn around the reshard common-subexpression elimination; the
pattern-selecting options; and where jaxlib's MLIR context decides what a pattern can do (the
inlining of redundant manual computations).

StableHLO folding never makes the outputs differ: jaxlib 0.12's context registers no StableHLO
canonicalization patterns or folders (tests/test_passes_canonicalize_jaxlib.py::
test_stablehlo_ops_are_not_folded pins it), so no chunk is left out for it.  The chunks left out
are those jaxlib cannot read; every chunk jaxlib reads, ``verify`` accepts."""
from __future__ import annotations

import re

import pytest
from collective_chains import reshard_paths
from cpp_oracle import cpp_or_unread as jaxlib
from cpp_oracle import ours
from hypothesis import HealthCheck, given, settings

import shardy_py
from shardy_py.cli import split_chunks
from shardy_py.verify import verify

#: An op of the sdy dialect (not just an sdy attribute or mesh) somewhere in the module.
SDY_OP = re.compile(r'(^|=)\s*"?sdy\.(?!mesh\b)[a-z_]+', re.M)
def _chunks(root):
    files = sorted([*root.glob("ir/*.mlir"), *root.glob("transforms/**/*.mlir")])
    for path in files:
        if "/executable" in str(path):
            continue
        for text, offset in split_chunks(path.read_text()):
            if SDY_OP.search(text):
                yield str(path.relative_to(root)), offset + 1, text


@pytest.mark.parametrize("top_down", [True, False])
def test_every_sdy_chunk_of_shardys_tests_is_jaxlibs(conformance_dir, top_down):
    flag = f"canonicalize=top-down={str(top_down).lower()}"
    pipeline = f"builtin.module(canonicalize{{top-down={str(top_down).lower()}}})"
    compared, unread = 0, 0
    for name, line, text in _chunks(conformance_dir):
        theirs = jaxlib(text, pipeline)
        if theirs is None:
            unread += 1
            continue
        # jaxlib reads it: so does verify (the 4 chunks the files call invalid that 0.12 accepts are
        # pinned in test_conformance_pins_jaxlib012.py)
        assert not [d for d in verify(shardy_py.parse(text)) if d.severity == "error"], f"{name}:{line}"
        assert ours(text, flag) == theirs, f"{name}:{line}"
        compared += 1
    assert compared >= 484 and unread <= 170, (compared, unread)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.large_base_example])
@given(reshard_paths())
def test_drawn_reshards_through_reshapes_and_transposes_are_jaxlibs(text):
    theirs = jaxlib(text, "builtin.module(canonicalize)")
    rejected = [d for d in verify(shardy_py.parse(text)) if d.severity == "error"]
    if theirs is None:
        assert rejected, "jaxlib rejects the module: so must verify"
        return
    assert not rejected, rejected[0].message
    assert ours(text, "canonicalize") == theirs


RESHARD_TWICE = """sdy.mesh @m = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = sdy.reshard %arg0 <@m, [{"x"}]> : tensor<8xf32>
  %1 = sdy.reshard %0 <@m, [{"y"}]> : tensor<8xf32>
  %2 = sdy.reshard %arg0 <@m, [{"y"}]> : tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}"""


@pytest.mark.parametrize("options", [
    "", "enable-patterns=sdy-reshard", "enable-patterns=sdy-collective", "disable-patterns=sdy-reshard",
    "enable-patterns=ReshardOfReshardPattern", "disable-patterns=ReshardCommonSubexpressionEliminationPattern",
    "disable-patterns={mlir::sdy::(anonymous namespace)::ReshardOfReshardPattern}",
    "enable-patterns=mlir::sdy::ReshardOfReshardPattern", "enable-patterns=NoSuchPattern"])
def test_patterns_are_selected_by_label_or_name_as_in_jaxlib(options):
    flag = "canonicalize" + (f"={options}" if options else "")
    theirs = jaxlib(RESHARD_TWICE, f"builtin.module(canonicalize{{{options}}})" if options
                    else "builtin.module(canonicalize)")
    assert ours(RESHARD_TWICE, flag) == theirs


def test_stablehlo_ops_are_not_folded():
    text = """func.func @f(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xi32>) {
  %c = stablehlo.constant dense<0.0> : tensor<8xf32>
  %0 = stablehlo.add %arg0, %c : tensor<8xf32>
  %1 = stablehlo.reshape %arg0 : (tensor<8xf32>) -> tensor<8xf32>
  %c1 = stablehlo.constant dense<2> : tensor<8xi32>
  %2 = stablehlo.add %c1, %c1 : tensor<8xi32>
  return %0, %1, %2 : tensor<8xf32>, tensor<8xf32>, tensor<8xi32>
}"""
    theirs = jaxlib(text, "builtin.module(canonicalize)")
    assert "stablehlo.add %arg0" in theirs and "stablehlo.reshape" in theirs
    assert ours(text, "canonicalize") == theirs


HEAD = """sdy.mesh @mesh = <["a"=2]>
func.func private @g(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}
"""
INNER = """%1 = sdy.manual_computation(%arg1) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>]
      manual_axes={} (%arg2: tensor<4xf32>) {
      BODY
      sdy.return %2 : tensor<4xf32>
    } : (tensor<4xf32>) -> tensor<4xf32>"""
IN_FUNC = """func.func @f(%arg1: tensor<4xf32>) -> tensor<4xf32> {
  INNER
  return %1 : tensor<4xf32>
}"""
IN_MANUAL = """func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>]
      manual_axes={"a"} (%arg1: tensor<4xf32>) {
    INNER
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}"""


def _nested(body: str, outer: str) -> str:
    """A redundant manual computation (no manual axes) holding ``body`` (making %2 from %arg2),
    inside a manual computation, or directly in the function when ``outer`` is ``func``."""
    holder = IN_FUNC if outer == "func" else IN_MANUAL
    return HEAD + holder.replace("INNER", INNER.replace("BODY", body))


@pytest.mark.parametrize(("body", "outer", "inlined"), [
    ("%2 = stablehlo.negate %arg2 : tensor<4xf32>", "sdy.manual_computation", True),
    ("%2 = chlo.erf %arg2 : tensor<4xf32> -> tensor<4xf32>", "sdy.manual_computation", True),
    ("%2 = sdy.reshard %arg2 <@mesh, [{}]> : tensor<4xf32>", "sdy.manual_computation", True),
    ("%2 = func.call @g(%arg2) : (tensor<4xf32>) -> tensor<4xf32>", "sdy.manual_computation", False),
    ("%2 = stablehlo.negate %arg2 : tensor<4xf32>", "func", False),
])
def test_a_redundant_manual_computation_is_inlined_where_jaxlibs_mlir_can(body, outer, inlined):
    """jaxlib 0.12's context has no inliner interface for ``func``: ``inlineRegion`` fails for a body
    with a ``func.call`` or for a ``func.func`` holding the op (the op stays); ``sdy_opt``, and the
    CHECK lines of ir/manual_computation_canonicalization.mlir, inline those too."""
    text = _nested(body, outer)
    theirs = jaxlib(text, "builtin.module(canonicalize)")
    assert theirs.count("manual_axes={}") == (0 if inlined else 1)
    assert ours(text, "canonicalize") == theirs

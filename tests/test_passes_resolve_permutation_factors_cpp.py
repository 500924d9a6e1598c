"""``-sdy-resolve-permutation-factors`` against jaxlib 0.12's pass, byte for byte, function by function
over Shardy's test inputs for the pass (transforms/export/test/resolve_permutation_factors*.mlir),
with ``enable-halo-exchange`` true and false, and on drawn modules after jaxlib's propagation and
full ``sdy-insert-explicit-reshards`` (the executable partitioner pipeline's first step).

jaxlib 0.12's halo exchange is newer than the test files' and ours follows it: it computes the
device's index in its group first, in i32 (``stablehlo.convert ... -> tensor<i32>``, or an i32 table
indexed by the ui32 id), and masks each neighbour's shard it fetched with the padding value where the
neighbour does not exist (``stablehlo.compare GE``/``LT``, ``broadcast_in_dim``, ``stablehlo.select``;
the test files' commit kept what the collective permute left there, zeros, so a pad whose padding
value is not zero came out wrong at the edge devices).  The test files' CHECK lines want the device
id in i64 and the collective permute's result concatenated as it is: FileCheck rejects jaxlib's
output and ours in the same functions (``CHECK_LINES_OLDER``; pinned in
tests/test_conformance_pins_jaxlib012.py)."""
from __future__ import annotations

import re
import subprocess

import pytest
from conftest import conformance_path, find_filecheck
from cpp_oracle import FAILED, ours
from hypothesis import HealthCheck, Phase
from test_passes_explicit_reshards_cpp import Jaxlib, per_function

import shardy_py
from shardy_py.strategies import propagation_module_texts

pytest.importorskip("jax", reason="the oracle is the C++ Shardy in jaxlib (pip install 'jax==0.12.0.1')")

ROOT = conformance_path()
TESTS = ROOT / "transforms" / "export" / "test" if ROOT else None
MAIN = "resolve_permutation_factors.mlir"
REPLICA_ID = "resolve_permutation_factors/resolve_permutation_factors_replica_id.mlir"
PASS = "sdy-resolve-permutation-factors"
#: The functions whose halo exchange jaxlib 0.12 builds otherwise than the test files (module docstring).
CHECK_LINES_OLDER = {
    "pad_single_left_hop", "pad_multiple_left_hops", "pad_single_right_hop", "pad_two_direction_hops",
    "pad_multidim_with_hops", "pad_replicated_negative_low_padding", "pad_large_low_pad_within_one_hop",
    "pad_replicated_negative_low_and_positive_high", "pad_sharded_indivisible_interior_pad",
    "pad_replicated_negative_high_padding", "pad_sharded_indivisible_interior_low_and_high",
    "reshape_1d_to_2d_split", "reshape_2d_split_with_unrelated_axis", "reshape_1d_to_2d_split_gap_2",
    "reshape_1d_to_3d_split", "reshape_two_splitting_groups", "reshape_1d_to_2d_split_custom_device_ids",
    "slice_partition_partial_dim_with_communication", "slice_multidim_mixed", "slice_multiple_hops_shift",
    "pad_single_left_hop_replica_id",
}
RUNS = [(MAIN, "enable-halo-exchange=false"), (MAIN, "enable-halo-exchange=true"),
        (REPLICA_ID, "enable-halo-exchange=true replica-count=8 partition-count=1"),
        (REPLICA_ID, "enable-halo-exchange=false replica-count=8 partition-count=1")]


@pytest.fixture(scope="module")
def jaxlib():
    worker = Jaxlib()
    yield worker
    worker.close()


def pipeline(options: str) -> str:
    return f"builtin.module({PASS}{{{options}}})"


def function_name(piece: str) -> str:
    return piece.split("func.func @", 1)[1].split("(", 1)[0]


@pytest.mark.parametrize("relative,options", RUNS)
def test_resolve_permutation_factors_matches_jaxlib_on_shardys_tests(relative, options, jaxlib):
    if TESTS is None:
        pytest.skip("Shardy's pass tests live in the conformance corpus (set SHARDY_CONFORMANCE)")
    halo = "enable-halo-exchange=true" in options
    masked = 0
    for piece in per_function((TESTS / relative).read_text()):
        assert str(shardy_py.parse(piece)) == jaxlib.run(piece, "builtin.module()")
        theirs = jaxlib.run(piece, pipeline(options))
        assert theirs not in ("crashed", "unread", FAILED)
        assert ours(piece, f"{PASS}={options}") == theirs, piece
        masked += "stablehlo.select" in theirs and function_name(piece) in CHECK_LINES_OLDER
    assert (masked > 0) == halo


def _filecheck_failures(filecheck: str, path, prefixes: str, output: str) -> set[str]:
    """The functions (CHECK-LABEL sections) where FileCheck rejects ``output``."""
    lines = path.read_text().splitlines()
    labels = [(i + 1, re.search(r"func @(\w+)", line).group(1)) for i, line in enumerate(lines)
              if "CHECK-LABEL" in line]
    result = subprocess.run([filecheck, str(path), f"--check-prefixes={prefixes}"], input=output,
                            capture_output=True, text=True)
    failed = set()
    for number in re.findall(rf"{re.escape(path.name)}:(\d+):\d+: error:", result.stderr):
        failed.add(max((label for label in labels if label[0] <= int(number)), default=(0, "?"))[1])
    return failed


def test_filecheck_rejects_jaxlib_and_ours_where_the_check_lines_are_older(jaxlib):
    """The evidence for ``CHECK_LINES_OLDER``: with halo exchange, the test files' CHECK lines reject
    jaxlib 0.12's output in those functions only (every function but one, whose CHECK lines say
    nothing of its inner halo exchange), and ours in the same ones."""
    filecheck = find_filecheck()
    if TESTS is None or filecheck is None:
        pytest.skip("needs the conformance corpus (SHARDY_CONFORMANCE) and FileCheck")
    path = TESTS / MAIN
    text = path.read_text()
    theirs = jaxlib.run(text, pipeline("enable-halo-exchange=true"))
    failed = _filecheck_failures(filecheck, path, "CHECK,HALO", theirs)
    assert failed == CHECK_LINES_OLDER - {"reshape_two_splitting_groups", "pad_single_left_hop_replica_id"}
    assert _filecheck_failures(filecheck, path, "CHECK,HALO", ours(text, f"{PASS}=enable-halo-exchange=true")) == failed
    replica = TESTS / REPLICA_ID
    options = "enable-halo-exchange=true replica-count=8 partition-count=1"
    assert _filecheck_failures(filecheck, replica, "CHECK", jaxlib.run(replica.read_text(), pipeline(options))) == {
        "pad_single_left_hop_replica_id"}
    assert _filecheck_failures(filecheck, replica, "CHECK", ours(replica.read_text(), f"{PASS}={options}")) == {
        "pad_single_left_hop_replica_id"}


def test_resolve_permutation_factors_matches_jaxlib_on_drawn_modules(jaxlib):
    """Drawn modules (pads, slices, reshapes, ... whose shardings do not always divide them) after
    jaxlib's propagation and full explicit reshards, both options; with halo exchange, a module
    whose halo code reads the device id included."""
    from hypothesis import given, settings
    from hypothesis import seed as hseed

    front = "builtin.module(sdy-propagation-pipeline,func.func(sdy-insert-explicit-reshards{enable-full-version=true}))"
    counts = {"unchanged": 0, "changed": 0, "halo": 0, "skipped": 0}

    def case(text: str) -> None:
        start = jaxlib.run(text, front)
        if start in ("crashed", "unread", FAILED) or str(shardy_py.parse(start)) != jaxlib.run(
                start, "builtin.module()"):
            counts["skipped"] += 1
            return
        for options in ("enable-halo-exchange=false", "enable-halo-exchange=true"):
            theirs = jaxlib.run(start, pipeline(options))
            assert theirs != "crashed", start
            mine = ours(start, f"{PASS}={options}")
            assert mine == theirs, (options, start)
            if "_id : tensor<ui32>" in theirs:
                counts["halo"] += 1
            else:
                counts["changed" if mine != str(shardy_py.parse(start)) else "unchanged"] += 1

    cfg = settings(deadline=None, database=None, suppress_health_check=list(HealthCheck), max_examples=120,
                   phases=[Phase.generate])
    hseed(20261128)(cfg(given(propagation_module_texts())(case)))()
    print(counts)
    assert counts["changed"] >= 1 and counts["halo"] >= 1, counts

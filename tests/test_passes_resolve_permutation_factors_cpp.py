"""``-sdy-resolve-permutation-factors`` against jaxlib 0.12's pass, byte for byte, function by function
over Shardy's test inputs for the pass (transforms/export/test/resolve_permutation_factors*.mlir),
with ``enable-halo-exchange`` true and false, and on drawn modules after jaxlib's propagation and
full ``sdy-insert-explicit-reshards`` (the executable partitioner pipeline's first step).

jaxlib 0.12's halo exchange is newer than the test files' (``HEAD_WINS``): it computes the device's
index in its group first, in i32 (``stablehlo.convert ... -> tensor<i32>``), and masks each
neighbour's shard it fetched with the padding value where the neighbour does not exist
(``stablehlo.compare GE``/``LT``, ``broadcast_in_dim``, ``stablehlo.select``).  The test files'
CHECK lines want the device id in i64 (resolve_permutation_factors_replica_id.mlir:
``stablehlo.convert %[[RID]] : (tensor<ui32>) -> tensor<i64>``) and the collective permute's
result concatenated as it is (resolve_permutation_factors.mlir: ``stablehlo.concatenate %[[CP]],
%[[ARG1]]``), so we follow the test files on that one code path.  Both print the same outside
the manual computations' bodies, and the same ops inside them once jaxlib's masks are left out and
the device id's integer type ignored (``same_but_halo_code``); a test shows FileCheck rejecting
jaxlib's output exactly in those functions, and accepting ours."""
from __future__ import annotations

import re
import subprocess
from collections import Counter

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
#: The functions whose halo exchange jaxlib 0.12 builds differently (module docstring).
HEAD_WINS = {
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


def without_halo_bodies(text: str) -> str:
    """``text`` without the bodies of the manual computations holding a halo exchange (those
    reading the device id), SSA names made alike."""
    out, body, keep = [], [], True
    for line in text.splitlines():
        if keep and "sdy.manual_computation(" in line:
            keep, body = False, []
            out.append(line)
            continue
        if not keep:
            if re.match(r"\s*} : \(", line):
                keep = True
                if not any("_id : tensor<ui32>" in b for b in body):
                    out.extend(body)
                out.append(line)
            else:
                body.append(line)
            continue
        out.append(line)
    return re.sub(r"%[\w#]+", "%v", "\n".join(out))


def halo_bodies(text: str, unmask: bool = False) -> list[Counter]:
    """The ops of each manual computation's body, as a multiset of lines with SSA names made alike,
    i32/i64/ui32 alike and converts between them left out; with ``unmask``, jaxlib 0.12's masks of
    the fetched neighbours (a ``compare`` with its constant, ``broadcast_in_dim``, ``select``) too."""
    out, body = [], None
    for line in text.splitlines():
        if "sdy.manual_computation(" in line:
            body = []
        elif body is not None and re.match(r"\s*} : \(", line):
            out.append(body)
            body = None
        elif body is not None:
            body.append(line.strip())
    result = []
    for lines in out:
        drop = set()
        if unmask:
            defined = {m.group(1): i for i, m in enumerate(re.match(r"(%[\w#]+) =", x) for x in lines) if m}
            for i, x in enumerate(lines):
                compare = re.match(r"%[\w#]+ = stablehlo\.compare \w+, %[\w#]+, (%[\w#]+)", x)
                if compare:
                    drop |= {i, defined[compare.group(1)]}
                if re.match(r"%[\w#]+ = stablehlo\.(broadcast_in_dim|select) ", x):
                    drop.add(i)
        normalised = (re.sub(r"u?i(32|64)([>,])", r"iXX\2", re.sub(r"%[\w#]+", "%v", x))
                      for i, x in enumerate(lines) if i not in drop)
        result.append(Counter(x for x in normalised if x != "%v = stablehlo.convert %v : (tensor<iXX>) -> tensor<iXX>"))
    return result


def same_but_halo_code(mine: str, theirs: str) -> bool:
    """Whether ours and jaxlib's print the same but for the device code of the halo exchanges:
    the same outside them, and the same ops in them once jaxlib's masks are left out and the
    integer type of the device id is ignored (only the order differs)."""
    return (without_halo_bodies(mine) == without_halo_bodies(theirs)
            and halo_bodies(mine) == halo_bodies(theirs, unmask=True))


def function_name(piece: str) -> str:
    return piece.split("func.func @", 1)[1].split("(", 1)[0]


@pytest.mark.parametrize("relative,options", RUNS)
def test_resolve_permutation_factors_matches_jaxlib_on_shardys_tests(relative, options, jaxlib):
    if TESTS is None:
        pytest.skip("Shardy's pass tests live in the conformance corpus (set SHARDY_CONFORMANCE)")
    halo = "enable-halo-exchange=true" in options
    counts = {"same": 0, "test files win": 0}
    for piece in per_function((TESTS / relative).read_text()):
        assert str(shardy_py.parse(piece)) == jaxlib.run(piece, "builtin.module()")
        theirs = jaxlib.run(piece, pipeline(options))
        assert theirs not in ("crashed", "unread", FAILED)
        mine = ours(piece, f"{PASS}={options}")
        if halo and function_name(piece) in HEAD_WINS:
            assert "-> tensor<i64>" in mine and "stablehlo.select" not in mine
            assert "-> tensor<i32>" in theirs and "stablehlo.select" in theirs
            assert same_but_halo_code(mine, theirs), piece
            counts["test files win"] += 1
            continue
        assert mine == theirs, piece
        counts["same"] += 1
    assert sum(counts.values()) >= 1
    if not halo:
        assert counts["test files win"] == 0


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


def test_filecheck_rejects_jaxlib_only_where_the_test_files_win(jaxlib):
    """The evidence for ``HEAD_WINS``: with halo exchange, the test files' CHECK lines reject
    jaxlib 0.12's output in those functions only (every function but one, whose CHECK lines say
    nothing of its inner halo exchange), and accept ours."""
    filecheck = find_filecheck()
    if TESTS is None or filecheck is None:
        pytest.skip("needs the conformance corpus (SHARDY_CONFORMANCE) and FileCheck")
    path = TESTS / MAIN
    text = path.read_text()
    theirs = jaxlib.run(text, pipeline("enable-halo-exchange=true"))
    failed = _filecheck_failures(filecheck, path, "CHECK,HALO", theirs)
    assert failed == HEAD_WINS - {"reshape_two_splitting_groups", "pad_single_left_hop_replica_id"}
    assert not _filecheck_failures(filecheck, path, "CHECK,HALO", ours(text, f"{PASS}=enable-halo-exchange=true"))
    replica = TESTS / REPLICA_ID
    options = "enable-halo-exchange=true replica-count=8 partition-count=1"
    assert _filecheck_failures(filecheck, replica, "CHECK", jaxlib.run(replica.read_text(), pipeline(options))) == {
        "pad_single_left_hop_replica_id"}


def test_resolve_permutation_factors_matches_jaxlib_on_drawn_modules(jaxlib):
    """Drawn modules (pads, slices, reshapes, ... whose shardings do not always divide them) after
    jaxlib's propagation and full explicit reshards, both options; with halo exchange, a module
    whose halo code reads the device id is compared outside the manual computations' bodies."""
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
            if "_id : tensor<ui32>" in theirs:
                assert same_but_halo_code(mine, theirs), (options, start)
                counts["halo"] += 1
                continue
            assert mine == theirs, (options, start)
            counts["changed" if mine != str(shardy_py.parse(start)) else "unchanged"] += 1

    cfg = settings(deadline=None, database=None, suppress_health_check=list(HealthCheck), max_examples=120,
                   phases=[Phase.generate])
    hseed(20261128)(cfg(given(propagation_module_texts())(case)))()
    print(counts)
    assert counts["changed"] >= 1 and counts["halo"] >= 1, counts

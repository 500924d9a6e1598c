"""The conformance cases where jaxlib 0.12, the Shardy users run, departs from the test files at
``SHARDY_COMMIT`` (a0277a83, 2026-08-22) and ours follows jaxlib.

jaxlib 0.12's Shardy is newer than the test files: it has passes and options added up to that commit
(``sdy-resolve-single-device-sharding`` and ``sdy-per-instruction-partitioning{enable-halo-exchange}``,
both of August 2026) and passes the test files' Shardy lacks (``sdy-optimize-collectives``).  Where the
two disagree, jaxlib 0.12 wins; each such conformance case is pinned here with its evidence:

* a pass test (``score.py``'s ``passes_*`` rows): our output fails the file's FileCheck at the pinned
  CHECK line and nowhere before it, and on the chunk holding that line our output is jaxlib's, byte for
  byte (or both fail), so jaxlib fails the same CHECK line;
* a verifier test (the ``reject`` row): jaxlib 0.12 accepts the chunk the file calls invalid, and so
  does ``verify``.
"""
from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import conformance_path
from cpp_oracle import FAILED, cpp, shared_worker

import shardy_py
from shardy_py.cli import split_chunks
from shardy_py.passes.manager import PassError, PassManager

pytest.importorskip("jax", reason="the evidence is jaxlib 0.12's output (pip install 'jax==0.12.0.1')")


def conformance() -> Path:
    """The corpus as an absolute path (the CLI runs below start elsewhere; the README's is relative)."""
    root = conformance_path()
    if root is None:
        pytest.skip("SHARDY_CONFORMANCE does not point at ../shared/conformance")
    return root


def filecheck() -> str:
    for candidate in ("FileCheck", *sorted(Path("/usr/lib").glob("llvm-*/bin/FileCheck"), reverse=True)):
        found = candidate if Path(str(candidate)).is_absolute() else None
        if found is None:
            from shutil import which

            found = which(str(candidate))
        if found:
            return str(found)
    pytest.skip("FileCheck is not installed (Debian llvm-14-tools)")


#: file (under transforms/), its RUN line's flags for ``opt``, jaxlib's pipeline for the same passes, the
#: CHECK line jaxlib 0.12 fails, and what differs.
PASS_PINS = [
    ("export/test/insert_explicit_reshards/reshape.mlir", ["-sdy-insert-explicit-reshards=enable-full-version=true"],
     "builtin.module(func.func(sdy-insert-explicit-reshards{enable-full-version=true}))", 359,
     "@reshape_size_1_dimensions_2: 0.12's reshape rule makes a size-1 dimension a need-replication factor, so "
     "the operand is resharded to replicated first"),
    ("export/test/reshard_to_collectives.mlir", ["-sdy-reshard-to-collectives"],
     "builtin.module(func.func(sdy-reshard-to-collectives))", 648,
     "@all_to_all_axes_at_src_and_tgt_out_of_order: dimension 0 (16 on 4 devices) is to be on 32, padded to "
     "32; 0.12 gathers such a dimension whole before anything is moved into it, so it gathers all and slices"),
    ("propagation/test/op_sharding_rule_registry.mlir", ["-sdy-populate-op-sharding-rules"],
     "builtin.module(func.func(sdy-populate-op-sharding-rules))", 583,
     "0.12's sharding rules of reshape, dynamic_update_slice and convolution"),
    ("propagation/test/propagation_pipeline.mlir", ["-split-input-file", "-sdy-propagation-pipeline"],
     "builtin.module(sdy-propagation-pipeline)", 1197,
     "0.12 checks a func.call's unreduced axes against its callee's results (\"unreduced axes mismatch\"): "
     "the @foo call chunk fails after propagation"),
    ("propagation/debugging/test/sharding_origins.mlir",
     ["-split-input-file", "-sdy-add-data-flow-edges", "-sdy-apply-sharding-constraints=debug-sharding-origins=true",
      "-sdy-aggressive-propagate=debug-sharding-origins=true",
      "-sdy-sink-data-flow-edges=sink-debug-sharding-origins=true"],
     "builtin.module(sdy-add-data-flow-edges, sdy-apply-sharding-constraints{debug-sharding-origins=true}, "
     "sdy-aggressive-propagate{debug-sharding-origins=true}, "
     "func.func(sdy-sink-data-flow-edges{sink-debug-sharding-origins=true}))", 386,
     "0.12 writes one sharding-origins entry per data-flow edge ({} for the while's token result)"),
    ("export/test/resolve_permutation_factors.mlir", ["-sdy-resolve-permutation-factors=enable-halo-exchange=true"],
     "builtin.module(sdy-resolve-permutation-factors{enable-halo-exchange=true})", 90,
     "@pad_single_left_hop (second RUN line, HALO): 0.12 computes the device's shard index first, in i32, and masks "
     "each fetched neighbour's shard with the padding value where that neighbour does not exist (compare, "
     "broadcast_in_dim, select), so the concatenate takes the select, not the collective permute"),
    ("export/test/resolve_permutation_factors/resolve_permutation_factors_replica_id.mlir",
     ["-sdy-resolve-permutation-factors=enable-halo-exchange=true replica-count=8 partition-count=1"],
     "builtin.module(sdy-resolve-permutation-factors{enable-halo-exchange=true replica-count=8 partition-count=1})",
     13, "@pad_single_left_hop_replica_id: 0.12 reads the replica id first (convert to i32) and masks the fetched "
     "neighbour's shard"),
    ("export/test/resolve_single_device_sharding.mlir", ["-sdy-resolve-single-device-sharding"],
     "builtin.module(func.func(sdy-resolve-single-device-sharding))", 20,
     "0.12 compares the ui32 device id with a ui32 constant (no convert to i64)"),
    ("export/test/convert_global_to_local/replica_id.mlir",
     ["-sdy-convert-global-to-local=replica-count=8 partition-count=1"],
     "builtin.module(sdy-convert-global-to-local{enable-rgv3=false replica-count=8 partition-count=1})", 10,
     "0.12 indexes its i32 offset tables with the ui32 device id as it is (no convert to i64)"),
    ("export/test/convert_global_to_local/sdy_all_slice.mlir", ["-sdy-convert-global-to-local"],
     "builtin.module(sdy-convert-global-to-local{enable-rgv3=false})", 13,
     "0.12 indexes its i32 offset tables with the ui32 device id as it is (no convert to i64)"),
    ("export/test/convert_global_to_local/sdy_constant.mlir", ["-sdy-convert-global-to-local"],
     "builtin.module(sdy-convert-global-to-local{enable-rgv3=false})", 20,
     "0.12 indexes its i32 offset tables with the ui32 device id as it is (no convert to i64)"),
    ("export/test/convert_global_to_local/sdy_reduce_scatter.mlir", ["-sdy-convert-global-to-local"],
     "builtin.module(sdy-convert-global-to-local{enable-rgv3=false})", 69,
     "0.12 indexes its i32 offset tables with the ui32 device id as it is (no convert to i64)"),
    ("export/test/convert_global_to_local/stablehlo_gather.mlir", ["-sdy-convert-global-to-local"],
     "builtin.module(sdy-convert-global-to-local{enable-rgv3=false})", 74,
     "0.12 indexes its i32 offset tables with the ui32 device id as it is (no convert to i64)"
     "; the index bounds it broadcasts are marked replicated"),
    ("export/test/convert_global_to_local/stablehlo_iota.mlir", ["-sdy-convert-global-to-local"],
     "builtin.module(sdy-convert-global-to-local{enable-rgv3=false})", 29,
     "0.12 indexes its i32 offset tables with the ui32 device id as it is (no convert to i64)"),
    ("export/test/convert_global_to_local/stablehlo_pad.mlir", ["-sdy-convert-global-to-local"],
     "builtin.module(sdy-convert-global-to-local{enable-rgv3=false})", 74,
     "0.12 indexes its i32 offset tables with the ui32 device id as it is (no convert to i64)"),
    ("export/test/convert_global_to_local/stablehlo_scatter.mlir", ["-sdy-convert-global-to-local"],
     "builtin.module(sdy-convert-global-to-local{enable-rgv3=false})", 22,
     "0.12 indexes its i32 offset tables with the ui32 device id as it is (no convert to i64)"
     "; the leader's predicate is a scalar select (the identity broadcast first)"),
]


def _ours(text: str, flags: list[str]) -> str:
    module = shardy_py.parse(text)
    try:
        PassManager.parse([f for f in flags if f != "-split-input-file"]).run(module)
    except PassError:
        return FAILED
    return str(module)


def _first_check_failure(path: Path, cwd: Path) -> int | None:
    """The line of the first CHECK that fails when the file's RUN lines run, in order, with our ``opt``
    for sdy_opt (None when all pass)."""
    run_lines = [line.split("RUN:", 1)[1].strip() for line in path.read_text().splitlines()
                 if line.startswith("// RUN:")]
    for run_line in run_lines:
        assert run_line.startswith("sdy_opt %s ")
        cmd = (run_line.replace("%s", shlex.quote(str(path))).replace("FileCheck", shlex.quote(filecheck()), 1)
               .replace("sdy_opt", f"{shlex.quote(sys.executable)} -m shardy_py opt", 1))
        run = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=cwd, capture_output=True, text=True,
                             timeout=600)
        if run.returncode == 0:
            continue
        m = re.search(rf"{re.escape(path.name)}:(\d+):\d+: error:", run.stderr)
        assert m, run.stderr[-2000:]
        return int(m.group(1))
    return None


def _chunk_holding(text: str, line: int, split: bool) -> str:
    if not split:
        return text
    chunks = split_chunks(text)
    start, chunk = max((s, c) for c, s in chunks if s <= line)
    return "\n" * (start - 1) + chunk


@pytest.mark.parametrize(("relative", "flags", "pipeline", "line", "why"), PASS_PINS,
                         ids=[p[0].rsplit("/", 1)[1] for p in PASS_PINS])
def test_pass_test_fails_where_jaxlib_012_departs_from_the_check_lines(relative, flags, pipeline, line, why):
    root = conformance()
    path = root / "transforms" / relative
    assert _first_check_failure(path, root) == line, why
    chunk = _chunk_holding(path.read_text(), line, "-split-input-file" in flags)
    assert _ours(chunk, flags) == cpp(chunk, pipeline), why


#: ir/ chunks the manifest calls invalid (at this line) that jaxlib 0.12 accepts, and why.
VERIFY_PINS = [
    ("ir/reshard_verification.mlir", 53, "an sdy.reshard may introduce 'max' unreduced axes"),
    ("ir/sharding_constraint_verification.mlir", 66, "an sdy.sharding_constraint may introduce 'max' unreduced axes"),
    ("ir/collective_verification.mlir", 1108, "sdy.replicated_to_unreduced may make 'max' unreduced axes"),
    ("ir/collective_verification.mlir", 1118, "sdy.sharded_to_unreduced may make 'max' unreduced axes"),
]


@pytest.mark.parametrize(("relative", "error_line", "why"), VERIFY_PINS, ids=[f"{p[0]}:{p[1]}" for p in VERIFY_PINS])
def test_chunk_the_files_call_invalid_is_accepted_by_jaxlib_012_and_verify(relative, error_line, why):
    root = conformance()
    manifest = json.loads((root / "manifest.json").read_text())
    entry = next(e for e in manifest if e["file"] == relative and e.get("error_line") == error_line)
    assert entry["expect"] == "invalid"
    text, _start = split_chunks((root / relative).read_text())[entry["chunk"]]
    answer = shared_worker().call("module", text=text, pipeline="builtin.module()")
    assert answer.get("ok"), (why, answer.get("error"))
    assert shardy_py.verify(shardy_py.parse(text)) == [], why

"""Mutants of real modules judged by jaxlib 0.12 and by us (``benchmarks/differential_structure.py``,
a short run): the same verdict and, where both reject, the first error on the same line.

Seeds: the Shardy and StableHLO test chunks of the conformance corpus that jaxlib accepts. Every
valid seed must verify clean; no mutant may raise an internal error; a renamed use gets jaxlib's
verdict and line, a deleted line jaxlib's verdict. The other mutations
(a cut or swapped line, a changed type, number or op name) also tear attribute and type text, where
the error's line depends on the exact token order of MLIR's parser: their structural disagreements
stay under the rate measured when this test was written (see the README's fuzzing section).
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

CASES = 2500
OTHER_VERIFIERS = ("sdy_verifier", "stablehlo_op_verifier")


@pytest.fixture(scope="module")
def run(conformance_dir):
    pytest.importorskip("jax", reason="the oracle is jaxlib 0.12 (pip install 'jax==0.12.0.1')")
    import differential_structure as ds

    root = conformance_dir
    jaxlib = ds.Jaxlib()
    try:
        r = ds.Run(ds.seed_texts(root), jaxlib)
        rng = random.Random(26)
        while r.counts["cases"] < CASES:
            r.case(rng)
    finally:
        jaxlib.stop()
    return r


def _examples(run, kinds, mutations=None) -> list[str]:
    return [f"{e['seed']} {e['mutation']}: ours {e['ours']} jaxlib {e['jaxlib']}" for e in run.examples
            if e["kind"] in kinds and (mutations is None or e["mutation"] in mutations)]


def test_every_valid_seed_verifies_clean(run) -> None:
    """(Except where jaxlib 0.12's sdy or StableHLO op verifiers differ from ours: other rows' work.)"""
    assert len(run.seeds) > 1000
    assert [e for e in run.examples if e["mutation"] == "seed" and e["kind"] not in OTHER_VERIFIERS] == []


def test_no_internal_error(run) -> None:
    assert _examples(run, ("internal_error",)) == []


def test_renamed_uses_get_jaxlibs_verdict_and_line(run) -> None:
    assert _examples(run, ("structure", "syntax_error_line"), ("rename_value",)) == []


def test_deleted_definitions_get_jaxlibs_verdict(run) -> None:
    assert _examples(run, ("structure",), ("delete_line",)) == []


def test_structural_disagreements_stay_rare(run) -> None:
    assert run.counts["agree"] > 0.85 * CASES
    assert run.counts["structure"] <= 0.015 * CASES, "\n".join(_examples(run, ("structure",))[:20])

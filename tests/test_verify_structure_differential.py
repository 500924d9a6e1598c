"""Mutants of real modules judged by jaxlib 0.12 and by us (``benchmarks/differential_structure.py``,
a short run): the same verdict and, where both reject, the first error on the same line.

Seeds: the Shardy and StableHLO test chunks of the conformance corpus that jaxlib accepts. Every
valid seed verifies clean (but the pinned ones, annotated invalid at SHARDY_COMMIT); no mutant raises an
internal error; a renamed use or a deleted line gets jaxlib's verdict and line; and the run as a whole
keeps to the disagreement rate measured on it (the README's fuzzing section lists what is left: mostly the
line of a syntax error in text that is not MLIR, where MLIR's token-by-token parser stops on another line
than our skeleton scan).
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

CASES = 2500


@pytest.fixture(scope="module")
def ds():
    pytest.importorskip("jax", reason="the oracle is jaxlib 0.12 (pip install 'jax==0.12.0.1')")
    import differential_structure

    return differential_structure


@pytest.fixture(scope="module")
def run(conformance_dir, ds):
    jaxlib = ds.Jaxlib()
    try:
        r = ds.Run(ds.seed_texts(conformance_dir), jaxlib)
        rng = random.Random(26)
        while r.counts["cases"] < CASES:
            r.case(rng)
    finally:
        jaxlib.stop()
    return r


def _examples(run, ds, mutations=None, verdict_only=False) -> list[str]:
    return [f"{e['seed']} {e['mutation']}: ours {e['ours']} jaxlib {e['jaxlib']}" for e in run.examples
            if e["kind"] not in ds.PINNED and (mutations is None or e["mutation"] in mutations)
            and (not verdict_only or e["ours"]["ok"] != e["jaxlib"]["ok"])]


def test_every_valid_seed_verifies_clean(run, ds) -> None:
    assert len(run.seeds) > 1000
    assert _examples(run, ds, ("seed",)) == []


def test_no_internal_error(run) -> None:
    assert run.counts["internal_error"] == 0


def test_renamed_uses_get_jaxlibs_verdict_and_line(run, ds) -> None:
    assert _examples(run, ds, ("rename_value",)) == []


def test_deleted_lines_get_jaxlibs_verdict(run, ds) -> None:
    assert _examples(run, ds, ("delete_line",), verdict_only=True) == []


def test_verdicts_agree(run, ds) -> None:
    assert _examples(run, ds, verdict_only=True) == []


def test_disagreements_stay_under_the_measured_rate(run, ds) -> None:
    assert ds.disagreements(run.counts) <= 0.01 * CASES, "\n".join(_examples(run, ds)[:20])  # (100k run: 0.26%)

"""Where jaxlib 0.12 and Shardy's test files at ``SHARDY_COMMIT`` disagree on a whole pipeline run,
0.12 is newer and wins; each such case is pinned here with the evidence.

``transforms/propagation/test/propagation_pipeline.mlir``, the chunk with ``@foo`` called at line
1197: the file's CHECK lines expect the pipeline to finish, but jaxlib 0.12's ``func.call`` verifier
(newer than ``SHARDY_COMMIT``) rejects the call after propagation: "'func.call' op has unreduced axes
mismatch for 'x' at call result 0." at 1197.  Ours fails the same way at the same line, so score.py's
``passes_propagation`` row counts the file as a miss.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

import shardy_py
from shardy_py.passes.manager import PassContext, PassError, PassManager

CONFORMANCE = os.environ.get("SHARDY_CONFORMANCE")
PIPELINE_TEST = "transforms/propagation/test/propagation_pipeline.mlir"
CALL_LINE = 1197
MESSAGE = "'func.call' op has unreduced axes mismatch for 'x' at call result 0."

pytestmark = pytest.mark.skipif(not CONFORMANCE, reason="set SHARDY_CONFORMANCE to ../shared/conformance")


def _chunk_at(line: int) -> str:
    """The ``// -----`` chunk holding ``line``, padded with newlines so its lines keep their numbers."""
    lines = (Path(CONFORMANCE) / PIPELINE_TEST).read_text().split("\n")
    cuts = [i for i, text in enumerate(lines) if text.startswith("// -----")]
    start = max([0] + [c + 1 for c in cuts if c < line - 1])
    end = min([c for c in cuts if c >= line - 1] + [len(lines)])
    return "\n" * start + "\n".join(lines[start:end])


def test_ours_rejects_the_call_after_propagation():
    ctx = PassContext()
    with pytest.raises(PassError):
        PassManager.parse(["-sdy-propagation-pipeline"]).run(shardy_py.parse(_chunk_at(CALL_LINE)), ctx)
    assert [(d.line, d.severity, d.message) for d in ctx.diagnostics if d.severity == "error"] == [
        (CALL_LINE, "error", MESSAGE)]


def test_jaxlib_rejects_the_call_after_propagation():
    pytest.importorskip("jax", reason="the oracle is jaxlib 0.12 (pip install 'jax==0.12.0.1')")
    from jaxlib_worker import shared_worker

    pipeline = "builtin.module(sdy-propagation-pipeline)"
    answer = shared_worker().call("module", text=_chunk_at(CALL_LINE), pipeline=pipeline)
    assert not answer["ok"] and answer["stage"] == "pipeline"
    assert f'"-":{CALL_LINE}:11: {MESSAGE}' in answer["error"]

"""Mutants of StableHLO's own test chunks that use the ops with regions, windows and collectives (and CHLO's):
one integer of the chunk changed (a dimension, a window size, a replica id, a dimension number...), judged by
our parser + verifier and by jaxlib 0.12's (in a child process: jaxlib can crash on odd input).

Checked: we never reject what jaxlib accepts, and where jaxlib's first error is one of these ops' verifiers,
we reject on its line (when jaxlib gives one).  ``SHARDY_VERIFY_MUTANTS`` sets the number of mutants (default 300)."""
from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

import shardy_py
from shardy_py.errors import ParseError

CORPUS = Path(os.environ.get("SHARDY_CONFORMANCE", "")) / "stablehlo"
_OPS = re.compile(r"stablehlo\.(reduce|reduce_window|select_and_scatter|sort|map|while|if|case|all_reduce|all_gather|"
                  r"all_to_all|reduce_scatter|collective_permute|collective_broadcast|collective_reduce|send|recv|"
                  r"infeed|async_start|async_done|custom_call|composite|batch_norm_\w+)\b|"
                  r"chlo\.(ragged_dot|top_k|scan|constant_like|mulhi|broadcast_\w+)\b")
_NUMBER = re.compile(r"(?<![\w#%.])(\d+)(?=[x>,\]: ])")

_JAXLIB = r"""
import json, re, sys
from jax._src.interpreters import mlir
from jax._src.lib.mlir import ir
ctx = mlir.make_ir_context()
ctx.allow_unregistered_dialects = True
out = []
for text in json.load(sys.stdin):
    try:
        ir.Module.parse(text, context=ctx)
        out.append([])
    except ir.MLIRError as e:
        out.append([[int(m.group(1)) if (m := re.search(r":(\d+):", str(d.location))) else 0, d.message]
                    for d in e.error_diagnostics])
json.dump(out, sys.stdout)
"""


def _chunks() -> list[str]:
    """The chunks of StableHLO's tests that jaxlib accepts and that use the ops under test."""
    out = []
    for oracle in sorted((CORPUS / "oracle").glob("**/*.jsonl")):
        source = CORPUS / "tests" / oracle.relative_to(CORPUS / "oracle").with_suffix("")
        if not source.exists():
            continue
        pieces = re.split(r"^// -----.*$", source.read_text(), flags=re.M)
        for line in oracle.read_text().splitlines():
            row = json.loads(line)
            if "pretty" in row and row["chunk"] < len(pieces) and _OPS.search(pieces[row["chunk"]]):
                out.append(pieces[row["chunk"]])
    return out


def _mutants(chunks: list[str], n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        text = rng.choice(chunks)
        numbers = list(_NUMBER.finditer(text))
        if not numbers:
            continue
        m = rng.choice(numbers)
        value = int(m.group(1))
        new = rng.choice([v for v in (0, 1, 2, 3, value + 1, max(value - 1, 0), 2 * value) if v != value])
        out.append(text[:m.start()] + str(new) + text[m.end():])
    return out


def _ours(text: str) -> list[int]:
    try:
        return [d.line for d in shardy_py.verify(shardy_py.parse(text)) if d.severity == "error"]
    except ParseError as e:
        return [e.line]


def test_mutants_agree_with_jaxlib() -> None:
    if not (CORPUS / "oracle").is_dir():
        pytest.skip("needs the conformance corpus (set SHARDY_CONFORMANCE)")
    pytest.importorskip("jax", reason="the oracle is MLIR in jaxlib (pip install 'jax==0.12.0.1')")
    mutants = _mutants(_chunks(), int(os.environ.get("SHARDY_VERIFY_MUTANTS", "300")), seed=26)
    run = subprocess.run([sys.executable, "-c", _JAXLIB], input=json.dumps(mutants), capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    theirs = json.loads(run.stdout)
    false_rejects, missed = [], []
    for text, errors in zip(mutants, theirs, strict=True):
        ours = _ours(text)
        if not errors and ours:
            false_rejects.append((text, ours))
        elif errors and errors[0][0] and _OPS.search(errors[0][1].split(" op ")[0]) and errors[0][0] not in ours:
            missed.append((text, errors[0], ours))
    assert false_rejects == []
    assert missed == []

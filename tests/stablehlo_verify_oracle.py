"""Shared by the StableHLO op-verifier tests: our first error on a module, and jaxlib 0.12's (in a child process:
jaxlib can crash on odd input), as ``(line, message)``."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import shardy_py
from shardy_py.verify import verify

_JAXLIB = r"""
import json, re, sys
from jax._src.interpreters import mlir
from jax._src.lib.mlir import ir
ctx = mlir.make_ir_context()
out = {}
for name, text in json.load(sys.stdin).items():
    try:
        ir.Module.parse(text, context=ctx)
        out[name] = None
    except ir.MLIRError as e:
        d = e.error_diagnostics[0]
        m = re.search(r":(\d+):", str(d.location))
        out[name] = [int(m.group(1)) if m else 0, d.message]
json.dump(out, sys.stdout)
"""


def first_error(text: str) -> tuple[int, str] | None:
    """Our first diagnostic on ``text``: ``(line, message)``, None when it verifies clean (an attribute MLIR
    checks as it reads it fails the parse)."""
    try:
        module = shardy_py.parse(text)
    except shardy_py.ParseError as e:
        return (e.line, e.message)
    found = verify(module)
    return (found[0].line, found[0].message) if found else None


def jaxlib_first_errors(texts: dict[str, str]) -> dict[str, tuple[int, str] | None]:
    """jaxlib 0.12's first error per module (None: it parses and verifies); skips without jax."""
    pytest.importorskip("jax", reason="the oracle is jaxlib 0.12 (pip install 'jax==0.12.0.1')")
    r = subprocess.run([sys.executable, "-c", _JAXLIB], input=json.dumps(texts), capture_output=True, text=True,
                       timeout=600, cwd=Path(__file__).parent)
    assert r.returncode == 0, r.stderr[-2000:]
    return {k: (tuple(v) if v else None) for k, v in json.loads(r.stdout).items()}


def rule_tests(cases: dict[str, tuple[str, tuple[int, str]]], valid: dict[str, str]):
    """The three tests of a table of StableHLO verifier cases, for a test module to bind as its own:
    each case's first error is the expected (line, message); each valid module verifies clean; and
    jaxlib 0.12 gives the same first errors and accepts the valid modules."""

    @pytest.mark.parametrize("name", sorted(cases))
    def test_rule(name: str) -> None:
        text, expected = cases[name]
        assert first_error(text) == expected

    @pytest.mark.parametrize("name", sorted(valid))
    def test_valid_module_is_clean(name: str) -> None:
        assert first_error(valid[name]) is None

    def test_jaxlib_gives_the_same_errors() -> None:
        theirs = jaxlib_first_errors({**{k: v[0] for k, v in cases.items()}, **valid})
        assert {k: theirs[k] for k in cases} == {k: v[1] for k, v in cases.items()}
        assert {k: theirs[k] for k in valid} == dict.fromkeys(valid)

    return test_rule, test_valid_module_is_clean, test_jaxlib_gives_the_same_errors

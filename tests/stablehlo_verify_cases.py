"""Shared by the StableHLO verifier tests: verify a module with ours and with jaxlib's MLIR, each
giving the errors as ``(line, message)``."""
from __future__ import annotations

import re
import textwrap

import pytest

import shardy_py


def module(args: str, results: str, body: str) -> str:
    """``func.func @f(args) -> results`` around ``body`` (dedented); the op under test on line 2."""
    lines = textwrap.dedent(body).strip("\n").splitlines()
    return f"func.func @f({args}) -> {results} {{\n" + "".join(f"  {ln}\n" for ln in lines) + "}\n"


def ours(text: str) -> list[tuple[int, str]]:
    """Our verifier's errors."""
    return [(d.line, d.message) for d in shardy_py.verify(shardy_py.parse(text)) if d.severity == "error"]


def jaxlib(text: str) -> list[tuple[int, str]]:
    """jaxlib's MLIR parser + verifier errors (skips the test without jax)."""
    pytest.importorskip("jax", reason="the oracle is MLIR in jaxlib (pip install 'jax==0.12.0.1')")
    from jax._src.interpreters import mlir as jax_mlir
    from jax._src.lib.mlir import ir

    ctx = jax_mlir.make_ir_context()
    try:
        ir.Module.parse(text, context=ctx)
    except ir.MLIRError as e:
        out = []
        for d in e.error_diagnostics:
            m = re.search(r":(\d+):\d+", str(d.location))
            out.append((int(m.group(1)) if m else 0, d.message))
        return out
    return []


def check(text: str, message: str, line: int = 2) -> None:
    """Ours reports exactly ``message`` at ``line``; jaxlib's first error is the same."""
    assert ours(text) == [(line, message)]
    first = jaxlib(text)[:1]
    assert first == [(line, message)]

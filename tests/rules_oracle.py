"""The populate pass on both sides, for the differential rule tests: jaxlib's C++ Shardy (``cpp``)
and ours (``ours``), each giving the printed module after the pass, or ``FAILED``."""
from __future__ import annotations

import functools

from jax._src.interpreters import mlir as jax_mlir
from jax._src.lib.mlir import ir, passmanager

import shardy_py
from shardy_py.passes.manager import PassError, PassManager

PASS = "sdy-populate-op-sharding-rules"
#: Our flag -> the jaxlib pipeline running the same pass with the same option.
MODES = {
    PASS: f"builtin.module(func.func({PASS}))",
    f"{PASS}=conservative-propagation=true": f"builtin.module(func.func({PASS}{{conservative-propagation=true}}))",
}
#: What either side gives for a pass that fails: both must fail.
FAILED = "<the pass failed>"


@functools.cache
def _context() -> ir.Context:
    ctx = jax_mlir.make_ir_context()
    ctx.allow_unregistered_dialects = True
    return ctx


def cpp(text: str, pipeline: str) -> str:
    """jaxlib's module after ``pipeline`` (``FAILED`` when the pass fails)."""
    module = ir.Module.parse(text, context=_context())
    try:
        passmanager.PassManager.parse(pipeline, context=_context()).run(module.operation)
    except ir.MLIRError:
        return FAILED
    return module.operation.get_asm()


def ours(text: str, flag: str) -> str:
    """Our module after ``-flag`` (``FAILED`` when the pass fails)."""
    module = shardy_py.parse(text)
    try:
        PassManager.parse(["-" + flag]).run(module)
    except PassError:
        return FAILED
    return str(module)


def prints_as_mlir(text: str) -> bool:
    """Whether our plain print of ``text`` is MLIR's (else a difference after the pass could be the
    printer's, not the rules')."""
    return str(shardy_py.parse(text)) == cpp(text, "builtin.module()")

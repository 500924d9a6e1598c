"""The C++ Shardy in jaxlib as the oracle of the differential tests: a pass pipeline run on both
sides, jaxlib's ``PassManager`` (``cpp``) and ours (``ours``), each giving the printed module after
it, or ``FAILED``; and the JAX programs of tests/data/jax_programs lowered to compare them on.

jax is imported only when the oracle is asked (a test module that also runs without jax imports
this freely): ``cpp`` skips the test when jax is not installed.
"""
from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path

import pytest
from jaxlib_worker import shared_worker

import shardy_py
from shardy_py.passes.manager import PassError, PassManager

JAX_REASON = "the oracle is the C++ Shardy in jaxlib 0.12 (Python >= 3.12: pip install 'jax==0.12.0.1')"
#: What either side gives for a pass that fails (or whose output does not verify): both must fail.
FAILED = "<the pass failed>"
#: How ``cpp`` answers when jaxlib's process dies on the input (never equal to a module's print).
CRASHED = "<jaxlib crashed>"
PROGRAMS_SCRIPT = Path(__file__).parent / "data" / "jax_programs" / "programs.py"


def require_jax():
    """The jax module; skips the calling test when it is not installed."""
    return pytest.importorskip("jax", reason=JAX_REASON)


@functools.cache
def context():
    """jaxlib's MLIR context (all the dialects JAX uses, unregistered ones allowed), one per process."""
    require_jax()
    from jax._src.interpreters import mlir as jax_mlir

    ctx = jax_mlir.make_ir_context()
    ctx.allow_unregistered_dialects = True
    return ctx


def crashed(answer: dict) -> str | None:
    """What to say of a jaxlib answer from a child that died (``None`` when it answered)."""
    if "crashed" in answer:
        return f"{CRASHED} (signal {answer['crashed']})"
    if "timeout" in answer:
        return f"{CRASHED} (no answer in {answer['timeout']} s)"
    return None


def cpp(text: str, pipeline: str) -> str:
    """jaxlib's module after ``pipeline`` (``builtin.module(...)``) on ``text`` (``FAILED`` when the
    pipeline fails, a text starting with ``CRASHED`` when jaxlib dies).  jaxlib runs in a child process
    (``jaxlib_worker``): 0.12 segfaults on some inputs.  A text jaxlib cannot parse is an error of the
    test, raised here with jaxlib's message."""
    require_jax()
    answer = shared_worker().call("module", text=text, pipeline=pipeline, verify=False)
    died = crashed(answer)
    if died is not None:
        return died
    if not answer["ok"]:
        if answer.get("stage") == "parse":
            raise AssertionError(f"jaxlib cannot parse the test's input:\n{answer['error']}")
        return FAILED
    return answer["pretty"]


def cpp_or_unread(text: str, pipeline: str) -> str | None:
    """``cpp`` for drawn inputs: None when jaxlib does not read ``text`` (the caller checks that
    ``verify`` rejects it too); a jaxlib crash fails the test."""
    require_jax()
    answer = shared_worker().call("module", text=text, pipeline=pipeline)
    died = crashed(answer)
    if died is not None:
        pytest.fail(f"jaxlib died: {died}")
    if not answer["ok"]:
        return None if answer.get("stage") == "parse" else FAILED
    return answer["pretty"]


def ours(text: str, flag: str) -> str:
    """Our module after pass ``-flag`` on ``text`` (``FAILED`` when it fails)."""
    module = shardy_py.parse(text)
    try:
        PassManager.parse(["-" + flag]).run(module)
    except PassError:
        return FAILED
    return str(module)


def ours_as_cpp(text: str, flag: str, pipeline: str) -> tuple[str, str]:
    """(ours, the C++'s) after pass ``-flag`` / ``pipeline`` on a drawn ``text``, to compare. Where jaxlib
    0.12 crashes (a segfault in its pass on an input it parsed), the guide asks for a located error
    instead: the C++ side then reads as ``FAILED``, which ours must be."""
    theirs = cpp(text, pipeline)
    return ours(text, flag), FAILED if theirs.startswith(CRASHED) else theirs


def prints_as_mlir(text: str) -> bool:
    """Whether our plain print of ``text`` is MLIR's (else a difference after a pass could be the
    printer's, not the pass's)."""
    return str(shardy_py.parse(text)) == cpp(text, "builtin.module()")


def program_names() -> list[str]:
    """The names of the JAX programs of ``PROGRAMS_SCRIPT``, sorted."""
    sys.path.insert(0, str(PROGRAMS_SCRIPT.parent))
    from programs import PROGRAMS

    return sorted(PROGRAMS)


def lower_programs(out: Path) -> Path:
    """``out``, holding ``NAME.mlir`` for every JAX program, lowered in a subprocess with 8 CPU devices."""
    subprocess.run([sys.executable, str(PROGRAMS_SCRIPT), str(out)], check=True, capture_output=True, timeout=600)
    return out

"""Differential tests of ``-sdy-insert-explicit-reshards`` against the C++ Shardy in jaxlib, on
every chunk of Shardy's own test inputs for the pass (transforms/export/test/
insert_explicit_reshards*.mlir), each run with the option its RUN line gives.

jaxlib runs in a worker process (restarted when a chunk crashes it).  A chunk jaxlib crashes on
or cannot read (syntax newer than jaxlib 0.10.2) is compared function by function instead
(each ``func.func`` with the module's meshes, when it calls no other function); what is still
left is skipped, counted per file.  Where jaxlib (two months older than the Shardy commit the
test files come from) and the test files disagree, the files win: those cases are pinned in
``HEAD_ONLY`` and checked with FileCheck on Shardy's own CHECK lines (test_conformance runs the
whole files the same way).
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cpp_oracle import FAILED, ours
from hypothesis import HealthCheck, assume, given, settings

import shardy_py
from shardy_py import strategies as sst
from shardy_py.cli import split_chunks

pytest.importorskip("jax", reason="the oracle is the C++ Shardy in jaxlib (pip install 'jax==0.10.2')")

TESTS = Path("/work/shared/conformance/transforms/export/test")
FILES = ["insert_explicit_reshards.mlir",
         *sorted(f"insert_explicit_reshards/{p.name}" for p in (TESTS / "insert_explicit_reshards").glob("*.mlir"))
         ] if TESTS.exists() else []

#: Functions (file, func name) where jaxlib 0.10.2 and the test files of the Shardy commit we follow
#: disagree; the files' CHECK lines are the truth.  jaxlib's Shardy predates the single-device
#: (maximal mesh) handling: it leaves an op with a single-device result as it is, and accepts a
#: function argument or result with a single-device sharding; the files (single_device_sharding*.mlir)
#: expect the reshards to and from the device, and those errors.
HEAD_ONLY = {
    "insert_explicit_reshards/single_device_sharding.mlir": "single-device ops are new since jaxlib 0.10.2",
    "insert_explicit_reshards/single_device_sharding_errors.mlir": "single-device errors are new since jaxlib 0.10.2",
}

_WORKER = r"""
import json, sys
from jax._src.interpreters import mlir as jax_mlir
from jax._src.lib.mlir import ir, passmanager
ctx = jax_mlir.make_ir_context(); ctx.allow_unregistered_dialects = True
for line in sys.stdin:
    req = json.loads(line)
    try:
        m = ir.Module.parse(req["text"], context=ctx)
    except ir.MLIRError:
        print(json.dumps({"unread": True}), flush=True); continue
    try:
        passmanager.PassManager.parse(req["pipeline"], context=ctx).run(m.operation)
        out = m.operation.get_asm()
    except ir.MLIRError:
        out = None
    print(json.dumps({"out": out}), flush=True)
"""


class Jaxlib:
    """A jaxlib worker process: ``run(text, pipeline)`` gives the printed module, ``FAILED``,
    ``"unread"`` (jaxlib cannot parse the text) or ``"crashed"`` (the worker died; a new one is
    started for the next request)."""

    def __init__(self):
        self.proc = None

    def run(self, text: str, pipeline: str) -> str:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen([sys.executable, "-c", _WORKER], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.proc.stdin.write(json.dumps({"text": text, "pipeline": pipeline}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait()
            self.proc = None
            return "crashed"
        reply = json.loads(line)
        if reply.get("unread"):
            return "unread"
        return FAILED if reply["out"] is None else reply["out"]

    def close(self):
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.wait()


@pytest.fixture(scope="module")
def jaxlib():
    worker = Jaxlib()
    yield worker
    worker.close()


def flags_of(relative: str) -> tuple[str, str]:
    """Our flag and jaxlib's pipeline for the RUN line of ``relative``."""
    first = (TESTS / relative).read_text().splitlines()[0]
    full = "true" if "enable-full-version=true" in first else "false"
    return (f"sdy-insert-explicit-reshards=enable-full-version={full}",
            f"builtin.module(func.func(sdy-insert-explicit-reshards{{enable-full-version={full}}}))")


def per_function(text: str) -> list[str]:
    """One module per ``func.func`` of ``text`` that calls no function, with all the meshes."""
    module = shardy_py.parse(text)
    meshes = [str(op) for op in module.ops if op.name == "sdy.mesh"]
    return ["\n".join([*meshes, str(op)]) for op in module.ops
            if op.name == "func.func" and not any(inner.name == "func.call" for inner in op.walk())]


def compare(text: str, flag: str, pipeline: str, jaxlib: Jaxlib, counts: dict, split: bool = True) -> None:
    theirs = jaxlib.run(text, pipeline)
    if theirs in ("crashed", "unread"):
        if not split:
            counts[theirs] += 1
            return
        for piece in per_function(text):
            compare(piece, flag, pipeline, jaxlib, counts, split=False)
        return
    if str(shardy_py.parse(text)) != jaxlib.run(text, "builtin.module()"):
        counts["printer"] += 1
        return
    assert ours(text, flag) == theirs, text
    counts["equal"] += 1


@pytest.mark.parametrize("relative", [f for f in FILES if f not in HEAD_ONLY])
def test_insert_explicit_reshards_matches_jaxlib(relative, jaxlib, record_property):
    flag, pipeline = flags_of(relative)
    counts = {"equal": 0, "crashed": 0, "unread": 0, "printer": 0}
    for text, _ in split_chunks((TESTS / relative).read_text()):
        compare(text, flag, pipeline, jaxlib, counts)
    record_property("counts", counts)
    print(relative, counts)
    if not counts["equal"]:
        pytest.skip(f"{relative}: nothing jaxlib reads, survives and prints alike ({counts})")


@pytest.mark.parametrize("relative", sorted(HEAD_ONLY))
def test_head_only_cases_follow_shardys_check_lines(relative, jaxlib):
    """jaxlib differs here (``HEAD_ONLY``); the pass must pass the file's own RUN line instead."""
    flag, pipeline = flags_of(relative)
    text = (TESTS / relative).read_text()
    differs = any(jaxlib.run(chunk, pipeline) != ours(chunk, flag) for chunk, _ in split_chunks(text))
    assert differs, f"{relative}: jaxlib now agrees; drop it from HEAD_ONLY"
    run = text.splitlines()[0].split("sdy_opt %s", 1)[1].split("|")[0].split()
    proc = subprocess.run([sys.executable, "-m", "shardy_py", "opt", str(TESTS / relative), *run],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    if "-verify-diagnostics" not in run:
        check = subprocess.run(["/usr/lib/llvm-14/bin/FileCheck", str(TESTS / relative)], input=proc.stdout,
                               capture_output=True, text=True, timeout=600)
        assert check.returncode == 0, check.stderr


PROGRAMS = Path(__file__).parent / "data" / "jax_programs"


@pytest.fixture(scope="module")
def jax_programs(tmp_path_factory) -> list[Path]:
    """The JAX programs of tests/data/jax_programs (plain and sharded), lowered with 8 CPU devices."""
    paths = []
    for script in ("programs.py", "sharded_programs.py"):
        out = tmp_path_factory.mktemp(script.removesuffix(".py"))
        subprocess.run([sys.executable, str(PROGRAMS / script), str(out)], check=True, capture_output=True,
                       timeout=600)
        paths += sorted(out.glob("*.mlir"))
    return paths


@pytest.mark.parametrize("full", ["true", "false"])
def test_insert_explicit_reshards_matches_jaxlib_after_jaxlibs_propagation(jax_programs, jaxlib, full):
    """Each JAX program propagated by jaxlib's ``sdy-propagation-pipeline``, then the pass on both
    sides (the full version reshards a dozen of them)."""
    pipeline = f"builtin.module(func.func(sdy-insert-explicit-reshards{{enable-full-version={full}}}))"
    compared = 0
    for path in jax_programs:
        propagated = jaxlib.run(path.read_text(), "builtin.module(sdy-propagation-pipeline)")
        if propagated in ("crashed", "unread", FAILED):
            continue
        if str(shardy_py.parse(propagated)) != jaxlib.run(propagated, "builtin.module()"):
            continue
        assert ours(propagated, f"sdy-insert-explicit-reshards=enable-full-version={full}") == \
            jaxlib.run(propagated, pipeline), path.name
        compared += 1
    assert compared >= 50


#: A mesh with no axes and one device (single-device sharding): newer than jaxlib (see HEAD_ONLY).
MAXIMAL_MESH = re.compile(r"<\[\], device_ids=\[\d+\]>")


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=sst.module_texts())
def test_insert_explicit_reshards_matches_jaxlib_on_drawn_modules(jaxlib, text):
    """Drawn modules, both versions; modules with a single-device mesh are left out (HEAD_ONLY),
    and so are those jaxlib crashes on or prints differently before any pass."""
    assume(not MAXIMAL_MESH.search(text))
    assume(str(shardy_py.parse(text)) == jaxlib.run(text, "builtin.module()"))
    for full in ("true", "false"):
        pipeline = f"builtin.module(func.func(sdy-insert-explicit-reshards{{enable-full-version={full}}}))"
        theirs = jaxlib.run(text, pipeline)
        assume(theirs != "crashed")
        assert ours(text, f"sdy-insert-explicit-reshards=enable-full-version={full}") == theirs, full

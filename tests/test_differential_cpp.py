"""Differential tests: drawn inputs through the C++ Shardy bundled in jaxlib and through shardy_py.

For each input both sides must give the same verdict (accepted / rejected) and, when accepted,
the same printed text (``get_asm`` without debug info vs ``str(shardy_py.parse(text))``).

jaxlib 0.10.2 bundles an older Shardy than the one shardy_py follows.  The comparison is
restricted to the features both have, by drawing only those (the strategies' defaults):

* unreduced axes use ``sum`` only: the old build has no reduction kind on unreduced axes
  (``unreduced=max{..}``, ``sdy.all_reduce max``) and no ``unreduced{..}`` without ``=``;
* sharding-rule factor sizes stay below 2**31 (the old build rejects int64 sizes);
* drawn modules never drop or change unreduced axes across a reduction, so the HEAD-only
  unreduced-axes transition check (C68, ``verifyUnreducedAxesTransition``) is never what decides;
  invalid modules never break C68 either.

Counts (CI, derandomized): 1,200 valid modules, 500 invalid modules, 600 mutated modules (one
sdy token of a valid module changed: verdict, print and first error line compared), 400 standalone
shardings and 200 sharding rules, i.e. 2,900 differential cases.  ``SHARDY_DIFFERENTIAL_SCALE=10`` multiplies
them; ``benchmarks/differential_long.py`` runs the long version outside pytest.
"""
from __future__ import annotations

import os
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("jax")

import shardy_py  # noqa: E402
from shardy_py import strategies as sst  # noqa: E402
from shardy_py.verify import verify as verify_module  # noqa: E402

SCALE = float(os.environ.get("SHARDY_DIFFERENTIAL_SCALE", "1"))
settings.register_profile("shardy-differential", derandomize=True, database=None, deadline=None,
                          suppress_health_check=list(HealthCheck), print_blob=True)
BASE = settings.get_profile("shardy-differential")


def examples(n: int) -> settings:
    return settings(BASE, max_examples=max(1, int(n * SCALE)))


class Cpp:
    """One MLIR context of jaxlib (with the sdy dialect), reused for every case."""

    def __init__(self) -> None:
        from jax._src.interpreters import mlir
        from jax._src.lib.mlir import ir

        self.ir = ir
        self.ctx = mlir.make_ir_context()
        self.ctx.allow_unregistered_dialects = True

    def module(self, text: str) -> tuple[bool, str]:
        """(accepted, printed text or the error message)."""
        try:
            m = self.ir.Module.parse(text, context=self.ctx)
            if not m.operation.verify():
                return False, "verify() returned False"
            return True, m.operation.get_asm(enable_debug_info=False)
        except self.ir.MLIRError as e:  # parse and verify errors
            return False, str(e)

    def attribute(self, text: str) -> tuple[bool, str]:
        try:
            with self.ctx:
                return True, str(self.ir.Attribute.parse(text))
        except self.ir.MLIRError as e:
            return False, str(e)


@pytest.fixture(scope="module")
def cpp() -> Cpp:
    return Cpp()


def ours(text: str) -> tuple[bool, str]:
    """shardy_py's verdict and print, in the shape of ``Cpp.module``."""
    try:
        m = shardy_py.parse(text)
    except shardy_py.ParseError as e:
        return False, str(e)
    diags = verify_module(m)
    if diags:
        return False, str(diags[0])
    return True, str(m)


def first_error_line(message: str) -> int | None:
    """Line of the first C++ error (``"-":L:C`` in parse errors, ``loc("-":L:C)`` in verify errors)."""
    m = re.search(r'"-":(\d+):\d+', message)
    return int(m.group(1)) if m else None


@examples(1200)
@given(text=sst.module_texts())
def test_valid_modules_agree(cpp: Cpp, text: str) -> None:
    ok, printed = cpp.module(text)
    assert ok, f"C++ Shardy rejects a module drawn from modules():\n{text}\n{printed}"
    mine_ok, mine = ours(text)
    assert mine_ok, mine
    assert mine == printed


@examples(500)
@given(bad=sst.invalid_modules())
def test_invalid_modules_agree(cpp: Cpp, bad: sst.InvalidModule) -> None:
    ok, message = cpp.module(bad.text)
    assert not ok, f"C++ accepts a module breaking {bad.rule}:\n{bad.text}"
    assert first_error_line(message) == bad.line, message
    mine_ok, _ = ours(bad.text)
    assert not mine_ok


#: Tokens a mutation may change (numbers, axis names, ``?``, priorities) ...
MUTABLE = re.compile(r'\d+|"[^"]*"|\?|p\d+')
#: ... unless inside what shardy_py deliberately does not check: types, SSA names, symbols, op names.
FROZEN = re.compile(r'tensor<[^>]*>|%[\w#]+(?::\d+)?|@[\w."-]+|<"[^"]*">')


def mutate(text: str, rnd: random.Random) -> str:
    """``text`` with one sdy token replaced (numbers by small sizes, names by other axis names, ...)."""
    frozen = [(m.start(), m.end()) for m in FROZEN.finditer(text)]
    tokens = [m for m in MUTABLE.finditer(text) if not any(a <= m.start() < b for a, b in frozen)]
    tok = rnd.choice(tokens)
    s = tok.group()
    if s.isdigit():
        new = str(rnd.choice([0, 1, 2, 3, 4, 6, 8, 16]))
    elif s.startswith('"'):
        new = rnd.choice(['"x"', '"y"', '"z"', '"a"', '"data"', '"model"'])
    else:  # "?" or a priority
        new = rnd.choice(["", "p0", "p3"])
    return text[:tok.start()] + new + text[tok.end():]


@examples(600)
@given(text=sst.module_texts(), seed=st.integers(0, 2**32 - 1))
def test_mutated_modules_agree(cpp: Cpp, text: str, seed: int) -> None:
    mutant = mutate(text, random.Random(seed))
    ok, printed = cpp.module(mutant)
    try:
        m = shardy_py.parse(mutant)
        diags = verify_module(m)
        mine_ok, line = not diags, diags[0].line if diags else None
    except shardy_py.ParseError as e:
        mine_ok, line = False, e.line
    assert mine_ok == ok, f"verdicts differ on\n{mutant}\nC++: {printed}"
    if ok:
        assert str(m) == printed
    else:
        assert line == first_error_line(printed), f"{mutant}\nC++: {printed}"


@examples(400)
@given(sharding=st.tuples(sst.meshes(), st.integers(0, 3), st.sampled_from([None, "m", "mesh-1"])).flatmap(
    lambda t: sst.tensor_shardings(t[0], t[1], mesh_ref=t[2])))
def test_standalone_shardings_agree(cpp: Cpp, sharding) -> None:
    text = str(sharding)
    ok, printed = cpp.attribute(text)
    assert ok, f"C++ rejects {text}: {printed}"
    assert str(shardy_py.parse_attribute(text)) == printed


@examples(200)
@given(rule=sst.op_sharding_rules(operand_ranks=(2, 1), result_ranks=(3,)))
def test_sharding_rules_agree(cpp: Cpp, rule) -> None:
    text = str(rule)
    ok, printed = cpp.attribute(text)
    assert ok, f"C++ rejects {text}: {printed}"
    assert str(shardy_py.parse_attribute(text)) == printed

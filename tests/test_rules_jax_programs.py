"""``-sdy-populate-op-sharding-rules`` against the C++ Shardy in jaxlib: byte-identical modules after
the pass, normal and with ``conservative-propagation=true``, on the JAX programs of
tests/data/jax_programs/programs.py (lowered in a subprocess as tests/test_jax_programs.py does)
and on modules drawn by ``shardy_py.strategies``.

A case is skipped only when our plain print (no pass run) already differs from MLIR's: then a
difference after the pass could be the printer's, not the rules'.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("jax", reason="the oracle is the C++ Shardy in jaxlib (pip install 'jax==0.10.2')")

from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from rules_oracle import MODES, cpp, ours, prints_as_mlir  # noqa: E402

from shardy_py import strategies as sst  # noqa: E402

PROGRAMS_SCRIPT = Path(__file__).parent / "data" / "jax_programs" / "programs.py"
sys.path.insert(0, str(PROGRAMS_SCRIPT.parent))
from programs import PROGRAMS  # noqa: E402

NAMES = sorted(PROGRAMS)


@pytest.fixture(scope="module")
def lowered(tmp_path_factory) -> Path:
    """Every program's text, lowered in a subprocess with 8 CPU devices."""
    out = tmp_path_factory.mktemp("jax_programs_rules")
    subprocess.run([sys.executable, str(PROGRAMS_SCRIPT), str(out)], check=True, capture_output=True, timeout=600)
    return out


@pytest.mark.parametrize("flag", sorted(MODES))
@pytest.mark.parametrize("name", NAMES)
def test_populated_rules_match_cpp_on_jax_programs(lowered, name, flag):
    text = (lowered / f"{name}.mlir").read_text()
    if not prints_as_mlir(text):
        pytest.skip(f"{name}: our plain print differs from MLIR's before the pass")
    assert ours(text, flag) == cpp(text, MODES[flag])


_DRAWN = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_DRAWN
@given(text=sst.module_texts())
def test_populated_rules_match_cpp_on_drawn_modules(text):
    assume(prints_as_mlir(text))
    for flag, pipeline in MODES.items():
        assert ours(text, flag) == cpp(text, pipeline), flag

"""``-sdy-populate-op-sharding-rules`` against the C++ Shardy in jaxlib: byte-identical modules after
the pass, normal and with ``conservative-propagation=true``, on the JAX programs of
tests/data/jax_programs/programs.py (lowered in a subprocess as tests/test_jax_programs.py does)
and on modules drawn by ``shardy_py.strategies``.

A case is skipped only when our plain print (no pass run) already differs from MLIR's: then a
difference after the pass could be the printer's, not the rules'.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from cpp_oracle import cpp, lower_programs, ours, prints_as_mlir, program_names, require_jax
from hypothesis import HealthCheck, assume, given, settings
from rules_oracle import MODES

from shardy_py import strategies as sst

require_jax()


@pytest.fixture(scope="module")
def lowered(tmp_path_factory) -> Path:
    """Every program's text."""
    return lower_programs(tmp_path_factory.mktemp("jax_programs_rules"))


@pytest.mark.parametrize("flag", sorted(MODES))
@pytest.mark.parametrize("name", program_names())
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

"""The first error of a text that is not MLIR, ours and jaxlib 0.12's, as ``(line, column, message)``: the
helpers of the first-error tests (``test_parse_first_error_token_order`` and the ``test_first_error_*``
files)."""
from __future__ import annotations

import re

import pytest

import shardy_py

#: jaxlib's first diagnostic.
_MLIR_ERROR = re.compile(r'error: "-":(\d+):(\d+): (.*)')


def our_first_error(text: str, fast_paths: bool = True) -> tuple[int, int, str]:
    """Where and how ``shardy_py`` rejects ``text`` (the scanner's line fast path and op recipes on or off)."""
    with pytest.raises(shardy_py.ParseError) as e:
        if fast_paths:
            shardy_py.parse(text)
        else:
            shardy_py.syntax.parser.parse_module(text, fast_paths=False)
    return e.value.line, e.value.column, e.value.message


def our_first_position(text: str, fast_paths: bool = True) -> tuple[int, int]:
    """(line, column) of our first error: the parser's, else the verifier's first diagnostic (fails the test
    when ``text`` is accepted)."""
    from shardy_py.syntax.parser import parse_module

    try:
        module = parse_module(text, fast_paths=fast_paths)
    except shardy_py.ParseError as e:
        return e.line, e.column
    diagnostics = shardy_py.verify(module)
    assert diagnostics, "accepted"
    return diagnostics[0].line, diagnostics[0].column


def jaxlib_first_error(text: str) -> tuple[int, int, str]:
    """Where and how jaxlib 0.12 rejects ``text`` (in its child process); skips the test without jax."""
    pytest.importorskip("jax", reason="the oracle is MLIR in jaxlib 0.12 (pip install 'jax==0.12.0.1')")
    from jaxlib_worker import shared_worker

    answer = shared_worker().call("module", text=text, pretty=False)
    assert not answer["ok"]
    first = _MLIR_ERROR.search(answer["error"])
    assert first is not None, answer
    return int(first.group(1)), int(first.group(2)), first.group(3)


def case_table_tests(cases: dict[str, tuple[str, int, int, str]]):
    """The three tests of a table ``name -> (text, line, column, message)`` of jaxlib 0.12's first errors: ours,
    ours with the fast paths off, and jaxlib's own (skipped without jax). Assign them to the ``test_`` names of
    the test module that holds the table."""

    @pytest.mark.parametrize("name", sorted(cases))
    def test_first_error_is_where_mlir_stops(name: str) -> None:
        text, line, column, message = cases[name]
        assert our_first_error(text) == (line, column, message)

    @pytest.mark.parametrize("name", sorted(cases))
    def test_fast_paths_off_give_the_same_first_error(name: str) -> None:
        text, line, column, message = cases[name]
        assert our_first_error(text, fast_paths=False) == (line, column, message)

    @pytest.mark.parametrize("name", sorted(cases))
    def test_jaxlib_stops_at_the_same_place(name: str) -> None:
        text, line, column, message = cases[name]
        assert jaxlib_first_error(text) == (line, column, message)

    return (test_first_error_is_where_mlir_stops, test_fast_paths_off_give_the_same_first_error,
            test_jaxlib_stops_at_the_same_place)

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


def jaxlib_first_error(text: str) -> tuple[int, int, str]:
    """Where and how jaxlib 0.12 rejects ``text`` (in its child process); skips the test without jax."""
    pytest.importorskip("jax", reason="the oracle is MLIR in jaxlib 0.12 (pip install 'jax==0.12.0.1')")
    from jaxlib_worker import shared_worker

    answer = shared_worker().call("module", text=text, pretty=False)
    assert not answer["ok"]
    first = _MLIR_ERROR.search(answer["error"])
    assert first is not None, answer
    return int(first.group(1)), int(first.group(2)), first.group(3)

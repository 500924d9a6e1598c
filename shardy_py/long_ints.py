"""Integers written with any number of digits, as MLIR reads them.

Python refuses to convert a string of more than 4,300 digits to an ``int`` (a guard against quadratic work,
``sys.set_int_max_str_digits``), which is an internal error in the middle of reading a module: a 5,000-digit
dimension, integer attribute or index.  MLIR reads such a number and judges it (out of range for its type,
an invalid dimension, or a valid value of a wide integer type).  ``long_int_strings()`` lifts the guard while
shardy_py parses or verifies a module, and puts the caller's setting back afterwards; the number of digits
is bounded by the input's size, and CPython 3.12 converts long digit strings in subquadratic time.
"""
from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator

_lock = threading.Lock()
_users = 0
_saved = 0


@contextlib.contextmanager
def long_int_strings() -> Iterator[None]:
    """Within the block, ``int(text)`` takes digit strings of any length (Python's default limit otherwise).
    Nested and concurrent blocks share one lifting: the caller's limit comes back when the last one ends."""
    global _users, _saved
    get = getattr(sys, "get_int_max_str_digits", None)
    if get is None:  # (Python < 3.11 has no limit)
        yield
        return
    with _lock:
        if _users == 0:
            _saved = get()
            sys.set_int_max_str_digits(0)
        _users += 1
    try:
        yield
    finally:
        with _lock:
            _users -= 1
            if _users == 0:
                sys.set_int_max_str_digits(_saved)

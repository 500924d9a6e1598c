"""The error MLIR meets first when the scanner fails.

MLIR parses a module token by token and stops at its first error.  ``parse_module`` first scans the text's
op and region skeleton (``scanner``) and builds ops afterwards, so a scan error (a bracket that does not
close, a token no op starts with) met in an op can hide an error MLIR would have met earlier, in the ops
before it (a block label where a region has named arguments, an op the text before it breaks).  Parsing
the text before the op the scan failed in tells: its first error, unless it is one the cut itself makes
(the regions the cut leaves open, values defined after it, a function body it empties).
"""
from __future__ import annotations

import re
from collections.abc import Callable

from shardy_py.errors import ParseError

#: Errors of the text before the failing op that the cut itself makes.
_MADE_BY_THE_CUT = re.compile(r"use of undeclared SSA value|.*the input ended first|.*found the end of the input|"
                              r".*(non-empty function body|named arguments needs a body)|unclosed |"
                              r"operation location alias was never defined|undefined symbol alias id")


#: The results and the custom name an op starts with.
_OP_HEAD = re.compile(r"(?:%[\w$.-]+(?::\d+)?\s*(?:,\s*%[\w$.-]+(?::\d+)?\s*)*=\s*)?([A-Za-z_][\w$]*\.[\w$.]+)")


def earlier_error(text: str, error: ParseError, parse: Callable[[str], object],
                  name_error: Callable[[str, int], None]) -> ParseError | None:
    """The first error ``parse`` finds in the text before the op the scan of ``text`` failed in (``error``,
    with ``scan_from``), when it comes before ``error``'s place, else that op's name when no op of its dialect
    has it (``name_error(name, offset)`` raises that); None when there is neither."""
    cut = getattr(error, "scan_from", None)
    if cut is None or cut > error.offset + 1:
        return None
    if cut:
        try:
            parse(text[:cut])
        except ParseError as e:
            if e.offset < cut and not _MADE_BY_THE_CUT.match(e.message):
                return e
        except RecursionError:
            return None
    head = _OP_HEAD.match(text, cut)
    if head is not None:
        try:
            name_error(head.group(1), head.start(1))
        except ParseError as e:
            return e
    return None

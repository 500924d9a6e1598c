"""The first error of an op whose text the skeleton scan ended before MLIR's parse of it ends.

``parse_module`` splits the text into ops first (``scanner``: an op ends at a line break, or where the next
op starts on its line) and reads each op's text with its syntax.  MLIR has no op boundary: an op's custom
parser reads tokens until its grammar is done, across line breaks.  So an op cut short (``%0 =
stablehlo.add %a,`` on a line of its own) fails on our side with "found the end of the op", while MLIR reads
the next line's tokens as the op's own (``%1`` as the operand, then "expected ':'" at its ``=``).  And an op
whose syntax is done before the text the scanner gave it ends (a bare word on the next line, ``func``, that
the scanner takes for a continuation line) fails with "unexpected ... at the end of the op", while MLIR
starts the next op there.

So, on the error path only, the module is parsed once more with a ``CutOpParser``: the op whose syntax
failed for want of text is read again over the text after it, up to the end of its region (or of the
module), and the first error met there is MLIR's; an op that then parses whole, or one whose syntax was
done before its text ended, is followed by the ops MLIR reads after it, built from where its syntax ended
(which may be cut in turn), and the first error of those is MLIR's.
"""
from __future__ import annotations

import re

from shardy_py.errors import ParseError
from shardy_py.ir.ops import Block
from shardy_py.syntax.salvage import RegionsWhereTheyStand
from shardy_py.syntax.scanner import RawLabel, RawOp, RawRegion

#: An op's syntax failed because its text ended (the op, not a block label: its name has no space).
_CUT_SHORT = re.compile(r"'[\w$.]+': .*(found the end of the op|, which starts another op)\Z", re.S)
#: An op's syntax was done before its text ended.
_TEXT_AFTER = re.compile(r"'[\w$.]+': unexpected .* at the end of the op\Z", re.S)


def is_cut_op_error(error: ParseError) -> bool:
    """Whether ``error`` is an op's syntax meeting the end of its text, or text after its syntax is done."""
    return bool(_CUT_SHORT.match(error.message) or _TEXT_AFTER.match(error.message))


class CutOpParser(RegionsWhereTheyStand):
    """Reads the op whose syntax fails at the end of its text on into the text after it, as MLIR does (see the
    module's doc); every error it raises is marked ``read_on`` (an op around it passes it on unchanged)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        #: The regions being built, innermost last, each with the list of its items (``build_region`` takes
        #: them out of the region and drops each once built).
        self._open: list[tuple[RawRegion, list]] = []

    def build_region(self, raw: RawRegion, parent, args=None, isolated: bool = False):
        self._open.append((raw, raw.items))
        try:
            return super().build_region(raw, parent, args, isolated)
        finally:
            self._open.pop()

    def build_op(self, raw: RawOp):
        try:
            return super().build_op(raw)
        except ParseError as e:
            if getattr(e, "read_on", False) or not is_cut_op_error(e):
                raise
            first = self._read_past(raw, e) or e
            first.read_on = True
            raise first from None

    def _read_past(self, raw: RawOp, error: ParseError) -> ParseError | None:
        """MLIR's first error where ``raw``'s syntax failed with ``error`` at the end of its text (None: no
        error before the end of its region; ``error`` stands)."""
        if _TEXT_AFTER.match(error.message):
            if not raw.start < error.offset <= raw.end:
                return None
            return self._read_on(error.offset)  # (the op is built, its results defined: the next op starts here)
        limit, later = self._rest(raw)
        whole = RawOp(raw.start, limit, list(raw.regions) + later)
        try:
            self.parse_op(whole)
        except ParseError as e:
            if getattr(e, "read_on", False) or not _TEXT_AFTER.match(e.message) or not raw.end < e.offset < limit:
                return e
            return self._read_on(e.offset) or e
        return None

    def _rest(self, raw: RawOp) -> tuple[int, list[RawRegion]]:
        """Where the text ``raw``'s syntax may read on into ends (its region's '}', or the end of the text), and
        the regions of the ops the scanner found there."""
        later: list[RawRegion] = []
        if not self._open:
            pos, n = raw.end, len(self.text)
            try:
                while (item := self.scanner.next_item(pos, 0, None)) is not None:
                    if isinstance(item, RawOp):
                        later.extend(item.regions)
                    pos = item.end
            except ParseError:
                pass  # (the op's syntax meets what the scan failed at: its brackets, by itself)
            return n, later
        region, items = self._open[-1]
        index = next((i for i, item in enumerate(items) if item is raw), len(items))
        for item in items[index + 1:]:
            if isinstance(item, RawOp):
                later.extend(item.regions)
        return min(region.end - 1, len(self.text)), later

    def _read_on(self, pos: int) -> ParseError | None:
        """The first error of the ops MLIR reads from ``pos`` to the end of the region there (None: none)."""
        region = self._open[-1][0] if self._open else None
        opened = region.start if region is not None else None
        try:
            while (item := self.scanner.next_item(pos, self.region_depth, opened)) is not None:
                if isinstance(item, RawLabel):
                    self.label_args(item, Block())
                else:
                    self.build_op(item)
                pos = item.end
        except ParseError as e:
            return e
        return None


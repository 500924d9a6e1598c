"""The first error of a module whose skeleton scan fails in an op, read the way MLIR reads it.

MLIR parses token by token and stops at the first token its grammar does not take; ``parse_module`` finds
the op/region skeleton by bracket balancing first (``scanner``), so a bracket that does not close is met
where the balancing fails: at a closer far away, or at a guess (the next line starts an op).  The op's own
syntax tells better where MLIR stops: a function's argument list runs into the next op at its ``=``
(MLIR: "expected ':'"), an attribute dictionary whose '}' is missing stops at the next op's name.

So, on the error path only, the module is parsed once more with a ``SalvageScanner``: the first op whose
scan fails ends where its scan failed (``scan_limit``), every region around it ends with it, and nothing
after it is scanned.  The ops before it and the op itself are built as usual (``SalvageParser``): the first
error they meet before that place is MLIR's; when there is none (the op's syntax ran to the cut), the scan's
error stands.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from shardy_py.errors import ParseError
from shardy_py.ir.ops import Block, Operation
from shardy_py.syntax.parser import ModuleParser
from shardy_py.syntax.scanner import MAX_REGION_DEPTH, RawLabel, RawOp, RawRegion, Scanner, wrong_token_offset

#: Errors an op's syntax meets only because its text was cut where the scan failed.
_MADE_BY_THE_CUT = re.compile(r".*(the end of the op|which starts another op|at the end of the op|"
                              r"the region's '}' is not inside this op)")


#: MLIR's error at the '^' of a label opening a region whose arguments the op's syntax names.
_LABEL_IN_NAMED_REGION = "invalid block name in region with named arguments"

#: The results and the quote of a generic op's name.
_GENERIC_HEAD = re.compile(r'(?:%[\w$.-]+(?::\d+)?\s*(?:,\s*%[\w$.-]+(?::\d+)?\s*)*=\s*)?"')


class _RegionCut(Exception):
    """Raised out of a region the failing op sits in: the op around the region ends with it."""

    def __init__(self, region: RawRegion):
        super().__init__()
        self.region = region


class SalvageScanner(Scanner):
    """A scanner that, at the first op whose scan fails, keeps the error (``pending``), ends the op there
    (``salvaged``, which ends at ``cut``) and scans nothing after it."""

    #: The op that ends where the scan failed (an empty one where no op could start).
    salvaged: RawOp | None = None
    cut = 0
    _in_ops = 0  # how many ops are being scanned (0: a region the op parser asks for, ``Cursor.region``)
    _cursor_scans = 0  # how many regions the op parser asked for are being scanned

    _label_cut = False  # the label just scanned is cut (``scan_label``)

    def next_item(self, pos: int, depth: int, opened: int | None) -> RawOp | RawLabel | None:
        if self.pending is not None and pos >= self.cut:
            return None
        try:
            item = super().next_item(pos, depth, opened)
            if self._label_cut:
                self._label_cut, self.salvaged = False, item
            return item
        except ParseError as e:
            if self.pending is not None or getattr(e, "scan_from", None) is None:
                raise
            self.pending = e  # no op starts here: the ops before are built, then this error
            self.cut = self.skip_ws(pos)
            self.salvaged = RawOp(self.cut, self.cut)
            return self.salvaged

    def scan_op(self, start: int, depth: int) -> RawOp:
        if depth > MAX_REGION_DEPTH:
            return super().scan_op(start, depth)  # (its error: no op is cut)
        if self.use_fast_lines and (fast := self._whole_line_op(start)) is not None:
            return fast
        op = RawOp(start, start)
        self._in_ops += 1
        try:
            done = self._scan_op(start, depth, probe=False, op=op)
        except _RegionCut as cut:
            op.regions.append(cut.region)
            op.end = cut.region.end
            return op
        except ParseError as e:
            if self.pending is not None and not self._cursor_scans or self.text[start] in "#!{":
                raise  # (an alias definition or a resource block: read whole, never cut)
            # (the first failure, or one in a region the salvaged op's syntax asks for: the op there is salvaged)
            self.pending = e
            op.end = self.cut = max(min(getattr(e, "scan_limit", e.offset), self.n), start)
            self.salvaged = op
            return op
        finally:
            self._in_ops -= 1
        assert done is not None
        return done

    def scan_label(self, pos: int) -> int:
        try:
            return super().scan_label(pos)
        except ParseError as e:
            if self.pending is not None:
                raise
            self.pending, self._label_cut = e, True  # (its arguments read up to the bracket that fails)
            self.cut = e.offset if e.message.startswith("unbalanced") else getattr(e, "label_end", self.n)
            return self.cut

    def scan_region(self, brace: int, depth: int) -> RawRegion:
        asked = not self._in_ops  # (by the op parser, ``Cursor.region``)
        self._cursor_scans += asked
        try:
            region = super().scan_region(brace, depth)
        finally:
            self._cursor_scans -= asked
        if self.pending is not None and region.end > self.cut:
            if not asked:
                region.end = min(region.end, self.n)
                raise _RegionCut(region)
            region.end = self.cut  # (the op that asked for it ends at the cut)
        return region


class RegionsWhereTheyStand(ModuleParser):
    """A module parser that, where an op's syntax fails after regions of it, builds those regions first: MLIR
    builds each region where it stands, so an error inside one comes before the error after it (error paths
    only: the regions of a failing op are otherwise never built)."""

    def parse_op(self, raw: RawOp):
        try:
            return super().parse_op(raw)
        except ParseError as e:
            # (an op's syntax is read before its regions are built: MLIR builds each region where it stands, so
            # an error inside one, before the error met after it, comes first)
            generic = _GENERIC_HEAD.match(self.text, raw.start) is not None  # (its regions keep the default dialect)
            for region in raw.regions:
                if region.end <= e.offset and region.items:
                    try:
                        self.build_region(region, Operation("builtin.unrealized_region_holder", generic_form=generic))
                    except ParseError as inner:
                        if inner.offset < e.offset:
                            raise inner from None
            raise


class SalvageParser(RegionsWhereTheyStand):
    """Builds the ops a ``SalvageScanner`` finds; the op it salvaged raises its first error before the cut,
    else the scan's error."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.scanner = SalvageScanner(self.text, self.lines, fast_lines=self.use_recipes)

    #: Whether the salvaged op has been reached.
    reached = False

    def build_op(self, raw: RawOp):
        salvaged = self.scanner.salvaged
        if raw is not salvaged:
            try:
                return super().build_op(raw)
            except ParseError as e:
                if salvaged is not None and raw.end <= salvaged.start:
                    e.before_salvaged = True  # (an op before the salvaged one failed: its error stands)
                elif not self.reached and salvaged is not None and raw.start <= salvaged.start <= e.offset and \
                        not getattr(e, "before_salvaged", False) and not (
                        e.offset == salvaged.start and e.message == _LABEL_IN_NAMED_REGION):
                    # (the op around the salvaged one met the cut before building its regions: MLIR, reading
                    # token by token, meets the salvaged op first; but a label opening a region whose arguments
                    # are named is MLIR's error at its '^', before the label's text is read)
                    if isinstance(salvaged, RawLabel):
                        self.label_args(salvaged, Block())  # (raises)
                    else:
                        self.build_op(salvaged)  # (raises)
                raise
        self.reached = True
        if raw.end > raw.start:
            try:
                self.parse_op(raw)
            except _RegionCut:
                pass  # (a region its syntax asks for runs past the cut)
            except ParseError as e:
                if getattr(e, "read_on", False):
                    raise  # (a type or a literal read on past the cut, token by token, as MLIR reads it: ``torn``)
                if not _MADE_BY_THE_CUT.match(e.message) and (
                        raw.end >= len(self.text) or e.offset < wrong_token_offset(self.text, raw.end)):
                    raise  # (an op cut by the end of the text is not cut: its errors before its end all stand)
                if e.message.endswith("at the end of the op") and raw.start < e.offset < raw.end:
                    self._read_on(e.offset)
        raise self.scanner.pending

    def label_args(self, item: RawLabel, block):
        if item is not self.scanner.salvaged:
            return super().label_args(item, block)
        self.reached = True
        try:
            super().label_args(item, block)
        except ParseError as e:
            if e.offset < wrong_token_offset(self.text, item.end) or item.end >= len(self.text):
                raise
        raise self.scanner.pending

    def _read_on(self, pos: int) -> None:
        """Build the ops from ``pos``, where the salvaged op's syntax ended before the cut (MLIR reads the next
        op there), salvaging the first whose scan fails in turn; their first error is raised."""
        scanner = self.scanner
        kept = scanner.pending, scanner.salvaged, scanner.cut
        scanner.pending, scanner.salvaged, scanner.cut = None, None, 0
        self.reached = False
        try:
            opened = pos if self.region_depth else None
            while (item := scanner.next_item(pos, self.region_depth, opened)) is not None:
                if isinstance(item, RawOp):
                    self.build_op(item)
                pos = item.end
        finally:
            scanner.pending, scanner.salvaged, scanner.cut = kept
            self.reached = True


def salvaged_error(error: ParseError, parse_salvaging: Callable[[], object]) -> ParseError | None:
    """The first error MLIR meets in a module whose scan failed with ``error`` (see the module's doc), found
    by ``parse_salvaging`` (``parse_module`` with a ``SalvageParser``, or with a ``cut_ops.CutOpParser`` where an
    op's syntax failed at the end of its text); None when it is ``error`` itself."""
    try:
        parse_salvaging()
    except ParseError as e:
        if (e.offset, e.message) != (error.offset, error.message):
            return e
    except RecursionError:
        pass
    return None

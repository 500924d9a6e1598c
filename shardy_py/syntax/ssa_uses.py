"""MLIR's rules for SSA names while parsing: every use names a value defined once, with the type the
use writes, and a use written before its definition is a forward reference that the definition must
resolve (and that must then dominate the use).

The parser (``ModuleParser``) owns an ``SsaUses``: ``forward`` records an operand whose name does not
resolve yet, ``defined`` is told of every new definition (it rejects redefinitions and resolves
forward references), ``check_types`` compares an op's operand values with the types its text
writes, and ``finish`` reports, once the whole text is parsed, what MLIR reports then: names never
defined ("use of undeclared SSA value name", as MLIR's parser at the end of the module), a
``ParseError`` at MLIR's line and column. What MLIR's verifier says of such uses (a forward
reference that does not dominate its use, a value used in an isolated region it is defined
outside) is kept on the module (``Module.ssa_failures``) for ``verify`` to report.
"""
from __future__ import annotations

import re

from shardy_py.errors import ParseError
from shardy_py.ir.ops import Block, Location, Operation, Value

_NAME_TAIL = re.compile(r"[\w$.-]")
#: Ops whose custom form's parser resolves the operands before it reads the regions (StableHLO's
#: ``WhileOp::parse``, ``parseReduceOp``): there a name the regions define resolves a forward operand.
OPERANDS_BEFORE_REGIONS = frozenset({"stablehlo.while", "stablehlo.reduce"})
#: Ops whose custom form reads its region arguments as operands (``WhileOp::parse``: ``%iterArg = %init``), where
#: a result number is allowed (``%x#1`` names slot 1 of ``%x``), not "result number not allowed in argument list".
NUMBERED_REGION_ARGUMENTS = frozenset({"stablehlo.while"})
#: Ops whose regions are graph regions (no dominance between the ops of a block).
_GRAPH_REGION_OPS = frozenset({"builtin.module"})
#: Ops that are IsolatedFromAbove (a use inside may not name a value defined outside).
#: Ops whose custom form's parser gives the op the location of the token after its name (``parseReduceOp``:
#: the ``(`` of its operands): the verifier's messages are placed there.
LOCATED_AFTER_NAME = frozenset({"stablehlo.reduce"})
ISOLATED_OPS = frozenset({"builtin.module", "func.func", "sdy.manual_computation", "sdy.named_computation",
                          "stablehlo.async_start", "chlo.scan"})


class SsaUses:
    """Forward references and definition checks of one parse (see the module docstring)."""

    def __init__(self, parser) -> None:
        self.p = parser
        #: name -> [(op, operand index)] of uses not resolved yet.
        self.pending: dict[str, list[tuple[Operation, int]]] = {}
        #: (op, operand index, value) of forward references a later definition resolved.
        self.resolved: list[tuple[Operation, int, Value]] = []
        #: (id of the op, operand index) of a pending use -> id of the root scope of its isolated region.
        self.isolated_scope_of: dict[tuple[int, int], int] = {}
        #: (op, operand index, value) of uses in an isolated region of a value defined outside it.
        self.outside: list[tuple[Operation, int, Value]] = []
        #: id of the using op -> [(operand index, value)] of those uses (their types are checked with the op's).
        self.outside_of: dict[int, list[tuple[int, Value]]] = {}
        #: ids of the ops whose regions are being read: MLIR resolves an op's operands once it has parsed its
        #: regions, so a name those regions define (an entry argument, a result) is no operand of the op's.
        self.open_ops: set[int] = set()
        #: (op, operand index) of forward references no definition can resolve any more (``drop_scope``).
        self.orphans: list[tuple[Operation, int]] = []
        #: The names (``%x``) some slot of which was defined with its number (``%x#1``, an op's ``%x:2``).
        self.numbered_bases: set[str] = set()
        #: The names a region's end took from the scopes around it (``forget_outer_slots``).
        self.forgotten_bases: set[str] = set()

    # -- while parsing ----------------------------------------------------------------------------
    def forward(self, op: Operation, names: list[str], operands: list, hidden: list = ()) -> None:
        """Record the operands of ``op`` that did not resolve (``operands[i] is None``): forward
        references, or (found in ``hidden``, the scopes an isolated region hides) values defined
        outside the isolated region, which MLIR's verifier rejects."""
        for i, v in enumerate(operands):
            if v is None:
                name = names[i]
                if "#" in name:  # (a result number its value, defined already, does not have: MLIR's error there)
                    base = name.split("#", 1)[0]
                    if any(base in s for s in (*self.p.scopes, *hidden)):
                        raise self.p.error(self.use_offset(op, i), "reference to invalid result number")
                outer = next((s[name] for s in hidden if name in s), None)
                if outer is not None:
                    self.outside.append((op, i, outer))
                    self.outside_of.setdefault(id(op), []).append((i, outer))
                else:
                    self.pending.setdefault(name, []).append((op, i))
                    self.isolated_scope_of[(id(op), i)] = id(self.p.scopes[0])

    def redefinition(self, name: str, value: Value, previous: Value) -> ParseError:
        """MLIR's error for a second definition of ``name`` (at the new definition)."""
        at = self.definition_offset(value, name)
        return self.p.error(at, f"redefinition of SSA value '{name}' "
                                f"(previously defined at {_where(self.p, previous, name)})")

    def entry_argument_in_use(self, value: Value, previous: Location | None) -> ParseError:
        """MLIR's error for a region entry argument named as a value (or a forward reference) in scope."""
        at = self.p.offset_of(value.loc)
        where = f" (previously referenced at {previous.line}:{previous.column})" if previous is not None else ""
        return self.p.error(at, f"region entry argument '{value.name}' is already in use{where}")

    def first_use(self, name: str) -> Location | None:
        """Where the first pending forward reference to ``name`` is written (``None`` when every one is an
        operand of an op whose regions are being read: MLIR has not read those uses yet)."""
        for op, i in self.pending.get(name, ()):
            if id(op) not in self.open_ops:
                return self.p.loc(self.use_offset(op, i))
        return None

    def resolve(self, name: str, value: Value) -> None:
        """``name`` is now defined as ``value``: resolve the forward references to it."""
        uses = self.pending.pop(name, None)
        if not uses:
            return
        if self.open_ops:  # (the operands of an op whose regions are being read resolve after them)
            later = [u for u in uses if id(u[0]) in self.open_ops]
            if later:
                self.pending[name] = later
                uses = [u for u in uses if id(u[0]) not in self.open_ops]
        for op, i in uses:
            types = op.operand_types_view
            written = types[i] if len(types) == len(op.operands) else None
            if written is not None and value.type is not None and written != value.type:
                at = self.definition_offset(value, name)
                raise self.p.error(at, f"definition of SSA value '{_numbered(name)}' has type '{value.type}' "
                                       f"(previously used at {self._use_place(op, i)} with type '{written}')")
            if self.isolated_scope_of.pop((id(op), i), None) == id(self.p.scopes[0]):
                op.set_operand(i, value)  # (a value of another function stays unresolved, as MLIR prints it)
            self.resolved.append((op, i, value))

    def forget_outer_slots(self, scope: dict[str, Value], visible: list[dict[str, Value]], parent: Operation) -> None:
        """The region whose names ``scope`` holds has ended (``visible``: the scopes around it up to the nearest
        isolated region).  MLIR keeps one table entry per name with a slot per result number, and forgets the
        whole entry with the region that defined any slot: a region's ``%0#1`` takes the ``%0`` defined
        around it with it.  Later uses of the name are then forward references; so are ``parent``'s own
        operands (MLIR resolves an op's operands after reading its regions, except where a custom form reads
        them first, ``OPERANDS_BEFORE_REGIONS``)."""
        numbered = self.numbered_bases
        gone: set[str] = set()
        for name in scope:
            if "#" in name:
                base = name.split("#", 1)[0]
            elif name in numbered:
                base = name
            else:
                continue  # (a plain name defined around the region too was a redefinition already)
            slot = base + "#"
            for outer in visible:
                for key in [k for k in outer if k == base or k.startswith(slot)]:
                    del outer[key]
                    gone.add(key)
                    self.forgotten_bases.add(base)
        if not gone or (not parent.generic_form and parent.name in OPERANDS_BEFORE_REGIONS):
            return
        names = parent.operand_names_view
        operands = parent.operands
        fresh: list = list(operands)
        for i, name in enumerate(names):
            v = operands[i]
            if v is not None and (name in gone or (name[-2:] == "#0" and name[:-2] in gone)):
                parent.set_operand(i, None)
                fresh[i] = None
            else:
                fresh[i] = v if v is not None else operands  # (pending already: not recorded twice)
        self.forward(parent, list(names), fresh)

    def drop_scope(self, scope: dict[str, Value]) -> None:
        """The region whose names ``scope`` holds has ended.  MLIR's parser then forgets each name defined
        in it, with every slot of the name (``%0#1`` of a ``%0``): a forward reference to such a slot,
        still open, is never resolved ("use of undeclared SSA value name" at the end of the module, even
        where a later definition of the name would resolve it)."""
        bases = {name.split("#", 1)[0] for name in scope}
        for name in [n for n in self.pending if n.split("#", 1)[0] in bases]:
            uses = self.pending[name]
            if any(id(op) in self.open_ops for op, _ in uses):
                continue  # (the operands of an op whose regions are being read: resolved after them)
            self.orphans.extend(self.pending.pop(name))

    def check_types(self, op: Operation) -> None:
        """Each resolved operand of ``op`` has the type the op's text writes for it (MLIR resolves an
        operand against its written type: "use of value ... expects different type than prior uses")."""
        types = op.operand_types_view
        operands = op.operands
        if len(types) != len(operands):
            return
        outside = self.outside_of.pop(id(op), None) if self.outside_of else None
        if outside:  # (a value defined outside an isolated region: MLIR resolves the name, then checks its type)
            operands = list(operands)
            for i, v in outside:
                operands[i] = v
        for i in range(len(types)):  # (by index, not ``zip``: this runs for most ops of a big module)
            v, t = operands[i], types[i]
            if v is None or t is None or v.type is t or v.type is None or v.type == t:
                continue
            raise self.type_mismatch(op.operand_names_view[i], v, t, self.use_offset(op, i))

    def type_mismatch(self, name: str, value: Value, written, offset: int) -> ParseError:
        """MLIR's error for a use of ``value`` as ``name`` written at ``offset`` with another type."""
        return self.p.error(offset, f"use of value '{name}' expects different type than prior uses: "
                                    f"'{written}' vs '{value.type}' (prior use at {_where(self.p, value, name)})")

    # -- at the end of the text ---------------------------------------------------------------------
    def finish(self) -> None:
        """Report the first name never defined (MLIR's parser does at the end of the module)."""
        if self.orphans:
            orphan = min(self.use_offset(op, i) for op, i in self.orphans)
            if not self.pending or orphan < min(self.use_offset(op, i) for uses in self.pending.values()
                                                for op, i in uses):
                raise self.p.error(orphan, "use of undeclared SSA value name")
        if self.pending:
            first = min(((self.use_offset(op, i), name) for name, uses in self.pending.items() for op, i in uses))
            offset, name = first
            base = name.split("#", 1)[0]
            if "#" in name and base not in self.forgotten_bases and re.search(
                    re.escape(base) + r"(?::\d+)?\s*[,=]", self.p.text):
                raise self.p.error(offset, "reference to invalid result number")
            raise self.p.error(offset, "use of undeclared SSA value name")

    def verifier_failures(self) -> list[tuple[int, int, str, str, Operation]]:
        """What MLIR's verifier says of the uses met before their definition, or in an isolated region
        of a value defined outside it: (line, column, message, kind, the using op), kind "isolation" (a region
        invariant of the isolated op) or "dominance" (checked after every op), in text order. The
        uses within one isolated op are resolved to their values, as MLIR's parser resolves them; a
        use of another's value stays unresolved (MLIR prints it as ``<<UNKNOWN SSA VALUE>>``)."""
        out = []
        judged = [(op, i, value, False) for op, i, value in self.resolved]
        judged += [(op, i, value, True) for op, i, value in self.outside]
        for op, i, value, outside in sorted(judged, key=lambda r: self.p.offset_of(r[0].loc)):
            message = (f"'{op.name}' op using value defined outside the region" if outside
                       else _dominance_failure(op, i, value))
            if message is not None:  # (the verifier places it at the op's name)
                start = self.p.offset_of(op.loc)
                at = _after_results(self.p.text, start, op)
                while at < len(self.p.text) and self.p.text[at] in " \t\r\n":
                    at += 1
                if op.name in LOCATED_AFTER_NAME and not op.generic_form and self.p.text.startswith(op.name, at):
                    at += len(op.name)  # (``parseReduceOp`` gives the op the location of its '(')
                    while at < len(self.p.text) and self.p.text[at] in " \t\r\n":
                        at += 1
                line, col = self.p.lines.locate(at)
                out.append((line, col, message, "isolation" if outside else "dominance", op))
        return out

    # -- positions ------------------------------------------------------------------------------------
    def use_offset(self, op: Operation, index: int) -> int:
        """Where operand ``index`` of ``op`` is written (the op's start when it cannot be found)."""
        names = op.operand_names_view
        name = names[index]
        nth = sum(1 for n in names[:index] if n == name)
        start = self.p.offset_of(op.loc)
        text = self.p.text
        eq = _after_results(text, start, op)
        pos = eq
        for _ in range(nth + 1):
            pos = _find_name(text, name, pos)
            if pos < 0:
                return start
            found = pos
            pos += len(name)
        return found

    def definition_offset(self, value: Value, name: str) -> int:
        """Where ``value`` (named ``name``) is defined: its result name, or its own location."""
        start = self.p.offset_of(value.loc)
        if isinstance(value.owner, Operation):
            base = name.split("#", 1)[0]
            at = _find_name(self.p.text, base, start)
            if at >= 0:
                return at
        return start

    def _use_place(self, op: Operation, i: int) -> str:
        line, col = self.p.lines.locate(self.use_offset(op, i))
        return f"{line}:{col}"


def _numbered(name: str) -> str:
    return name if "#" in name else f"{name}#0"


def _where(p, value: Value, name: str) -> str:
    loc = value.loc
    return f"{loc.line}:{loc.column}" if loc is not None else "?"


def _find_name(text: str, name: str, pos: int) -> int:
    """The next whole occurrence of SSA name ``name`` at or after ``pos`` (-1 if none)."""
    while True:
        at = text.find(name, pos)
        if at < 0:
            return -1
        end = at + len(name)
        if end >= len(text) or not _NAME_TAIL.match(text, end) or (text[end] == "#" and "#" not in name):
            return at
        pos = at + 1


def _after_results(text: str, start: int, op: Operation) -> int:
    """The offset just after the ``=`` that ends ``op``'s result list (``start`` without results)."""
    if not op.results or not text.startswith("%", start):
        return start
    eq = text.find("=", start)
    return start if eq < 0 else eq + 1


def _ancestors(op: Operation) -> list[Block]:
    """The blocks that hold ``op``, innermost first."""
    out = []
    block = op.parent
    while block is not None:
        out.append(block)
        region = block.parent
        owner = region.parent if region is not None else None
        block = owner.parent if isinstance(owner, Operation) else None
    return out


def _owner_op(block: Block) -> Operation | None:
    region = block.parent
    return region.parent if region is not None else None


def _dominance_failure(op: Operation, index: int, value: Value) -> str | None:
    """MLIR's verifier message for a use (operand ``index`` of ``op``) of ``value`` written before
    it, or None when ``value`` dominates the use (a graph region; another block of a CFG)."""
    owner = value.owner
    def_block = owner if isinstance(owner, Block) else owner.parent if isinstance(owner, Operation) else None
    if def_block is None:
        return None
    chain = _ancestors(op)
    if def_block in chain:
        holder = _owner_op(def_block)
        if holder is not None and holder.name in _GRAPH_REGION_OPS:
            return None
        return f"operand #{index} does not dominate this use"
    # the definition is not in a block around the use: another block of one of those regions is
    # a CFG edge (not judged here); a region no isolated ancestor of the use holds is "outside"
    def_region = def_block.parent
    for block in chain:
        if block.parent is def_region:
            return None
        holder = _owner_op(block)
        if holder is not None and holder.name in ISOLATED_OPS:
            if not _inside(def_block, holder):
                return f"'{op.name}' op using value defined outside the region"
            break
    return f"operand #{index} does not dominate this use"


def _inside(block: Block, op: Operation) -> bool:
    while block is not None:
        holder = _owner_op(block)
        if holder is None:
            return False
        if holder is op:
            return True
        block = holder.parent
    return False

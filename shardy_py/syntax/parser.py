"""Build the IR (``Module``/``Operation``) from MLIR text.

The scanner (``syntax.scanner``) finds op and region spans in one linear pass; ``ModuleParser``
builds each op: its results and name, then its body through its declaration (``dialects/``: the
op's assembly format, ``syntax.format_parse``, or its hand-written parser, ``syntax.declared``),
its generic form (``syntax.generic_parser``), or, for an op of a dialect we do not model, a
lossless template (``syntax.opaque_ops``).  Values are defined and resolved here, with MLIR's SSA
rules (``syntax.ssa_uses``); attribute texts are read by ``syntax.attr_values``.
"""
from __future__ import annotations

import gc
import re

from shardy_py.dialects.registry import lookup
from shardy_py.errors import ParseError
from shardy_py.ir.module import Module
from shardy_py.ir.ops import NO_ATTRIBUTES, Block, Location, Operation, Region, Value
from shardy_py.ir.types import Type
from shardy_py.long_ints import long_int_strings
from shardy_py.syntax.alias_defs import (
    check_alias_definition,
    check_alias_uses,
    first_undefined_alias,
    not_a_definition,
)
from shardy_py.syntax.attr_values import AttrValueReader
from shardy_py.syntax.cursor import _SPACES, _VALUE_USE, Cursor
from shardy_py.syntax.declared import parse_custom
from shardy_py.syntax.earlier_errors import earlier_error
from shardy_py.syntax.generic_parser import parse_generic
from shardy_py.syntax.known_ops import check_known_op
from shardy_py.syntax.lexer_check import first_digit_led_name, first_lexer_error, first_odd_character
from shardy_py.syntax.locations import check_nested_location_aliases, first_location_error
from shardy_py.syntax.op_recipes import UNCLONABLE, make_recipe, shape_key
from shardy_py.syntax.opaque_ops import INHERENT_ATTRIBUTES, OpaqueOpReader
from shardy_py.syntax.pretty_names import may_hold_an_unknown_dialect_name, pretty_name_error
from shardy_py.syntax.scanner import (
    NAME_SPLIT,
    LineIndex,
    RawLabel,
    RawOp,
    RawRegion,
    Scanner,
    blank_comments,
    end_of_input_offset,
    wrong_token_offset,
)
from shardy_py.syntax.sdy_parser import StringEscapeError, unquote
from shardy_py.syntax.ssa_uses import NUMBERED_REGION_ARGUMENTS, OPERANDS_BEFORE_REGIONS, SsaUses

#: func ops that may be written without their dialect directly inside a func.func body.
FUNC_DEFAULT_OPS = ("return", "call", "call_indirect", "constant")
_DOTTED_NAME = re.compile(r"[A-Za-z_][\w$]*(?:\.[A-Za-z_$][\w$]*)+\Z")
MAX_RESULTS = 65536  # results of one op (real IR has a handful; tuples a few thousand)

_RESULTS = re.compile(r"(%[\w$.-]+)(?::(\d+))?\s*(?:,\s*|(=)\s*)")
_OP_NAME = re.compile(r'"([^"\\]*)"|([A-Za-z_][\w$.]*)')
_ALIAS_DEF = re.compile(r"([!#][\w$.-]+)\s*=")
_ALIAS_USE = re.compile(r"[!#][\w$.-]+(?![\w$.<-])")
_LABEL_ARG_NAME = re.compile(r"(?<=[(,])\s*%[\w$.-]+(?:#\d+)?")
_LABEL_ARG = re.compile(r"(%[\w$.-]+(?:#\d+)?)\s*:\s*")
_WHITE = re.compile(r"\s*")
_BLOCK_NAME = re.compile(r"\^[\w$.\-]+")


def _in_brackets(text: str, at: int) -> bool:
    """Is ``at`` inside a ``<...>`` or ``[...]`` of a block label's text (a type's or a location's)?"""
    return text.count("<", 0, at) > text.count(">", 0, at) or text.count("[", 0, at) > text.count("]", 0, at)

__all__ = ["FUNC_DEFAULT_OPS", "INHERENT_ATTRIBUTES", "Cursor", "ModuleParser", "parse_module"]


class ModuleParser(AttrValueReader, OpaqueOpReader):
    """Parses one text into a ``Module``."""

    def __init__(self, text: str, filename: str | None = None, first_line: int = 1, fast_paths: bool = True):
        self.text = text
        self.filename = filename
        self.lines = LineIndex(text, first_line)
        self.scanner = Scanner(text, self.lines, fast_lines=fast_paths)
        #: Build repeated one-line op shapes from recipes (``op_recipes``).
        self.use_recipes = fast_paths
        self.scopes: list[dict[str, Value]] = [{}]
        #: Every scope around the region being built, those an isolated region hides included: MLIR
        #: names values in one scope per module (a name is defined once there, isolated or not).
        self.all_scopes: list[dict[str, Value]] = self.scopes[:]
        self.func_depth = 0
        #: How many regions the op being built sits in.
        self.region_depth = 0
        self._dict_cache: dict[str, tuple[dict, dict]] = {}
        self._recipes: dict[tuple[str, bool], object] = {}
        self._names: dict[str, str] = {}
        #: ``!name = type`` definitions met so far: name (with ``!``) -> the type's text.
        self.type_aliases: dict[str, str] = {}
        #: ``#name = attr`` definitions (not locations): name (with ``#``) -> the attribute's text.
        self.attr_aliases: dict[str, str] = {}
        #: Forward references and the SSA rules of MLIR's parser (``ssa_uses``).
        self.ssa = SsaUses(self)

    def expand_aliases(self, text: str) -> str:
        """``text`` with every alias it uses written out (aliases may use earlier aliases)."""
        def one(m: re.Match) -> str:
            name = m.group()
            return self.type_aliases.get(name) or self.attr_aliases.get(name) or name

        return _ALIAS_USE.sub(one, text)

    # -- errors and locations ----------------------------------------------------
    def loc(self, offset: int) -> Location:
        return Location(*self.lines.locate(offset))

    def error(self, offset: int, message: str) -> ParseError:
        line, col = self.lines.locate(offset)
        return ParseError(message, line, col, offset, self.filename)

    def unquote_at(self, literal: str, offset: int) -> str:
        """The value of the string ``literal`` found at ``offset``; a bad escape is a located ParseError."""
        try:
            return unquote(literal)
        except StringEscapeError as e:
            raise self.error(offset + e.offset, str(e)) from None

    # -- text helpers ---------------------------------------------------------------
    # -- values ---------------------------------------------------------------------
    def define(self, v: Value, key: str | None = None, resolve: bool = True) -> None:
        """Make ``v`` visible as ``key`` (default: its name) in the innermost region; a name already
        visible is MLIR's "redefinition of SSA value"; a forward reference to it is resolved (not by a
        block label's argument, ``resolve=False``: jaxlib 0.12 leaves the name undeclared)."""
        name = key or v.name
        for scope in self.all_scopes:
            if name in scope:
                raise self.ssa.redefinition(name, v, scope[name])
        self.scopes[-1][name] = v
        if "#" in name:
            self.ssa.numbered_bases.add(name.split("#", 1)[0])
        if self.ssa.pending and resolve:
            self.ssa.resolve(name, v)
            if "#" not in name:
                self.ssa.resolve(name + "#0", v)

    def lookup(self, name: str) -> Value | None:
        for scope in reversed(self.scopes):
            v = scope.get(name)
            if v is not None:
                return v
            if name[-2:] == "#0":  # `%x#0` is slot 0 of the name `%x` (MLIR): the value `%x` names, whatever
                v = scope.get(name[:-2])  # defines it (an op's result group, an argument)
                if v is not None:
                    return v
        return None

    def make_results(self, op: Operation, groups: list[tuple[str, int]], types: list[Type | None],
                     loc: Location | int | None = None) -> None:
        """Define ``op``'s results (``loc``: the op's location, packed or not; default ``op.loc``)."""
        if loc is None:
            loc = op.loc
        total = sum(n for _, n in groups)
        if len(types) == 1 and total > 1 and types[0] is None:
            types = types * total
        idx = 0
        for name, count in groups:
            for k in range(count):
                t = types[idx] if idx < len(types) else None
                vname = name if count == 1 else f"{name}#{k}"
                v = Value(vname, t, op, idx, loc, NO_ATTRIBUTES)  # only arguments carry attributes
                op.results.append(v)
                if not name:
                    pass  # results left unnamed (`"d.op"() : () -> i32`): no name refers to them
                elif count > 1 and k == 0:
                    self.define(v, name)  # `%0` names `%0#0`
                    self.scopes[-1][vname] = v
                else:
                    self.define(v)
                idx += 1

    def set_operands(self, op: Operation, names: list[str]) -> None:
        op.operand_names = names
        operands = [self.lookup(n) for n in names]
        op.operands = operands
        if None in operands:
            self.ssa.forward(op, names, operands, self.all_scopes if len(self.all_scopes) > len(self.scopes) else ())

    # -- regions ---------------------------------------------------------------------
    def build_region(self, raw: RawRegion, parent: Operation, args: list[Value] | None = None,
                     isolated: bool = False) -> Region:
        region = Region(parent=parent)
        saved, saved_all = self.scopes, self.all_scopes
        scope: dict[str, Value] = {}
        self.scopes = [scope] if isolated else self.scopes + [scope]
        self.all_scopes = saved_all + [scope]
        self.region_depth += 1
        if parent.generic_form or parent.name not in OPERANDS_BEFORE_REGIONS:
            self.ssa.open_ops.add(id(parent))
        saved_func_depth = self.func_depth
        if parent.name != "func.func" and not parent.generic_form:
            # (func is the default dialect of a function's body, not of the regions of custom-form ops in it;
            # a generic op sets no default dialect, as MLIR's parseGenericOperation: its regions keep the outer one)
            self.func_depth = 0
        try:
            block = Block(parent=region)
            region.blocks.append(block)
            if args and raw.items and isinstance(raw.items[0], RawLabel):
                raise self.error(raw.items[0].start, "invalid block name in region with named arguments")
            for a in args or []:
                a.owner = block
                if a.loc is None:  # a name an unknown op's text binds (``opaque``): kept, unjudged
                    self.scopes[-1][a.name] = a
                    continue
                if "#" in a.name and (parent.generic_form or parent.name not in NUMBERED_REGION_ARGUMENTS):
                    raise self.error(self.offset_of(a.loc) + a.name.index("#"),
                                     "result number not allowed in argument list")
                for scope in self.all_scopes:
                    previous = scope.get(a.name)
                    if previous is not None:
                        raise self.ssa.entry_argument_in_use(a, previous.loc)
                for name in (a.name, a.name + "#0"):  # a forward reference is a reference too (``%x#0``: slot 0)
                    first = self.ssa.first_use(name) if name in self.ssa.pending else None
                    if first is not None:
                        raise self.ssa.entry_argument_in_use(a, first)
                self.define(a)
            block.arguments = list(args or [])
            items, raw.items = raw.items, []
            labels: set[str] = set()  # (block names are the region's: MLIR's per-region definitions)
            for i, item in enumerate(items):
                items[i] = None  # drop each op's skeleton once built: a big module never holds both whole
                if isinstance(item, RawLabel):
                    name = _BLOCK_NAME.match(self.text, item.start)
                    if name is not None:
                        if name.group() in labels:
                            raise self.error(item.start, f"redefinition of block '{name.group()}'")
                        labels.add(name.group())
                    if block.ops or block.label is not None or (block is region.blocks[0] and block.arguments):
                        block = Block(parent=region)
                        region.blocks.append(block)
                    block.label = self.norm(item.start, item.end)
                    block.arguments = self.label_args(item, block)
                    continue
                op = self.build_op(item)
                op.parent = block
                block.ops.append(op)
        finally:
            self.scopes, self.all_scopes = saved, saved_all
            if scope and not isolated:
                self.ssa.forget_outer_slots(scope, saved, parent)
            if self.ssa.pending and scope:
                self.ssa.drop_scope(scope)
            self.ssa.open_ops.discard(id(parent))
            self.region_depth -= 1
            self.func_depth = saved_func_depth
        return region

    def label_args(self, item: RawLabel, block: Block) -> list[Value]:
        text = self.text[item.start:item.end]
        no_colon = len(text)  # where the first argument without its ':' ends (MLIR: "expected ':'" there)
        for m in _LABEL_ARG_NAME.finditer(text):  # every argument is `%name: type`
            if not text.startswith(":", _SPACES.match(text, m.end()).end()) and not _in_brackets(text, m.start()):
                no_colon = m.end()
                break
        out = []
        opened = text.find("(")
        due = opened + 1 if opened >= 0 else None  # where the next argument's '%' is due (after '(' or ',')
        for i, m in enumerate(_LABEL_ARG.finditer(text)):  # (`%0#1` too: MLIR's slot 1 of the name `%0`)
            if m.start() > no_colon:
                break  # (the types before it read first, in MLIR's order)
            if due is not None and (at := _WHITE.match(text, due).end()) < m.start():  # (text before the name)
                raise self.error(wrong_token_offset(self.text, item.start + at), "expected SSA operand")
            c = Cursor(self, RawOp(item.start, item.end), item.start + m.end(), "block label")
            t = c.type()
            v = Value(m.group(1), t, block, i, self.loc(item.start + m.start()))
            v.location_text = c.location()
            if c.ws() < c.end and self.text[c.pos] not in ",)":  # (a label cut after a type: ``salvage``)
                raise self.error(wrong_token_offset(self.text, c.pos), "expected ')'")
            if c.pos >= len(self.text):  # (cut by the end of the input: MLIR's wrong token there)
                raise self.error(end_of_input_offset(self.scanner.source, self.text), "expected ')'")
            self.define(v)
            out.append(v)
            due = c.pos + 1 - item.start if c.pos < c.end and self.text[c.pos] == "," else None
        if no_colon < len(text):
            raise self.error(item.start + no_colon, "expected ':' and type for SSA operand")
        return out

    # -- ops ------------------------------------------------------------------------------
    def build_op(self, raw: RawOp) -> Operation:
        """The op spanning ``raw``: from the recipe of its shape when one-line ops of that shape came before."""
        if raw.regions or not self.use_recipes:
            return self.parse_op(raw)
        text = self.text[raw.start:raw.end]
        if raw.shape is not None:  # the scanner's line fast path has cut the names out already
            recipe = self._recipes.get((raw.shape, self.func_depth > 0))
            names = None
        elif "\n" in text:
            return self.parse_op(raw)
        else:
            parts = NAME_SPLIT.split(text)
            recipe = self._recipes.get(shape_key(parts, self.func_depth > 0))
            names = parts[1::2]
        if recipe is None:
            parts = NAME_SPLIT.split(text)
            op = self.parse_op(raw)
            self._recipes[shape_key(parts, self.func_depth > 0)] = make_recipe(op, text, parts)
            return op
        if recipe is not UNCLONABLE:
            intern = self._names.setdefault  # one string per SSA name, however often it is used
            names = NAME_SPLIT.findall(text) if names is None else names
            op = recipe.build(self, raw.start, [intern(n, n) for n in names])
            if op is not None:
                return op
        return self.parse_op(raw)

    def parse_op(self, raw: RawOp) -> Operation:
        """The op spanning ``raw``, parsed in full."""
        text = self.text
        pos = raw.start
        groups: list[tuple[str, int]] = []
        if text.startswith("%", pos):
            while True:
                m = _RESULTS.match(text, pos, raw.end)
                if not m:
                    name = _VALUE_USE.match(text, pos, raw.end)
                    if name and "#" in name.group():  # `%0#1 = ...`: MLIR's wrong token is the '#'
                        raise self.error(pos + name.group().index("#"), "expected '=' after SSA name")
                    raise self.error(*_result_list_error(text, pos, self.scanner.skip_ws))
                count = 1
                if m.group(2):
                    if len(m.group(2)) > 6 or int(m.group(2)) > MAX_RESULTS:
                        raise self.error(m.start(2), f"result count {m.group(2)[:12]} is larger than the "
                                                     f"{MAX_RESULTS} results an op may have here")
                    count = int(m.group(2))
                    if count == 0:
                        raise self.error(m.start(2), "a result group needs at least one result")
                groups.append((m.group(1), count))
                pos = m.end()
                if m.group(3):
                    break
        m = _OP_NAME.match(text, pos, raw.end)
        if not m:  # (MLIR: a wrong token, after the text before it)
            raise self.error(wrong_token_offset(text, pos), "expected operation name in quotes")
        generic = m.group(1) is not None
        name = m.group(1) if generic else m.group(2)
        if not generic and not _DOTTED_NAME.match(name):
            if (name in FUNC_DEFAULT_OPS or name == "func") and self.func_depth:
                name = "func." + name  # (MLIR tries the default dialect: 'func' is func.func, nested or not)
            elif name == "module" and not self.func_depth:  # (in a function body MLIR reads 'func.module')
                name = "builtin.module"
            else:
                raise self.error(pos, f"expected an operation name like 'dialect.op', found '{name}'"
                                 + (f" ('{name}' is a func op: write func.{name} outside a function body)"
                                    if name in FUNC_DEFAULT_OPS else ""))
        after = self.scanner.skip_ws(m.end())
        if after < raw.end and text[after] == "=" and not text.startswith("==", after):
            raise self.error(after, f"unexpected '=' after the op name '{name}'; results come before the "
                                    f"name, as in '%0 = {name} ...'")
        if after < raw.end and text[after] == ",":
            raise self.error(after, f"unexpected ',' after the op name '{name}'")
        if generic and (not name or after >= raw.end or text[after] != "("):
            if not name:
                raise self.error(pos, "expected an op name in the generic form")
            raise self.error(wrong_token_offset(text, after), "expected '(' to start operand list")  # (a wrong token)
        op = Operation(name, loc=self.loc(raw.start), result_groups=groups, generic_form=generic)
        cur = Cursor(self, raw, m.end(), name)
        decl = lookup(name)
        if decl is None:
            check_known_op(self, name, m.start(), generic)
        if generic:
            parse_generic(self, cur, op, decl, m.start())
        elif decl is not None:
            parse_custom(self, cur, op, decl)
        else:
            self.opaque(cur, op, raw)
        self.ssa.check_types(op)
        return op


#: Characters Python counts as white space but MLIR's lexer rejects (outside comments).
_NOT_WHITE_SPACE = re.compile("[\v\f]")
_STRING_LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"?')


def _reject_control_character(text: str, offset: int, filename: str | None, first_line: int) -> None:
    """Raise MLIR's error for a vertical tab or form feed at ``offset`` (comments already blanked)."""
    line_start = text.rfind("\n", 0, offset) + 1
    inside = any(m.start() < offset < m.end() for m in _STRING_LITERAL.finditer(text, line_start, offset + 1))
    line, col = LineIndex(text, first_line).locate(offset)
    what = "vertical tab" if text[offset] == "\v" else "form feed"
    message = (f"expected '\"' in string literal: a string cannot hold a raw {what} (write a hex escape)" if inside
               else f"unexpected character: a {what} is not white space in MLIR")
    raise ParseError(message, line, col, offset, filename)


#: An op result's name and what may follow it (its result count after ':').
_RESULT_NAME = re.compile(r"%[\w$.-]+")
_RESULT_COUNT = re.compile(r"\d+")


def _result_list_error(text: str, pos: int, skip_ws) -> tuple[int, str]:
    """(offset, message) of MLIR's error in an op's result list at ``pos`` that is not ``%name[:N]`` and then
    ',' or '=': a wrong token after the name (or its count), reported after the text before it."""
    name = _RESULT_NAME.match(text, pos)
    if name is None:
        return pos, "expected '=' after the op results"
    after = skip_ws(name.end())
    if text.startswith(":", after):
        count = skip_ws(after + 1)
        digits = _RESULT_COUNT.match(text, count)
        if digits is None:
            return wrong_token_offset(text, count), "expected integer number of results"
        after = skip_ws(digits.end())
    return wrong_token_offset(text, after), "expected '=' after SSA name"


def _pretty_name_first(p: ModuleParser, error: ParseError, defined: dict[str, bool]) -> ParseError:
    """``error``, or the error MLIR meets first at a dialect attribute or type that starts at or before it (a
    wrong token's error is reported before the token): its pretty body does not close, or it has none
    (``#sdy.`` cut at its dot, ``#sdy.sharding`` and no ``<``) and its dialect's parser fails after it; or
    at an alias used there and not defined before (``!sta``, a type cut in its dialect's name: MLIR looks it up
    where it is used, ``check_alias_uses`` once the module is read)."""
    unread = error.offset if error.message == "unclosed bracket" else None
    limit = len(p.text) if unread is not None else p.scanner.skip_ws(error.offset)
    if error.message.startswith("use of value"):  # (MLIR: met once the op's types are read, on its line)
        limit = line_end if (line_end := p.text.find("\n", limit)) >= 0 else len(p.text)
    found = pretty_name_error(p.text, p.scanner.source, limit, unread)  # (a bracket no closer matches: read on)
    undefined = None if error.message.endswith("alias definition") else \
        first_undefined_alias(p.text, set(defined), limit)  # (not where the error is a definition's)
    if undefined is not None and (found is None or undefined[0] < found[0]) and (
            found is None or pretty_name_error(p.text, p.scanner.source, undefined[0], unread) is None):
        found = undefined  # (unless the failing dialect name starts before the alias: MLIR lexes it first)
    if found is None or found[0] == error.offset and found[1] == error.message:
        return error
    if found[0] >= error.offset and error.message == "unexpected character":
        return error  # (the lexer fails on the token the dialect's parser asks for)
    return p.error(*found)


#: A number of 10 or more digits after a ':' (a location's line or column may not fit its 32 bits).
_LONG_NUMBER_AFTER_COLON = re.compile(r":[ \t]*(?:0x[0-9a-fA-F]{8,}|\d{10,})")


def parse_module(text: str, filename: str | None = None, first_line: int = 1, *, fast_paths: bool = True,
                 _earlier: bool = True, _salvage: bool = False, _read_on: bool = False) -> Module:
    """Parse ``text`` into a ``Module`` (raises ``ParseError``).

    ``fast_paths=False`` parses every op in full (no scanner line fast path, no op recipes): the same
    module, slower; the tests and the fuzz target compare the two.
    """
    with long_int_strings():  # (a number of any length is read, then judged, as MLIR does)
        try:
            module = _parse_module(text, filename, first_line, fast_paths, _earlier, _salvage, _read_on)
            if "loc(" in text and _LONG_NUMBER_AFTER_COLON.search(text):  # (a location's line or column past 32 bits?)
                found = first_location_error(text, ParseError("", 0, 0, len(text), filename), filename, first_line)
                if found is not None:
                    raise found
            return module
        except ParseError as e:
            if not _earlier:
                raise
            first = first_location_error(text, e, filename, first_line)  # (MLIR's location grammar, met first)
            if first is None:
                raise
            raise first from None


def _parse_module(text: str, filename: str | None, first_line: int, fast_paths: bool, _earlier: bool,
                  _salvage: bool, _read_on: bool = False) -> Module:
    blanked = blank_comments(text)
    if "\x00" in blanked:  # (a comment may hold one, as MLIR's lexer skips it there)
        i = blanked.index("\x00")
        line, col = LineIndex(text, first_line).locate(i)
        raise ParseError("the input contains a NUL byte; is this a binary file?", line, col, i, filename)
    if (bad := _NOT_WHITE_SPACE.search(blanked)) is not None:
        _reject_control_character(blanked, bad.start(), filename, first_line)
    odd = first_odd_character(blanked)
    digit_led = first_digit_led_name(blanked)
    if _salvage:
        from shardy_py.syntax.salvage import SalvageParser

        p = SalvageParser(blanked, filename, first_line, fast_paths)
    elif _read_on:
        from shardy_py.syntax.cut_ops import CutOpParser

        p = CutOpParser(blanked, filename, first_line, fast_paths)
    else:
        p = ModuleParser(blanked, filename, first_line, fast_paths)
    p.scanner.source = text
    alias_names: dict[str, bool] = {}
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        preamble: list[str] = []
        postamble: list[str] = []
        ops: list[Operation] = []
        for item in p.scanner.top_level_items():  # each op built before the text after it is scanned
            if isinstance(item, RawLabel):
                raise p.error(item.start, "a block label is only allowed inside a region")
            c = p.text[item.start]
            alias = _ALIAS_DEF.match(p.text, item.start, item.end) if c in "!#" else None
            if alias:
                check_alias_definition(p, alias.group(1), alias.end(), item.end, alias_names)
                alias_names[alias.group(1)] = True
            if c in "!#" and not p.text.startswith("#loc", item.start):
                if alias:  # MLIR writes an alias out where it is used and prints no definition
                    body = p.text[alias.end():item.end].strip()
                    if c == "!":
                        p.type_aliases[alias.group(1)] = p.norm(alias.end(), item.end)
                    else:
                        p.attr_aliases[alias.group(1)] = body  # an unknown dialect's text, kept as written
                    continue
            if c in "#!" and not alias:
                raise not_a_definition(p, item.start)
            if c in "#!" or p.text.startswith("{-#", item.start):
                # alias definitions after the ops (MLIR prints location aliases there) stay after them
                (postamble if ops else preamble).append(
                    p.norm(item.start, item.end) if c in "#!" else p.text[item.start:item.end].strip())
                continue
            ops.append(p.build_op(item))
        if p.scanner.pending is not None:
            raise p.scanner.pending  # (a salvage parse whose cut op was an alias definition)
        if odd is not None:
            raise p.error(odd, "unexpected character")
        if digit_led is not None:
            raise p.error(*digit_led)
        if p.scanner.unclosed is not None:
            raise p.scanner.unclosed
        check_alias_uses(p, set(alias_names))
        check_nested_location_aliases(p)
        p.ssa.finish()
        if may_hold_an_unknown_dialect_name(blanked) and (found := pretty_name_error(blanked, text, len(blanked))):
            raise p.error(*found)  # (an attribute or type its dialect does not have, kept as written)
    except RecursionError:
        raise ParseError("the input is nested too deeply to parse", 1, 1, 0, filename) from None
    except ParseError as e:
        try:
            if odd is not None and odd <= p.scanner.skip_ws(e.offset) and e.message != "unexpected character":
                raise p.error(odd, "unexpected character") from None  # (MLIR's lexer reaches it first)
            if digit_led is not None and digit_led[0] <= p.scanner.skip_ws(e.offset) and digit_led[0] != e.offset:
                raise p.error(*digit_led) from None  # (MLIR's parse stops there first)
            lexed = first_lexer_error(blanked, 0, len(blanked), registered=True)
            if lexed is not None and lexed[0] != e.offset and lexed[0] <= p.scanner.skip_ws(e.offset):
                raise p.error(*lexed) from None  # (MLIR's lexer reaches it first; at the same place, ours says more)
            unclosed = p.scanner.unclosed
            if unclosed is not None and e is not unclosed and e.offset >= unclosed.offset:
                unclosed_first = unclosed  # (what the op after an unclosed region lacks: the end came first)
            else:
                unclosed_first = None
            if _earlier and getattr(e, "scan_from", None) is not None:
                from shardy_py.syntax.salvage import salvaged_error

                first = salvaged_error(e, lambda: parse_module(text, filename, first_line, fast_paths=fast_paths,
                                                               _earlier=False, _salvage=True))
                if first is not None and (unclosed_first is None or first.offset < unclosed_first.offset):
                    raise first from None  # (the op the scan failed in fails before the end)
            if unclosed_first is not None:
                raise unclosed_first from None
            if _earlier and getattr(e, "scan_from", None) is None:
                from shardy_py.syntax.cut_ops import is_cut_op_error
                from shardy_py.syntax.salvage import salvaged_error

                if is_cut_op_error(e):  # (an op's syntax met the end of its text: MLIR reads on into the next op's)
                    first = salvaged_error(e, lambda: parse_module(text, filename, first_line, fast_paths=fast_paths,
                                                                   _earlier=False, _read_on=True))
                    if first is not None:
                        raise first from None
            first = earlier_error(text, e, lambda prefix: parse_module(
                prefix, filename, first_line, fast_paths=fast_paths, _earlier=False),
                lambda name, at: None if lookup(name) else check_known_op(p, name, at, False)
            ) if _earlier else None
            if first is not None:
                raise first from None
            raise
        except ParseError as first:
            raise _pretty_name_first(p, first, alias_names) from None
    finally:
        if gc_was_enabled:
            gc.enable()
    if len(ops) == 1 and ops[0].name == "builtin.module":
        top = ops[0]
        top.properties["explicit"] = True
    else:
        top = Operation("builtin.module", loc=Location(first_line, 1))
        region = Region(parent=top)
        block = Block(parent=region)
        region.blocks.append(block)
        top.regions.append(region)
        for op in ops:
            op.parent = block
            block.ops.append(op)
    return Module(top, text, filename, preamble, postamble, p.ssa.verifier_failures())

"""Parse sdy attribute text with the Lark grammar in ``grammar/sdy.lark``.

Parsing is memoised by text: real modules repeat a handful of attribute
texts thousands of times, so each distinct text is parsed once and the same
(immutable) attribute object is returned for every occurrence.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import Path

import lark
from lark import Token, Transformer, v_args

from shardy_py.errors import AttrSyntaxError, ParseError
from shardy_py.ir import attrs as A
from shardy_py.syntax.attr_printer import factor_symbol
from shardy_py.syntax.scanner import LineIndex

START_RULES = (
    "attribute", "mesh_body", "mesh_op_body", "sharding_body", "sharding_list", "manual_axes", "axis_ref_list",
    "list_of_axis_ref_lists", "all_to_all_params", "rule_body", "edges_body", "attribute_array",
)
INT64_MAX = 2**63 - 1


def grammar_path(name: str) -> Path:
    """Where a grammar file is: inside the installed package, or in the source tree."""
    here = Path(__file__).resolve().parent.parent
    for cand in (here / "grammar" / name, here.parent / "grammar" / name):
        if cand.exists():
            return cand
    raise FileNotFoundError(f"grammar file {name} not found next to {here}")


@functools.cache
def _parser() -> lark.Lark:
    return lark.Lark(grammar_path("sdy.lark").read_text(), parser="lalr", lexer="contextual",
                     start=list(START_RULES), propagate_positions=False, maybe_placeholders=True)


_ESCAPE = re.compile(r'\\(?:([0-9A-Fa-f]{2})|(.))', re.S)
#: Characters MLIR's lexer does not let a string literal hold raw (it ends the literal with an error).
_LINE_BREAK = re.compile("[\n\v\f]")
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


class StringEscapeError(ValueError):
    """A string literal holds an escape MLIR does not know; ``offset`` is where, in the literal."""

    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.offset = offset


def unquote(tok: str) -> str:
    """The value of an MLIR string literal (``"a\\22b"`` -> ``a"b``); raises ``StringEscapeError``."""
    body = tok[1:-1]
    if (m := _LINE_BREAK.search(body)) is not None:
        raise StringEscapeError("expected '\"' in string literal: a string cannot hold a raw line break, "
                                "vertical tab or form feed (write \\n or a hex escape)", m.start() + 1)
    if "\\" not in body:
        return body
    out = bytearray()
    pos = 0
    for m in _ESCAPE.finditer(body):
        out += body[pos:m.start()].encode()
        if m.group(1):
            out.append(int(m.group(1), 16))
        else:
            c = m.group(2)
            if c not in _SIMPLE_ESCAPES:
                raise StringEscapeError(f"unknown escape sequence '\\{c}' in a string; expected \\n, \\t, "
                                        f"\\\", \\\\ or two hex digits", m.start() + 1)
            out += _SIMPLE_ESCAPES[c].encode()
        pos = m.end()
    out += body[pos:].encode()
    return out.decode("utf-8", errors="surrogateescape")


def _err(tok: Token, msg: str) -> AttrSyntaxError:
    return AttrSyntaxError(msg, tok.start_pos if isinstance(tok, Token) and tok.start_pos is not None else 0)


def _int(tok: Token, what: str = "integer") -> int:
    if len(tok.lstrip("-")) > 19:  # longer than any int64, and beyond int()'s digit limit soon
        raise _err(tok, f"{what} {tok[:24]}{'...' if len(tok) > 24 else ''} does not fit in a 64-bit signed integer")
    v = int(tok)
    if not -(2**63) <= v <= INT64_MAX:
        raise _err(tok, f"{what} {tok} does not fit in a 64-bit signed integer")
    return v


def factor_symbols(tok: Token) -> tuple[int, ...]:
    """Decode a run of factor symbols: ``i``..``z`` are 0..17, ``z_N`` is 17+N (``zz_1`` = (17, 18))."""
    s = str(tok)
    out: list[int] = []
    i = 0
    while i < len(s):
        c = s[i]
        if not ("i" <= c <= "z"):
            raise _err(tok, f"factor symbols are letters 'i' to 'z' or 'z_N'; got '{c}' in '{s}'")
        if c == "z" and i + 1 < len(s) and s[i + 1] == "_":
            j = i + 2
            while j < len(s) and s[j].isdigit():
                j += 1
            digits = s[i + 2:j]
            if not digits:
                raise _err(tok, f"expected a number after 'z_' in factor '{s}'")
            if digits.startswith("0"):
                raise _err(tok, f"factor number after 'z_' must be positive without leading zeros; got '{digits}'")
            n = int(digits)
            if 17 + n > INT64_MAX:
                raise _err(tok, f"factor number '{digits}' is too large (at most 2^63-1)")
            out.append(17 + n)
            i = j
        else:
            out.append(ord(c) - ord("i"))
            i += 1
    return tuple(out)


_PRIORITY = re.compile(r"p(0|[1-9][0-9]*)\Z")


def _priority(tok: Token | None) -> int | None:
    if tok is None:
        return None
    s = str(tok)
    if re.fullmatch(r"p0[0-9]+", s):
        raise _err(tok, f"priority '{s}' has leading zeros; write p0, p1, p2, ...")
    m = _PRIORITY.match(s)
    if not m:
        raise _err(tok, f"expected a priority of the form 'p<number>' (p0, p1, ...), got '{s}'")
    v = int(m.group(1))
    if v > INT64_MAX:
        raise _err(tok, f"priority '{s}' does not fit in a 64-bit signed integer")
    return v


@v_args(inline=True)
class _Build(Transformer):
    """Tree -> ``shardy_py.ir.attrs`` objects."""

    # meshes
    def mesh_op_body(self, m):
        return m

    def mesh_axis(self, name, size):
        return A.MeshAxisAttr(unquote(name), _int(size, "axis size"))

    def device_ids(self, *ids):
        return tuple(_int(i, "device id") for i in ids)

    def mesh_body(self, *items):
        ids = items[-1]
        axes = tuple(a for a in items[:-1] if a is not None)
        return A.MeshAttr.get(axes, ids or ())

    # axis refs and shardings
    def axis_ref(self, name, pre, size):
        sub = None if pre is None else A.SubAxisInfoAttr(_int(pre), _int(size))
        return A.AxisRefAttr(unquote(name), sub)

    def dim_closed_empty(self, prio):
        return A.DimensionShardingAttr((), True, _priority(prio))

    def dim_open_empty(self, prio):
        return A.DimensionShardingAttr((), False, _priority(prio))

    def dim_tail_closed(self, prio):
        return (True, _priority(prio))

    def dim_tail_open(self, prio):
        return (False, _priority(prio))

    def dim_sharding(self, *items):
        closed, prio = items[-1]
        return A.DimensionShardingAttr(tuple(items[:-1]), closed, prio)

    def mesh_ref(self, tok):
        s = str(tok)[1:]
        return unquote(s) if s.startswith('"') else s

    def mesh_inline(self, mesh):
        return mesh

    def nonempty_axis_list(self, *axes):
        return tuple(axes)

    def replicated(self, axes):
        return ("replicated", axes, None)

    def unreduced(self, kind, axes):
        return ("unreduced", axes, str(kind) if kind is not None else "sum")

    def unreduced_default(self, axes):
        return ("unreduced", axes, "sum")

    def sharding_body(self, mesh, *rest):
        dims = []
        i = 0
        while i < len(rest) and (rest[i] is None or isinstance(rest[i], A.DimensionShardingAttr)):
            if rest[i] is not None:
                dims.append(rest[i])
            i += 1
        replicated: tuple = ()
        unreduced: tuple = ()
        reduction = "sum"
        seen: set[str] = set()
        for kind, axes, red in rest[i:]:
            if kind in seen:
                raise AttrSyntaxError(f"'{kind}' may appear only once in a sharding", 0)
            seen.add(kind)
            if kind == "replicated":
                replicated = axes
            else:
                unreduced, reduction = axes, red
        return A.TensorShardingAttr(mesh, tuple(dims), replicated, unreduced, reduction)

    def sharding_list(self, *items):
        return tuple(s for s in items if s is not None)

    # op sharding rules
    def tensor_mapping(self, *slots):
        if len(slots) == 1 and slots[0] is None:
            return A.TensorMappingAttr(())
        return A.TensorMappingAttr(tuple(A.DimMappingAttr(factor_symbols(s) if s is not None else ())
                                         for s in slots))

    def tensor_mappings(self, *ms):
        return tuple(ms)

    def factor_size(self, sym, size):
        idx = factor_symbols(sym)
        if len(idx) != 1:
            raise _err(sym, f"a factor size needs a single factor symbol, got '{sym}'")
        return (sym, idx[0], _int(size, "factor size"))

    def factor_sizes(self, *entries):
        sizes = []
        for k, (sym, idx, size) in enumerate(e for e in entries if e is not None):
            if idx != k:
                raise _err(sym, f"factor sizes must list the factors in order i, j, k, ...: "
                                f"expected '{A_symbol(k)}', got '{sym}'")
            sizes.append(size)
        return ("sizes", tuple(sizes))

    def special_factors(self, kind, *syms):
        # Like the C++ parser, each element contributes its first symbol only.
        return (str(kind), tuple(factor_symbols(s)[0] for s in syms if s is not None))

    def custom(self, kw):
        if str(kw) != "custom":
            raise _err(kw, f"expected 'custom' after ',' in a sharding rule, got '{kw}'")
        return ("custom", True)

    def rule_body(self, operands, results, *rest):
        fields: dict = {}
        order = ["sizes", "reduction", "need_replication", "permutation", "blocked_propagation", "custom"]
        last = -1
        for item in rest:
            if item is None:
                continue
            kind, value = item
            pos = order.index(kind)
            if pos <= last:
                raise AttrSyntaxError(f"'{kind}' is out of order in the sharding rule; the order is "
                                      "{sizes} reduction= need_replication= permutation= blocked_propagation= "
                                      ", custom", 0)
            last = pos
            fields[kind] = value
        return A.OpShardingRuleAttr(
            fields.get("sizes", ()), operands, results, fields.get("reduction", ()),
            fields.get("need_replication", ()), fields.get("permutation", ()),
            fields.get("blocked_propagation", ()), fields.get("custom", False))

    # propagation edges
    def edge_value(self, kind, idx):
        return A.EdgeValueRefAttr(str(kind), _int(idx))

    def edge_entry(self, axis, source, *targets):
        return A.AxisToPropagationDetailsAttr(axis, source, tuple(targets))

    def edge_step(self, idx, *entries):
        return A.PropagationOneStepAttr(_int(idx), tuple(entries))

    def edges_body(self, *steps):
        return A.PropagationEdgesAttr(tuple(steps))

    # op pieces
    def manual_axes(self, *names):
        return A.ManualAxesAttr(tuple(unquote(n) for n in names if n is not None))

    def axis_ref_list(self, *axes):
        return A.AxisRefListAttr(tuple(a for a in axes if a is not None))

    def list_of_axis_ref_lists(self, *lists):
        return A.ListOfAxisRefListsAttr(tuple(x for x in lists if x is not None))

    def all_to_all_param(self, axes, src, tgt):
        return A.AllToAllParamAttr(axes, _int(src), _int(tgt))

    def all_to_all_params(self, *ps):
        return A.AllToAllParamListAttr(tuple(p for p in ps if p is not None))

    # standalone wrappers
    def std_mesh(self, m):
        return m

    def std_sharding(self, s):
        return s

    def std_sharding_per_value(self, lst):
        return A.TensorShardingPerValueAttr(lst)

    def std_rule(self, r):
        return r

    def std_edges(self, e):
        return e

    def std_generic(self, body):
        return body

    def attribute_array(self, *items):
        return tuple(x for x in items if x is not None)


def A_symbol(k: int) -> str:
    return factor_symbol(k)


_BUILD = _Build()
_MNEMONICS = ("mesh", "sharding", "sharding_per_value", "op_sharding_rule", "propagation_edges", "manual_axes",
              "axis_ref_list", "list_of_axis_ref_lists", "all_to_all_param_list")

_TOKEN_NAMES = {
    "LSQB": "'['", "RSQB": "']'", "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('", "RPAR": "')'",
    "LESSTHAN": "'<'", "MORETHAN": "'>'", "COMMA": "','", "EQUAL": "'='", "COLON": "':'",
    "STRING": "a string", "INT": "an integer", "SYMBOL": "a symbol like @mesh", "QMARK": "'?'",
    "PRIORITY": "a priority like p0", "FACTORS": "factor symbols", "MINUS": "'-'",
}


@functools.lru_cache(maxsize=1)
def _literal_terminals() -> dict[str, str]:
    """Lark's names of the grammar's unnamed literal terminals (``__ANON_3``) -> the literal, quoted."""
    return {t.name: repr(t.pattern.value) for t in _parser().terminals
            if t.name.startswith("__ANON") and type(t.pattern).__name__ == "PatternStr"}


def _describe(expected) -> str:
    literals = _literal_terminals()
    names = sorted({_TOKEN_NAMES.get(e) or literals.get(e) or e.lower().strip("_") for e in expected})
    if len(names) > 6:
        names = names[:6] + ["..."]
    return " or ".join(names)


def _convert_lark_error(e: lark.exceptions.LarkError, text: str) -> AttrSyntaxError:
    if isinstance(e, lark.exceptions.VisitError):
        orig = e.orig_exc
        if isinstance(orig, AttrSyntaxError):
            return AttrSyntaxError(orig.message, orig.offset)  # (without the transformer's frames)
        return AttrSyntaxError(str(orig), 0)
    if isinstance(e, lark.exceptions.UnexpectedToken):
        tok = e.token
        pos = tok.start_pos if tok.start_pos is not None else len(text)
        got = "end of attribute" if tok.type == "$END" else repr(str(tok))
        return AttrSyntaxError(f"expected {_describe(e.expected)}, got {got}", pos)
    if isinstance(e, lark.exceptions.UnexpectedCharacters):
        exp = _describe(e.allowed) if e.allowed else "something else"
        return AttrSyntaxError(f"unexpected character {text[e.pos_in_stream]!r}; expected {exp}", e.pos_in_stream)
    if isinstance(e, lark.exceptions.UnexpectedEOF):
        return AttrSyntaxError(f"attribute ended early; expected {_describe(e.expected)}", len(text))
    return AttrSyntaxError(str(e), 0)


_KNOWN_MNEMONIC = re.compile(
    r"#sdy(?:\.(?:mesh|sharding|sharding_per_value|op_sharding_rule|propagation_edges)<"
    r"|<(?:manual_axes|axis_ref_list|list_of_axis_ref_lists|all_to_all_param_list)[{\[])")
_ANY_MNEMONIC = re.compile(r"#sdy(?:\.|<)([A-Za-z_][A-Za-z0-9_]*)")


@functools.lru_cache(maxsize=65536)
def _parse_cached(text: str, start: str):
    if start == "attribute" and not _KNOWN_MNEMONIC.match(text):
        m = _ANY_MNEMONIC.match(text)
        if m and m.group(1) not in _MNEMONICS:
            return None, AttrSyntaxError(
                f"unknown sdy attribute '{m.group(1)}'; expected one of {', '.join(sorted(_MNEMONICS))}", 0)
    parser = _parser()
    try:
        tree = parser.parse(text, start=start)
        return _BUILD.transform(tree), None
    except lark.exceptions.VisitError as e:
        if isinstance(e.orig_exc, StringEscapeError):  # Lark does not say where the bad token was
            return None, AttrSyntaxError(str(e.orig_exc), _escape_offset(text))
        return None, _convert_lark_error(e, text)
    except lark.exceptions.LarkError as e:
        return None, _convert_lark_error(e, text)


def _escape_offset(text: str) -> int:
    """Offset in ``text`` of the first string literal escape that ``unquote`` rejects."""
    for m in re.finditer(r'"(?:[^"\\]|\\.)*"', text):
        try:
            unquote(m.group())
        except StringEscapeError as e:
            return m.start() + e.offset
    return 0


def parse_sdy(text: str, start: str = "attribute"):
    """Parse ``text`` with grammar rule ``start``; raise ``AttrSyntaxError`` (offset in ``text``)."""
    value, err = _parse_cached(text, start)
    if err is not None:  # (a fresh error each time: raising the cached one would keep this call's frames)
        raise AttrSyntaxError(err.message, err.offset)
    return value


def parse_sdy_attribute(text: str) -> A.Attr:
    """One standalone sdy attribute, e.g. ``'#sdy.sharding<@m, [{"a"}]>'``; a ``ParseError`` at its line and
    column of ``text`` otherwise (``shardy_py.parse_attribute``)."""
    stripped = text.strip()
    lead = len(text) - len(text.lstrip())
    try:
        return parse_sdy(stripped, "attribute")
    except AttrSyntaxError as e:
        line, col = LineIndex(text).locate(lead + e.offset)
        raise ParseError(e.message, line, col, lead + e.offset) from None


def parse_sdy_array(text: str) -> tuple[A.Attr, ...] | None:
    """The elements of ``text`` when it is an array attribute whose every element is an sdy
    attribute (``[#sdy.propagation_edges<...>, ...]``, or ``[]``); None for anything else.

    Memoised by text, like ``parse_sdy``; an element that does not parse makes the whole answer None.
    """
    value, err = _parse_cached(text, "attribute_array")
    return None if err is not None else value


#: What ``sdy_attribute_spans`` steps over: string literals and ``->`` (neither nests), the head of
#: an sdy attribute up to its ``<`` (``#sdy.mesh<``, ``#sdy<``), brackets.
_SPAN_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|->|#sdy(?:\.[A-Za-z_]\w*)?\s*<|[<>()\[\]{}]')


def sdy_attribute_spans(text: str, pos: int = 0) -> Iterator[tuple[int, int, int]]:
    """``(start, body, end)`` of each sdy attribute written in ``text`` from ``pos`` on, outermost
    only, in text order: ``text[start:end]`` is ``#sdy...<...>`` and ``body`` is the offset of its
    ``<``.  String literals are skipped; an unclosed attribute ends with the text."""
    tokens = _SPAN_TOKENS.finditer(text, pos)
    for head in tokens:
        if head.group()[0] != "#":
            continue
        depth = 1
        for t in tokens:
            c = t.group()
            if c[0] in "<([{#":
                depth += 1
            elif c in ">)]}":
                depth -= 1
                if depth == 0:
                    yield head.start(), head.end() - 1, t.end()
                    break
        else:
            yield head.start(), head.end() - 1, len(text)


@functools.lru_cache(maxsize=4096)
def embedded_sdy_attributes(text: str) -> tuple[A.Attr | None, ...]:
    """The sdy attributes written inside the text of an attribute this package keeps as text
    (``[#sdy.propagation_edges<...>]``, ``{k = #sdy.mesh<...>}``, ...): one entry per span of
    ``sdy_attribute_spans``, in text order, None for a span that does not parse."""
    return tuple(_parse_cached(text[start:end], "attribute")[0] for start, _body, end in sdy_attribute_spans(text))

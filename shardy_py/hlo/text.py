"""HloSharding text: the parser and printer (XLA's ``ParseSingleSharding`` / ``HloSharding::Print``).

Grammar (whitespace and ``/*...*/`` comments are skipped)::

    sharding  ::= '{' '}' | '{' sharding (',' sharding)* '}' | '{' attr* '}'
    attr      ::= 'replicated' | 'manual' | 'unknown' | 'unreduced' | 'maximal'
                | 'device=' int | 'devices=' tiles | 'last_tile_dim_replicate'
                | 'last_tile_dims={' type (',' type)* '}' | ('shard_as' | 'shard_like') int
                | 'metadata=' '{' ... '}'
    tiles     ::= '[' ints ']' ( '<=' '[' ints ']' ('T(' ints ')')? | ints )

Parsing normalises like XLA (a V2 iota is canonicalised, ``last_tile_dims`` go
through ``HloSharding.subgroup``, groups of a V1 ``last_tile_dim_replicate``
are sorted), so ``str(HloSharding.parse(t))`` is what XLA prints back for ``t``.
"""
from __future__ import annotations

import re

from shardy_py.hlo.errors import HloShardingParseError
from shardy_py.hlo.intlist import format_int_list, parse_int_list
from shardy_py.hlo.printing import print_hlo_sharding
from shardy_py.hlo.sharding import REPLICATED, SUBGROUP_TYPES, HloSharding
from shardy_py.hlo.tile_assignment import TileAssignment

_TOKEN = re.compile(r"\s*(?:/\*.*?\*/\s*)*(<=|[A-Za-z_][A-Za-z0-9_]*|-?\d+|[{}\[\](),=]|\S)", re.S)
_V1_END = re.compile(r"[^0-9,\s-]")


class _Lexer:
    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def error(self, message: str, pos: int | None = None) -> HloShardingParseError:
        return HloShardingParseError(message, self.text, self.pos if pos is None else pos)

    def peek(self) -> str | None:
        m = _TOKEN.match(self.text, self.pos)
        return m.group(1) if m else None

    def next(self) -> str:
        m = _TOKEN.match(self.text, self.pos)
        if not m:
            raise self.error("unexpected end of sharding text")
        self.pos = m.end()
        return m.group(1)

    def token_start(self) -> int:
        m = _TOKEN.match(self.text, self.pos)
        return m.start(1) if m else len(self.text)

    def expect(self, tok: str, what: str) -> None:
        start = self.token_start()
        got = self.next() if self.peek() is not None else None
        if got != tok:
            raise self.error(f"expected {tok!r} {what}, got {got!r}", start)

    def int(self, what: str) -> int:
        start = self.token_start()
        tok = self.peek()
        if tok is None or not re.fullmatch(r"-?\d+", tok):
            raise self.error(f"expected an integer for {what}, got {tok!r}", start)
        if len(tok.lstrip("-").lstrip("0")) > 19 or not -(1 << 63) <= int(tok) < (1 << 63):  # (XLA's int64)
            shown = tok if len(tok) <= 30 else tok[:12] + "..." + tok[-6:]
            raise self.error(f"{what}: {shown} does not fit in a 64-bit integer", start)
        self.next()
        return int(tok)

    def int_list(self, close: str, what: str) -> list[int]:
        out = [self.int(what)]
        while self.peek() == ",":
            self.next()
            out.append(self.int(what))
        self.expect(close, f"to end {what}")
        return out


def parse_hlo_sharding(text: str) -> HloSharding:
    """Parse ``text`` into an ``HloSharding``; raises ``HloShardingParseError`` with a caret on bad input."""
    lex = _Lexer(text)
    lex.expect("{", "to start a sharding")
    out = _parse_after_lbrace(lex)
    if lex.peek() is not None:
        raise lex.error("unexpected text after the sharding", lex.token_start())
    return out


def _parse_after_lbrace(lex: _Lexer) -> HloSharding:
    tok = lex.peek()
    if tok == "}":
        lex.next()
        return HloSharding.tuple([])
    if tok == "{":
        elements = []
        while True:
            lex.expect("{", "to start a tuple element")
            elem = _parse_single(lex)
            elements.append(elem)
            if lex.peek() == ",":
                lex.next()
                continue
            lex.expect("}", "to end the tuple sharding")
            return HloSharding.tuple(elements)
    return _parse_single(lex)


def _parse_single(lex: _Lexer) -> HloSharding:
    start = lex.token_start()
    flags = set()
    device = None
    tile_dims: list[int] | None = None
    reshape_dims: list[int] | None = None
    perm: list[int] | None = None
    devices = None
    subgroup_types: list[str] = []
    shard_group = ""
    metadata = ""
    while True:
        tok_start = lex.token_start()
        tok = lex.peek()
        if tok is None:
            raise lex.error("expected '}' to end the sharding", tok_start)
        if tok == "}":
            lex.next()
            break
        lex.next()
        if tok in ("replicated", "manual", "unknown", "unreduced", "maximal", "last_tile_dim_replicate"):
            flags.add(tok)
        elif tok in ("shard_as", "shard_like"):
            shard_group = f"{tok} {lex.int(tok)}"
        elif tok == "device":
            lex.expect("=", "after 'device'")
            device = lex.int("device=")
        elif tok == "devices":
            lex.expect("=", "after 'devices'")
            lex.expect("[", "to start the tile assignment dimensions")
            tile_dims = lex.int_list("]", "the tile assignment dimensions")
            if lex.peek() == "<=":
                lex.next()
                lex.expect("[", "to start the iota reshape dims")
                reshape_dims = lex.int_list("]", "the iota reshape dims")
                if len(reshape_dims) == 1:
                    perm = [0]
                else:
                    if lex.peek() != "T":
                        raise lex.error("expected 'T(' with the iota transpose perm", lex.token_start())
                    lex.next()
                    lex.expect("(", "after 'T'")
                    perm = lex.int_list(")", "the iota transpose perm")
            else:
                m = _V1_END.search(lex.text, lex.pos)
                end = m.start() if m else len(lex.text)
                chunk = lex.text[lex.pos:end].rstrip()
                if not chunk.strip():
                    raise lex.error("expected a device list or '<=[' after the tile dimensions", lex.token_start())
                try:
                    devices = parse_int_list(chunk)
                except ValueError as e:
                    raise lex.error(f"bad device list: {e}", lex.token_start()) from None
                lex.pos += len(chunk)
        elif tok == "last_tile_dims":
            lex.expect("=", "after 'last_tile_dims'")
            lex.expect("{", "to start last_tile_dims")
            while True:
                t_start = lex.token_start()
                t = lex.next()
                if t not in SUBGROUP_TYPES:
                    raise lex.error(f"unknown subgroup type {t!r} in last_tile_dims", t_start)
                subgroup_types.append(t)
                sep = lex.next()
                if sep == "}":
                    break
                if sep != ",":
                    raise lex.error("expected ',' or '}' in last_tile_dims", lex.pos - 1)
        elif tok == "metadata":
            lex.expect("=", "after 'metadata'")
            metadata = _balanced_braces(lex)
        else:
            raise lex.error(f"unexpected token {tok!r} in sharding", tok_start)
    out = _build(lex, start, flags, device, tile_dims, reshape_dims, perm, devices, subgroup_types)
    return out.with_annotations(shard_group, metadata) if shard_group or metadata else out


def _balanced_braces(lex: _Lexer) -> str:
    start = lex.token_start()
    if lex.peek() != "{":
        raise lex.error("expected '{' after metadata=", start)
    depth = 0
    i = start
    text = lex.text
    in_string = False
    while i < len(text):
        c = text[i]
        if in_string:
            if c == "\\":
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                lex.pos = i + 1
                return text[start:i + 1]
        i += 1
    raise lex.error("unterminated metadata", start)


def _build(lex, start, flags, device, tile_dims, reshape_dims, perm, devices, subgroup_types) -> HloSharding:
    has_devices = device is not None or tile_dims is not None
    for kind in ("replicated", "maximal", "manual", "unknown", "unreduced"):
        if kind not in flags:
            continue
        if kind == "maximal":
            if device is None or tile_dims is not None:
                raise lex.error("maximal shardings should have exactly one device assigned (device=N)", start)
            return HloSharding.maximal(device)
        if has_devices:
            raise lex.error(f"{kind} shardings should not have any devices assigned", start)
        return HloSharding(kind)
    if tile_dims is None:
        raise lex.error("non-maximal shardings must have a tile assignment (devices=[...])", start)
    if device is not None:
        raise lex.error("device= is only allowed with maximal", start)
    if any(d <= 0 for d in tile_dims):
        raise lex.error(f"tile assignment dimensions must be positive, got {tile_dims}", start)
    if "last_tile_dim_replicate" in flags:
        if subgroup_types:
            raise lex.error("last_tile_dim_replicate and last_tile_dims cannot be used together", start)
        subgroup_types = [REPLICATED]
    if len(subgroup_types) > len(tile_dims):
        raise lex.error(f"{len(subgroup_types)} subgroup types for {len(tile_dims)} tile dimensions", start)
    n = 1
    for d in tile_dims:
        n *= d
    if reshape_dims is not None:
        if len(perm) != len(reshape_dims):
            raise lex.error(f"the iota transpose perm has {len(perm)} entries, the reshape dims {len(reshape_dims)}",
                            start)
        if sorted(perm) != list(range(len(perm))):
            raise lex.error(f"the iota transpose perm {perm} is not a permutation", start)
        m = 1
        for d in reshape_dims:
            m *= d
        if m != n or any(d <= 0 for d in reshape_dims):
            raise lex.error(f"the iota reshape dims {reshape_dims} hold {m} devices but the tile "
                            f"dimensions {tile_dims} need {n}", start)
        ta = TileAssignment.iota(tile_dims, reshape_dims, perm)
    else:
        if devices.size <= 1:
            raise lex.error("non-maximal shardings must have more than one device assigned", start)
        if devices.size != n:
            raise lex.error(f"the tile dimensions {tile_dims} need {n} devices, the list has {devices.size}", start)
        ta = TileAssignment.from_array(devices.reshape(tile_dims))
    if not subgroup_types:
        return HloSharding.tile(ta)
    return HloSharding.subgroup(ta, subgroup_types)


__all__ = ["parse_hlo_sharding", "print_hlo_sharding", "format_int_list"]

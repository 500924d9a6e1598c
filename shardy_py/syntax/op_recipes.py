"""Op recipes: build an op of an already-seen shape without parsing it again.

Real modules repeat a few op shapes thousands of times.  Two one-line ops whose texts differ only
in their SSA value names, such as::

    %3 = stablehlo.add %2, %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
    %9 = stablehlo.add %8, %7 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>

parse to the same op up to those names and the columns that shift with them.  The first op of a
shape is parsed in full; a :class:`Recipe` records how its fields depend on the names, and later
ops of the same shape are built from the recipe with their own names, operands and locations.

A recipe is only recorded when that dependence is simple and certain: every name after the result
names is an operand, in order, and no name sits inside a string literal.  Anything else (and any op
whose operands do not all resolve) takes the full parse every time, so the result never differs
from a full parse; ``tests/test_op_recipes.py`` checks this over the conformance corpus.
"""
from __future__ import annotations

import re
from types import MappingProxyType

from shardy_py.ir.ops import NO_ATTRIBUTES, Location, Operation, Value, packed_location
from shardy_py.syntax.scanner import NAME_SPLIT

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')

#: Marks a shape that cannot be cloned; its ops always take the full parse.
UNCLONABLE = object()


def shape_key(parts: list[str], in_func: bool) -> tuple[str, bool]:
    """The memo key of an op text split by ``NAME_SPLIT``: its text with every name cut out.

    The cuts are marked with a NUL (which no parsed text holds), not with ``%``: a ``%`` that starts no
    name (``3% 4``) must not make a text look like one with a name there.
    """
    return "\x00".join(parts[0::2]), in_func


class Recipe:
    """How to build an op of one shape from its SSA names (see the module docstring)."""

    __slots__ = ("name", "generic", "counts", "result_types", "operand_types", "props", "prop_locs",
                 "attributes", "attr_locs", "location_text", "pieces", "name_ends", "name_lens", "shared_props",
                 "shared_attributes", "shared_operand_types", "print_template")

    def __init__(self, op: Operation, names: list[str], name_ends: list[int]):
        self.name = op.name
        self.generic = op.generic_form
        self.counts = [c for _, c in op.result_groups]
        self.result_types = [v.type for v in op.results]
        self.operand_types = list(op.operand_types)
        self.name_ends = name_ends
        self.name_lens = [len(n) for n in names]
        self.location_text = op.location_text
        self.attributes = dict(op.attributes)
        self.props: dict[str, object] = {}
        self.prop_locs: list[tuple[str, int, int]] = []
        for k, v in op.properties.items():
            if isinstance(v, Location):
                self.prop_locs.append((k, *self._relative(v, op.loc)))
            else:
                self.props[k] = v
        # what the ops of this shape share until one of them is changed (``Operation.properties``)
        self.shared_props = MappingProxyType(self.props)
        self.shared_attributes = MappingProxyType(self.attributes)
        self.shared_operand_types = tuple(self.operand_types)
        #: (operand and result value types, print template) of the ops of this shape (``op_writer``).
        self.print_template: tuple | None = None
        self.attr_locs = [(k, *self._relative(v, op.loc)) for k, v in op.attribute_locs.items()]
        self.pieces = None if op._pieces is None else [_piece_template(p) for p in op._pieces]

    def _relative(self, at: Location, op_loc: Location) -> tuple[int, int]:
        """(offset from the op start, how many names end at or before it)."""
        if at.line != op_loc.line:
            raise _NotClonable
        rel = at.column - op_loc.column
        return rel, sum(1 for e in self.name_ends if e <= rel)

    def build(self, parser, start: int, names: list[str]) -> Operation | None:
        """The op at ``start`` with SSA ``names``; None when an operand does not resolve."""
        counts = self.counts
        nres = len(counts)
        if nres and "#" in names[0] or nres > 1 and any("#" in n for n in names[:nres]):
            return None  # `%0#1 = ...` is not a result name: the full parse reports it
        operand_names = names[nres:]
        operands = tuple(map(parser.lookup, operand_names))
        if None in operands:
            return None
        types = self.shared_operand_types
        if len(types) == len(operands):
            i = 0  # (index loops, not ``zip``: a zip costs more than these loops of one or two operands)
            for v in operands:
                t = types[i]
                if v.type is not t and v.type is not None and t is not None and v.type != t:
                    return None  # a use whose type is not its value's: the full parse reports it
                i += 1
        line, col = parser.lines.locate(start)
        loc = packed_location(line, col)
        i = 0
        for v in operands:
            if v.name != operand_names[i]:
                break
            i += 1
        else:
            operand_names = None  # as the operands are named: not kept (``Operation.operand_names``)
        op = Operation(self.name, results=[], operands=operands, operand_names=operand_names,
                       operand_types=self.shared_operand_types, regions=(),
                       properties=self.shared_props, attributes=self.shared_attributes, loc=loc,
                       generic_form=self.generic, result_groups=None,
                       location_text=self.location_text, deferred=self)
        if nres == 1 and counts[0] == 1:  # the common case: one result
            name = names[0]
            v = Value(name, self.result_types[0], op, 0, loc, NO_ATTRIBUTES)
            op.results = [v]  # (a list of one, not an appended list's spare room)
            # ``parser.define`` inlined for a name no scope holds yet and no forward reference awaits (most ops);
            # the innermost scope is the last of ``all_scopes`` (the scopes an isolated region hides come first)
            scopes = parser.all_scopes
            fresh = not parser.ssa.pending
            if fresh:
                for scope in scopes:
                    if name in scope:
                        fresh = False
                        break
            if fresh:
                scopes[-1][name] = v
            else:
                parser.define(v)  # (redefinitions, forward references)
        elif nres:
            parser.make_results(op, list(zip(names[:nres], counts, strict=True)), self.result_types, loc)
        return op

    def _shifts(self, names) -> list[int]:
        """How far the text after each name moved, against the recipe's op (names of other lengths)."""
        shift = [0]
        for new, old in zip(names, self.name_lens, strict=False):  # (an edited op may have other names)
            shift.append(shift[-1] + len(new) - old)
        return shift + [shift[-1]] * (len(self.name_lens) + 1 - len(shift))

    def names_of(self, op: Operation) -> list[str]:
        """The SSA names of ``op`` (built by this recipe) in text order: result groups, then operands."""
        names = []
        i = 0
        for count in self.counts:
            name = op.results[i].name
            names.append(name.rsplit("#", 1)[0] if count > 1 else name)
            i += count
        return names + list(op.operand_names_view)

    def result_groups_of(self, op: Operation) -> list[tuple[str, int]]:
        """``op.result_groups`` of an op built by this recipe."""
        return list(zip(self.names_of(op)[:len(self.counts)], self.counts, strict=True))

    def attribute_locs_of(self, op: Operation) -> dict[str, Location]:
        """``op.attribute_locs`` of an op built by this recipe."""
        if not self.attr_locs:
            return {}
        shift = self._shifts(self.names_of(op))
        line, col = op.loc.line, op.loc.column
        return {k: Location(line, col + rel + shift[before]) for k, rel, before in self.attr_locs}

    def add_property_locs(self, op: Operation, props: dict) -> None:
        """Put into ``props`` (``op``'s own copy of the shared properties) where each property was written
        (``sharding_loc`` ...): the shared mapping leaves out what differs from op to op."""
        if self.prop_locs:
            shift = self._shifts(self.names_of(op))
            line, col = op.loc.line, op.loc.column
            for k, rel, before in self.prop_locs:
                props[k] = Location(line, col + rel + shift[before])

    def pieces_of(self, op: Operation) -> list | None:
        """``op._pieces`` of an op built by this recipe."""
        return None if self.pieces is None else _fill_pieces(self.pieces, op.operand_names_view)


class _NotClonable(Exception):
    pass


def _piece_template(piece):
    """A printing piece with the names in its text cut out: ("names", fragments) or the piece."""
    if isinstance(piece, str) and "%" in piece:
        return ("names", NAME_SPLIT.split(piece)[0::2])
    return piece


def _fill_pieces(templates: list, names: list[str]) -> list:
    out = []
    i = 0
    for t in templates:
        if type(t) is tuple and t[0] == "names":
            frags = t[1]
            buf = [frags[0]]
            for f in frags[1:]:
                buf.append(names[i])
                buf.append(f)
                i += 1
            out.append("".join(buf))
        else:
            out.append(t)
    return out


def make_recipe(op: Operation, text: str, parts: list[str]):
    """A recipe from ``op``, fully parsed from the one-line ``text`` (split as ``parts``), or UNCLONABLE."""
    names = parts[1::2]
    if not names:  # (a line without values, a bare `return`: parsed each time, as the text after it may matter)
        return UNCLONABLE
    nres = len(op.result_groups)
    if [g for g, _ in op.result_groups] != names[:nres] or op.operand_names != names[nres:]:
        return UNCLONABLE
    if op.regions or ('"' in text and any("%" in s for s in _STRING.findall(text))):
        return UNCLONABLE
    ends = []
    pos = 0
    for i, part in enumerate(parts):
        pos += len(part)
        if i % 2:
            ends.append(pos)
    if op._pieces is not None:
        in_pieces = [n for p in op._pieces if isinstance(p, str) for n in NAME_SPLIT.split(p)[1::2]]
        if in_pieces != names[nres:]:
            return UNCLONABLE
    try:
        return Recipe(op, names, ends)
    except _NotClonable:
        return UNCLONABLE

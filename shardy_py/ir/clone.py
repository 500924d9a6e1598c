"""Deep copies of ops and modules, made from the IR (never by printing and parsing again).

``clone(op, mapping)`` is MLIR's ``Operation::clone`` with an ``IRMapping``: the copy is detached,
operands found in ``mapping`` are replaced and the copy's results and block arguments are added to
it.  ``clone_module`` copies a whole module, keeping its source text and locations.

What an op holds that can change in place is copied (the lists and dicts of its properties, its
attribute dictionaries, its printing pieces); attributes themselves are immutable and shared.  Two
places that share one dict in the original share one dict in the copy too: a ``func.func``'s
``arg_attrs[i]`` is its entry block's argument ``i``'s ``attributes``, and stays so.
"""
from __future__ import annotations

import attrs

from shardy_py.ir.module import Module
from shardy_py.ir.ops import Block, Operation, Region, Value


def clone(op: Operation, mapping: dict[Value, Value] | None = None) -> Operation:
    """A deep copy of ``op`` (regions included), detached.  Operands found in ``mapping`` are
    replaced; the copy's results and block arguments are added to ``mapping`` (MLIR's IRMapping)."""
    return _Cloner({} if mapping is None else mapping).op(op)


def clone_module(module: Module) -> Module:
    """A copy of ``module`` to edit freely: every op, value and region copied, the source text, file
    name and locations kept (diagnostics on the copy point into the original text)."""
    return attrs.evolve(module, op=clone(module.op), preamble=list(module.preamble),
                        postamble=list(module.postamble))


def _read(op: Operation, field: str):
    """``op.<field>`` for reading: its ``<field>_view`` where ops have one (a mapping shared by ops
    of one shape stays shared, and read-only, in the copy: asking for ``op.<field>`` would give the
    original a dict of its own first), else the field."""
    view = getattr(op, field + "_view", None)
    return view if view is not None else getattr(op, field)


class _Cloner:
    """One cloning run: the value mapping and the copies of mutable containers made so far (by the
    original's id, so a dict shared in the original is one dict in the copy)."""

    def __init__(self, mapping: dict[Value, Value]):
        self.mapping = mapping
        self.memo: dict[int, object] = {}

    def copy(self, x):
        """``x`` with every list and dict in it copied (once each); anything else (attributes, and
        read-only mappings) is shared."""
        t = type(x)
        if t is dict:
            c = self.memo.get(id(x))
            if c is None:
                c = self.memo[id(x)] = {k: self.copy(v) for k, v in x.items()}
            return c
        if t is list:
            c = self.memo.get(id(x))
            if c is None:
                c = self.memo[id(x)] = [self.copy(v) for v in x]
            return c
        return x

    def op(self, op: Operation) -> Operation:
        mapping = self.mapping
        pieces = op._pieces
        new = Operation(op.name, operands=[mapping.get(v, v) for v in op.operands],
                        operand_names=list(_read(op, "operand_names")),
                        operand_types=list(_read(op, "operand_types")),
                        properties=self.copy(_read(op, "properties")),
                        attributes=self.copy(_read(op, "attributes")),
                        loc=op._location, generic_form=op.generic_form, result_groups=list(op.result_groups),
                        location_text=op.location_text, pieces=list(pieces) if pieces is not None else None,
                        attribute_locs=dict(op.attribute_locs))
        for r in op.results:
            v = Value(r.name, r.type, new, r.index, r._location, self.copy(r.attributes))
            v.location_text = r.location_text
            if r._use_map is not None:
                v._use_map = {}
            new.results.append(v)
            mapping[r] = v
        for region in op.regions:
            new.regions.append(self.region(region, new))
        if pieces and op.regions:  # an op printed from pieces holds its regions among them
            where = {id(old): copy for old, copy in zip(op.regions, new.regions, strict=True)}
            new._pieces = [where.get(id(p), p) if isinstance(p, Region) else p for p in pieces]
        return new

    def region(self, region: Region, parent: Operation) -> Region:
        new = Region(parent=parent)
        blocks = []
        for block in region.blocks:
            b = Block(parent=new, label=block.label)
            for a in block.arguments:
                v = Value(a.name, a.type, b, a.index, a._location, self.copy(a.attributes))
                v.location_text = a.location_text
                if a._use_map is not None:
                    v._use_map = {}
                b.arguments.append(v)
                self.mapping[a] = v
            blocks.append((block, b))
            new.blocks.append(b)
        for block, b in blocks:
            ops = b.ops
            for inner in block.ops:
                c = self.op(inner)
                c.parent = b
                ops.append(c)
        return new


def clone_region(region: Region, parent: Operation, mapping: dict[Value, Value] | None = None) -> Region:
    """A deep copy of ``region`` (its blocks, their arguments and ops) owned by ``parent``; values found
    in ``mapping`` are replaced, and the copies are added to it."""
    return _Cloner({} if mapping is None else mapping).region(region, parent)

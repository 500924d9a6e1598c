"""The operation tree: ``Operation`` / ``Region`` / ``Block`` / ``Value``.

Every op, whatever its dialect, is an ``Operation``.  Shardy ops carry their
inherent attributes in ``properties`` under the names ``ops.td`` gives them
(``sharding``, ``out_sharding``, ``in_shardings``, ``manual_axes``, ...);
``attributes`` is the discardable attribute dictionary (``sdy.sharding``,
``sdy.sharding_rule``, ...), with sdy attributes parsed into ``ir.attrs``
classes and everything else kept as ``OpaqueAttr`` text.

Ops of other dialects are kept losslessly: the parser records their text in
``_pieces`` (strings interleaved with their regions and attribute dictionary)
and the printer writes it back, regenerating only the sdy attributes in it.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

import attrs

from shardy_py.ir import hooks
from shardy_py.ir.attrs import Attr
from shardy_py.ir.types import Type

#: Shardy op names, as in ops.td.
SDY_OPS = (
    "sdy.mesh", "sdy.sharding_constraint", "sdy.reshard", "sdy.return", "sdy.manual_computation",
    "sdy.named_computation", "sdy.sharding_group", "sdy.constant", "sdy.data_flow_edge",
    "sdy.func_data_flow_edge", "sdy.propagation_barrier", "sdy.all_gather", "sdy.all_slice",
    "sdy.all_to_all", "sdy.collective_permute", "sdy.all_reduce", "sdy.reduce_scatter",
    "sdy.sharded_to_unreduced", "sdy.replicated_to_unreduced",
)
#: Collectives (ops implementing Sdy_CollectiveOpInterface).
COLLECTIVE_OPS = (
    "sdy.all_gather", "sdy.all_slice", "sdy.all_to_all", "sdy.collective_permute",
    "sdy.all_reduce", "sdy.reduce_scatter", "sdy.sharded_to_unreduced", "sdy.replicated_to_unreduced",
)


@attrs.frozen
class Location:
    """1-based line and column of an op (or argument) in its source text."""

    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.line}:{self.column}"


_COLUMN_BITS = 20


def packed_location(line: int, column: int) -> Location | int:
    """A location as one int (``line << 20 | column``), which a big module holds far more cheaply
    than a ``Location``; ops and values unpack it when asked.  Very long lines keep a ``Location``."""
    return (line << _COLUMN_BITS) | column if column < 1 << _COLUMN_BITS else Location(line, column)


def _unpacked(loc: Location | int | None) -> Location | None:
    if type(loc) is int:
        return Location(loc >> _COLUMN_BITS, loc & ((1 << _COLUMN_BITS) - 1))
    return loc


def _location_property(doc: str) -> property:
    """``loc`` of a class that keeps its location, packed or not, in ``_location``."""

    def get(self) -> Location | None:
        return _unpacked(self._location)

    def set_(self, value: Location | None) -> None:
        self._location = value

    return property(get, set_, doc=doc)


class Use(NamedTuple):
    """One use of a value: operand ``index`` of ``op``."""

    op: Operation
    index: int


#: The attributes of a value or op that has none, shared and read-only: a big module holds one,
#: not one empty dict per op result.  Assign a new dict to add attributes.
NO_ATTRIBUTES: Mapping[str, Any] = MappingProxyType({})


def _own_copy(shared: Mapping) -> dict:
    """A dict of ``shared``'s entries for one op to own: mutable values (lists, dicts, sets) copied too."""
    return {k: v.copy() if type(v) in (list, dict, set) else v for k, v in shared.items()}


@attrs.define(eq=False, repr=False)
class Value:
    """An SSA value: an op result or a block argument.

    ``name`` is the name as written (``%0``, ``%arg1``, ``%5#1`` for result 1
    of ``%5:2``); ``owner`` is the defining ``Operation`` or ``Block``.
    """

    name: str
    type: Type | None
    owner: Operation | Block
    index: int
    _location: Location | int | None = attrs.field(default=None, alias="loc")
    #: For a func/region argument: its attribute dictionary (``{sdy.sharding = ...}``).
    attributes: dict[str, Attr] = attrs.field(factory=dict)
    #: The uses, ``{(op, operand index): None}`` in the order they were made (MLIR's use list,
    #: which puts a new use first, reversed); None until use lists
    #: are first asked for in this value's tree (``ir.uses``), then kept exact by every mutation.
    _use_map: dict | None = attrs.field(default=None, init=False)
    #: A block argument's written ``loc(...)`` (printed with debug info); None when absent.
    location_text: str | None = attrs.field(default=None, init=False)

    loc = _location_property("Where the value is defined (its op, or the argument).")

    @property
    def uses(self) -> list[Use]:
        """Every use of this value: ``Use(op, index)`` with ``op.operands[index] is self``."""
        if self._use_map is None:
            from shardy_py.ir.uses import track

            track(self)
        return [Use(op, i) for op, i in self._use_map]

    @property
    def users(self) -> list[Operation]:
        """The ops using this value, each once, in use order."""
        return list(dict.fromkeys(u.op for u in self.uses))

    def has_uses(self) -> bool:
        """Whether anything uses this value (without building the list of uses)."""
        return self.num_uses() != 0

    def num_uses(self) -> int:
        """``len(self.uses)``, without building the list."""
        if self._use_map is None:
            from shardy_py.ir.uses import track

            track(self)
        return len(self._use_map)

    def replace_all_uses_with(self, new: Value) -> None:
        """Make every use of this value a use of ``new`` (MLIR's ``replaceAllUsesWith``).

        ``uses`` is MLIR's use list reversed (MLIR puts a new use first).  MLIR moves the uses one
        at a time from the front of this value's list to the front of ``new``'s, which reverses
        them; so does this, and ``new.uses`` stays MLIR's list reversed.  Passes that walk use lists
        (propagation's driver notifications) see the order MLIR's would."""
        for op, i in reversed(self.uses):
            op.set_operand(i, new)

    def replace_uses_with_if(self, new: Value, predicate) -> None:
        """Replace the uses for which ``predicate(Use)`` holds (MLIR's ``replaceUsesWithIf``, in
        MLIR's use-list order: see ``replace_all_uses_with``)."""
        for use in reversed(self.uses):
            if predicate(use):
                use.op.set_operand(use.index, new)

    @property
    def is_block_argument(self) -> bool:
        return isinstance(self.owner, Block)

    def __repr__(self) -> str:
        return f"<Value {self.name}: {self.type}>"


@attrs.define(eq=False, repr=False)
class Block:
    """A block: optional label (``^bb0``), arguments and ops."""

    arguments: list[Value] = attrs.field(factory=list)
    ops: list[Operation] = attrs.field(factory=list)
    label: str | None = None
    parent: Region | None = None

    def __repr__(self) -> str:
        return f"<Block {self.label or ''} {len(self.ops)} ops>"


@attrs.define(eq=False, repr=False)
class Region:
    """A region: a list of blocks (sdy and func regions have exactly one)."""

    blocks: list[Block] = attrs.field(factory=list)
    parent: Operation | None = None

    @property
    def block(self) -> Block:
        """The first (for sdy ops: the only) block."""
        return self.blocks[0]

    @property
    def ops(self) -> list[Operation]:
        """All ops of all blocks, in order."""
        return [op for b in self.blocks for op in b.ops]

    def __repr__(self) -> str:
        return f"<Region {len(self.blocks)} blocks>"


@attrs.define(eq=False, repr=False)
class Operation:
    """One op of any dialect.

    ``operands`` are the resolved ``Value`` objects (``None`` where a name
    could not be resolved, e.g. a forward reference or a value bound by another
    dialect's custom syntax); ``operand_names`` keep the names as written.
    ``result_types`` and ``operand_types`` are those the text states.
    """

    name: str
    results: list[Value] = attrs.field(factory=list)
    _operand_tuple: tuple = attrs.field(default=(), alias="operands")
    #: ``operand_names`` as given; None: the operands' own names (an op built from a recipe whose names all
    #: resolved as written), made into a list the op owns when asked for.
    _operand_name_list: list[str] | None = attrs.field(factory=list, alias="operand_names")
    #: ``operand_types``, ``properties`` and ``attributes`` as given: a list / dict the op owns, or any
    #: other sequence / mapping shared with other ops (see ``properties``), copied on first access.
    _operand_type_seq: list[Type] | tuple = attrs.field(factory=list, alias="operand_types")
    _property_map: Mapping[str, object] = attrs.field(factory=dict, alias="properties")
    _attribute_map: Mapping[str, Attr] = attrs.field(factory=dict, alias="attributes")
    regions: list[Region] = attrs.field(factory=list)
    _location: Location | int | None = attrs.field(default=None, alias="loc")
    parent: Block | None = None
    #: True when the op was written in MLIR's generic form (``"dialect.op"(...)``).
    generic_form: bool = False
    _result_group_list: list[tuple[str, int]] | None = attrs.field(factory=list, alias="result_groups")
    #: Written ``loc(...)`` trailer, kept verbatim (None when absent).
    location_text: str | None = None
    _piece_list: list | None = attrs.field(default=None, alias="pieces")
    _attribute_loc_map: dict[str, Location] | None = attrs.field(default=None, alias="attribute_locs")
    #: For an op built from a parse recipe (``syntax.op_recipes``), the recipe: it makes ``_pieces``,
    #: ``result_groups`` and ``attribute_locs`` from the op's names when asked (until they are
    #: assigned), so a big module does not hold them per op.
    _deferred: Any = attrs.field(default=None, alias="deferred")

    loc = _location_property("Where the op starts in its source text.")

    def __attrs_post_init__(self) -> None:
        if type(self._operand_tuple) is not tuple:
            self._operand_tuple = tuple(self._operand_tuple)
        for i, v in enumerate(self._operand_tuple):
            if v is not None and v._use_map is not None:
                v._use_map[(self, i)] = None

    @property
    def operands(self) -> tuple:
        """The operand values (``None`` where a name did not resolve), read-only: change them with
        ``set_operand`` / ``set_operands`` (or by assigning a new sequence), which keep use lists."""
        return self._operand_tuple

    @operands.setter
    def operands(self, values) -> None:
        self.set_operands(values)

    def set_operands(self, values) -> None:
        """Replace all operands (use lists follow)."""
        for i, v in enumerate(self._operand_tuple):
            if v is not None and v._use_map is not None:
                v._use_map.pop((self, i), None)
        self._operand_tuple = tuple(values)
        for i, v in enumerate(self._operand_tuple):
            if v is not None and v._use_map is not None:
                v._use_map[(self, i)] = None

    def set_operand(self, index: int, value: Value) -> None:
        """Make operand ``index`` a use of ``value``."""
        ops = list(self._operand_tuple)
        old = ops[index]
        if old is not None and old._use_map is not None:
            old._use_map.pop((self, index), None)
        ops[index] = value
        self._operand_tuple = tuple(ops)
        if value is not None:
            if value._use_map is None and old is not None and old._use_map is not None:
                from shardy_py.ir.uses import track

                track(value)
            if value._use_map is not None:
                value._use_map[(self, index)] = None

    # -- copy-on-write fields ---------------------------------------------------------------------
    # Ops of one shape built from a parse recipe share one read-only mapping of their properties and
    # attributes (and one tuple of operand types) until something asks for the mutable field: the
    # getter then gives the op its own dict (list), so a big module holds one per shape, not per op.
    @property
    def properties(self) -> dict[str, object]:
        """Inherent attributes by name (``ops.td`` names), a dict this op owns."""
        p = self._property_map
        if type(p) is not dict:
            shared, p = p, _own_copy(p)
            deferred = self._deferred
            if deferred is not None and shared is deferred.shared_props:
                deferred.add_property_locs(self, p)  # the per-op ``*_loc`` entries the shared mapping omits
            self._property_map = p
        return p

    @properties.setter
    def properties(self, value: Mapping[str, object]) -> None:
        self._property_map = value

    @property
    def properties_view(self) -> Mapping[str, object]:
        """``properties`` for reading only: the shared mapping if the op has no dict of its own yet."""
        return self._property_map

    @property
    def attributes(self) -> dict[str, Attr]:
        """The discardable attribute dictionary, a dict this op owns."""
        a = self._attribute_map
        if type(a) is not dict:
            a = self._attribute_map = _own_copy(a)
        return a

    @attributes.setter
    def attributes(self, value: Mapping[str, Attr]) -> None:
        self._attribute_map = value

    @property
    def attributes_view(self) -> Mapping[str, Attr]:
        """``attributes`` for reading only (see ``properties_view``)."""
        return self._attribute_map

    @property
    def operand_types(self) -> list[Type]:
        """The operand types the text states, a list this op owns."""
        t = self._operand_type_seq
        if type(t) is not list:
            t = self._operand_type_seq = list(t)
        return t

    @operand_types.setter
    def operand_types(self, value) -> None:
        self._operand_type_seq = value

    @property
    def operand_types_view(self) -> tuple | list:
        """``operand_types`` for reading only (see ``properties_view``)."""
        return self._operand_type_seq

    @property
    def operand_names(self) -> list[str]:
        """The operand names as written, a list this op owns."""
        names = self._operand_name_list
        if names is None:
            names = self._operand_name_list = list(self.operand_names_view)
        return names

    @operand_names.setter
    def operand_names(self, value: list[str]) -> None:
        self._operand_name_list = value

    @property
    def operand_names_view(self) -> list[str] | tuple[str, ...]:
        """``operand_names`` for reading only (made from the operands when the op keeps none)."""
        names = self._operand_name_list
        if names is None:
            return tuple(v.name if v is not None else "%<<UNKNOWN SSA VALUE>>" for v in self._operand_tuple)
        return names

    @property
    def result_groups(self) -> list[tuple[str, int]]:
        """Result groups as written: ``%0:2`` is ``("%0", 2)``."""
        if self._result_group_list is None:  # made anew each time: a printed module does not grow
            return self._deferred.result_groups_of(self)
        return self._result_group_list

    @result_groups.setter
    def result_groups(self, value: list[tuple[str, int]]) -> None:
        self._result_group_list = value

    @property
    def _pieces(self) -> list | None:
        """Printing template of ops we do not model (see module docstring); None for modelled ops."""
        if self._piece_list is None and self._deferred is not None:
            return self._deferred.pieces_of(self)  # made anew each time, as above
        return self._piece_list

    @_pieces.setter
    def _pieces(self, value: list | None) -> None:
        self._piece_list = value

    @property
    def attribute_locs(self) -> dict[str, Location]:
        """Where each attribute of ``attributes`` was written (for diagnostics)."""
        if self._attribute_loc_map is None:
            deferred = self._deferred
            if deferred is not None:
                return deferred.attribute_locs_of(self)  # made anew each time, as above
            self._attribute_loc_map = {}
        return self._attribute_loc_map

    @attribute_locs.setter
    def attribute_locs(self, value: dict[str, Location]) -> None:
        self._attribute_loc_map = value

    @property
    def dialect(self) -> str:
        return self.name.split(".", 1)[0] if "." in self.name else ""

    @property
    def is_sdy(self) -> bool:
        return self.name.startswith("sdy.")

    @property
    def result_types(self) -> list[Type | None]:
        return [r.type for r in self.results]

    @property
    def parent_op(self) -> Operation | None:
        """The op whose region holds this op (None at the top)."""
        if self.parent is None or self.parent.parent is None:
            return None
        return self.parent.parent.parent

    # -- edits (``ir.edit``), as MLIR's Operation methods ------------------------------------
    def erase(self) -> None:
        """Erase this op (its results must have no uses left)."""
        from shardy_py.ir.edit import erase

        erase(self)

    def clone(self, mapping: dict | None = None) -> Operation:
        """A detached deep copy (see ``ir.edit.clone``)."""
        from shardy_py.ir.edit import clone

        return clone(self, mapping)

    def move_before(self, anchor: Operation) -> None:
        from shardy_py.ir.edit import move_before

        move_before(self, anchor)

    def move_after(self, anchor: Operation) -> None:
        from shardy_py.ir.edit import move_after

        move_after(self, anchor)

    def walk(self) -> Iterator[Operation]:
        """This op, then every op nested in its regions, in pre-order."""
        stack = [self]
        while stack:
            op = stack.pop()
            yield op
            if op.regions:  # (most ops have none: no reversed() made for them)
                for region in reversed(op.regions):
                    for block in reversed(region.blocks):
                        stack.extend(reversed(block.ops))

    def __repr__(self) -> str:
        res = ", ".join(r.name for r in self.results)
        return f"<Operation {res + ' = ' if res else ''}{self.name} at {self.loc}>"

    def __str__(self) -> str:
        return hooks.print_op(self)

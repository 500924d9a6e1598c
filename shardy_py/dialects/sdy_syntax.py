"""How the sdy ops write their parts (``shardy/dialect/sdy/ir/parsers.cc``, ``printers.cc`` and the
attribute printers): the codecs of the attributes their assembly formats write without the
``#sdy.<mnemonic>`` prefix, the custom directives ``StrippedTensorShardingPerValueAttr`` and
``SingleBlockRegionNoBlockId``, and ``sdy.constant``'s hand-written syntax.

Each sdy attribute is read with the grammar rule of its bare form (``syntax.sdy_parser``) and printed
by ``syntax.attr_printer``; the parser keeps where each was written (``AttrDef.loc_key``).
"""
from __future__ import annotations

import re

from shardy_py.errors import ParseError
from shardy_py.ir import attrs as A
from shardy_py.ir.types import DYNAMIC, RankedTensorType, UnrankedTensorType, VectorType
from shardy_py.syntax import attr_printer as P
from shardy_py.syntax.attr_values import check_attribute
from shardy_py.syntax.dense import canonical_dense_elements
from shardy_py.syntax.floats import canonical_dense_value
from shardy_py.syntax.format import directive

_INT = re.compile(r"-?\d+")
_BARE_ID = re.compile(r"[A-Za-z_][\w$.]*")
_TYPE_HEAD = re.compile(r"!?[A-Za-z_][\w$.]*")
_DENSE_VALUE = re.compile(r"dense<([^<>\"]*)>")


class SdyPiece:
    """An sdy attribute written bare (``<@mesh, [{"x"}]>`` for a ``#sdy.sharding``): read with grammar
    rule ``rule`` (the result passed through ``wrap``), printed by ``printer``."""

    def __init__(self, rule: str, printer, wrap=None):
        self.rule, self.printer, self.wrap = rule, printer, wrap

    def parse(self, cur):
        value = cur.sdy(self.rule)
        return value if self.wrap is None else self.wrap(value)

    def print(self, attr) -> str:
        return self.printer(attr)

    @staticmethod
    def starts(cur) -> bool:
        cur.ws()
        return cur.pos < cur.end and cur.text[cur.pos] in "<[{"


class MeshBody(SdyPiece):
    """``sdy.mesh``'s mesh: ``<["x"=2]>``, or with its prefix ``#sdy.mesh<["x"=2]>`` (as MLIR reads it)."""

    def __init__(self):
        super().__init__("mesh_body", P.mesh_body)

    def parse(self, cur):
        if not cur.peek("#sdy.mesh"):
            return cur.sdy("mesh_body")
        start = cur.pos
        cur.pos += len("#sdy.mesh")
        cur.balanced()
        return cur.p.sdy_attr(start, cur.pos, "mesh_op_body", cur.opname)


class GroupId:
    """``sdy.sharding_group``'s ``I64Attr`` group id, written and kept as a plain integer."""

    @staticmethod
    def parse(cur) -> int:
        m = cur.match(_INT)
        if not m:
            raise cur.error(f"expected an integer group id, found {cur.found()}")
        return int(m.group())

    @staticmethod
    def print(value: int) -> str:
        return str(value)

    @staticmethod
    def starts(cur) -> bool:
        cur.ws()
        return bool(_INT.match(cur.text, cur.pos, cur.end))


class Keyword:
    """An sdy enum written by its case keyword (``max``, ``FORWARD``), kept as the keyword; ``what`` names
    the enum in the error for another word."""

    def __init__(self, cases: tuple[str, ...], what: str | None = None):
        self.cases, self.what = cases, what

    def parse(self, cur) -> str:
        m = cur.match(_BARE_ID)
        if not m or m.group() not in self.cases:
            raise cur.error(f"expected {self.what}, found " + (repr(m.group()) if m else cur.found()))
        return m.group()

    @staticmethod
    def print(value: str) -> str:
        return value

    def starts(self, cur) -> bool:
        cur.ws()
        m = _BARE_ID.match(cur.text, cur.pos, cur.end)
        return bool(m and m.group() in self.cases)


MESH = MeshBody()
SHARDING = SdyPiece("sharding_body", P.sharding_body)
MANUAL_AXES = SdyPiece("manual_axes", P.manual_axes)
AXIS_REF_LIST = SdyPiece("axis_ref_list", lambda a: P.axis_list(a.value))
LIST_OF_AXIS_REF_LISTS = SdyPiece("list_of_axis_ref_lists", P.list_of_axis_ref_lists)
ALL_TO_ALL_PARAMS = SdyPiece("all_to_all_params", P.all_to_all_params)
REDUCTION_OP = Keyword(A.REDUCTION_KINDS)
PROPAGATION_DIRECTION = Keyword(A.PROPAGATION_DIRECTIONS,
                                "a propagation direction (NONE, FORWARD, BACKWARD or BOTH)")


@directive("StrippedTensorShardingPerValueAttr")
class StrippedTensorShardingPerValueAttr:
    """A ``#sdy.sharding_per_value`` written as its list of shardings: ``[<@mesh, [{"x"}]>, ...]``."""

    @staticmethod
    def parse(cur, state, var) -> None:
        loc_key = state.decl.attr(var.name).loc_key
        at = cur.ws()
        if loc_key is not None:
            state.properties[loc_key] = cur.p.loc(at)
        state.set_attr(var, A.TensorShardingPerValueAttr(cur.sdy("sharding_list")))

    @staticmethod
    def print(out, op, value) -> None:
        out.write(P.sharding_list(value.shardings))


@directive("SingleBlockRegionNoBlockId")
class SingleBlockRegionNoBlockId:
    """``(%arg0: T {attrs} loc(...), ...) {body}``: the entry block's arguments before the region, which
    has no block label of its own."""

    @staticmethod
    def parse(cur, state, var) -> None:
        cur.expect("(", "'(' and the region arguments")
        args: list[tuple] = []
        if not cur.accept(")"):
            while True:
                at = cur.ws()
                name = cur.value_use()
                cur.expect(":")
                t = cur.type()
                d = cur.attr_dict()
                args.append((name, t, at, cur.location(), d[0] if d else {}))
                if not cur.accept(","):
                    break
            cur.expect(")")
        state.set_region(var, [cur.region()])
        state.region_args = [args]
        state.regions_first = True

    @staticmethod
    def print(out, op, region) -> None:
        pr = out.pr
        args = region.blocks[0].arguments
        out.write("(" + ", ".join(f"{pr.value(a)}: {a.type}{pr.attr_dict(a.attributes)}{pr.loc(a.location_text)}"
                                  for a in args) + ") ")
        out.region(region, entry_args=False)


def parse_constant(cur, state) -> None:
    """``sdy.constant {attrs} dense<...> : T``: the value's type is the result type, which MLIR elides."""
    d = cur.attr_dict()
    if d is not None:
        state.attributes, state.attribute_locs = d
    start = cur.ws()
    m = cur.match(_TYPE_HEAD)  # the value runs to the top-level ':' before the type
    if not m:
        raise cur.error(f"expected an elements attribute like dense<...>, found {cur.found()}")
    if cur.pos < cur.end and cur.text[cur.pos] == "<":
        cur.balanced_value(start)
    value = cur.p.norm(start, cur.pos)
    try:
        cur.expect(":", "':' and the type")
    except ParseError:
        cur.p.attr_value(start, cur.pos)  # (a word that is no attribute, as a cut op's next line: MLIR's error)
        raise
    t = cur.type()
    check_attribute(cur.p, f"{value} : {t}", start, cur.pos)  # (read as MLIR reads it, as stablehlo.constant's)
    if value.startswith("dense<") and not (isinstance(t, RankedTensorType) and DYNAMIC not in t.shape):
        shaped = isinstance(t, (RankedTensorType, UnrankedTensorType, VectorType))
        raise cur.p.error(start, "elements literal type must have static shape" if shaped
                          else "elements literal must be a shaped type")
    dense = _DENSE_VALUE.fullmatch(value)
    if dense and isinstance(t, RankedTensorType):  # canonical floats need the element type
        value = canonical_dense_elements(dense.group(1), str(t)) or canonical_dense_value(dense.group(1),
                                                                                          t.element_type)
    state.properties["value"] = A.OpaqueAttr(value)
    state.all_operands = []
    state.all_result_types = [t]


def print_constant(out, op) -> None:
    """``sdy.constant {attrs} VALUE : T``."""
    out.write(f"{out.pr.attr_dict(op.attributes_view)} {op.properties_view['value']} : {op.results[0].type}")

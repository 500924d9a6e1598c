"""The builtin dialect's ``module`` (``mlir/IR/BuiltinOps.td``): ``module @name attributes {...} {...}``,
printed without its dialect as MLIR prints every builtin op."""
from __future__ import annotations

from shardy_py.dialects.attr_codecs import SymbolName
from shardy_py.dialects.registry import AttrDef, declare
from shardy_py.ir import attrs as A
from shardy_py.ir.ops import Operation
from shardy_py.syntax.generic_props import GenericProperties, attribute_properties, string_attr


def _as_attrs(op: Operation) -> dict[str, A.Attr]:
    out = attribute_properties(op)
    if "sym_name" in op.properties_view:
        out["sym_name"] = string_attr(op.properties_view["sym_name"])
    return out


def _from_attrs(p, op: Operation, props: dict[str, A.Attr], offset: int, name_at: int,
                result_types: list = ()) -> None:
    rest = dict(props)
    if rest.pop("sym_name", None) is not None:
        op.properties["sym_name"] = GenericProperties(p, op, props, offset).plain_string("sym_name")
    op.properties.update(rest)


declare("builtin.module", attributes=(AttrDef("sym_name", optional=True, codec=SymbolName),
                                      AttrDef("sym_visibility", optional=True)),
        regions=("bodyRegion",), traits=("IsolatedFromAbove",),
        format="($sym_name^)? attr-dict-with-keyword $bodyRegion", as_attrs=_as_attrs, from_attrs=_from_attrs)

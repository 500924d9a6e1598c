"""The Shardy dialect's ops (``shardy/dialect/sdy/ir/ops.td``), each declared once with its parts and
its assembly format, as the StableHLO ops are: one engine (``syntax.format``) reads and prints them.

The sdy attributes that the formats write bare (``<@mesh, [{"x"}]>`` for a ``#sdy.sharding``), the
custom directives and ``sdy.constant``'s syntax are in ``dialects.sdy_syntax``; the generic form of
the properties in ``dialects.sdy_generic``.  The ops' rules are checked by ``shardy_py.verify``.

Where each sdy attribute property was written is kept beside it (``sharding_loc``, ``mesh_loc``...).
"""
from __future__ import annotations

from shardy_py.dialects import sdy_syntax as S
from shardy_py.dialects.attr_codecs import String, SymbolName
from shardy_py.dialects.registry import AttrDef, declare
from shardy_py.dialects.sdy_generic import as_attrs, from_attrs

_SAME_TYPE = ("SameOperandsAndResultType",)
#: What the errors say is expected at a format's punctuation (as before the ops were declared).
_TYPE = {":": "':' and the type"}
_FUNCTION_TYPE = {"(": "'(' and the operands", ":": "':' and the function type"}
#: The tail of the formats of the ops with one operand and one result of its type.
_TAIL = "attr-dict `:` type($result)"


def _sdy(name: str, **parts):
    """Declare sdy op ``name``: its properties convert to and from the generic form in ``sdy_generic``."""
    return declare(f"sdy.{name}", as_attrs=as_attrs, from_attrs=from_attrs, **parts)


def _located(name: str, codec, optional: bool = False, loc_key: str | None = None) -> AttrDef:
    return AttrDef(name, optional=optional, codec=codec, loc_key=loc_key or f"{name}_loc")


_sdy("mesh", attributes=(_located("sym_name", SymbolName, loc_key="sym_loc"), _located("mesh", S.MESH)),
     format="$sym_name `=` $mesh attr-dict", expect={"=": "'=' after the mesh name"})

for _name in ("sharding_constraint", "reshard"):
    _sdy(_name, operands=("input",), attributes=(_located("sharding", S.SHARDING),), results=("result",),
         traits=_SAME_TYPE, format=f"$input $sharding {_TAIL}", expect=_TYPE)

_sdy("return", operands=("results*",), format="attr-dict ($results^ `:` type($results))?",
     expect={":": "':' and the operand types"})

_REGION_FORMAT = "custom<SingleBlockRegionNoBlockId>($body) attr-dict `:` functional-type(operands, results)"
_SHARDINGS = "`{0}` `` `=` `` custom<StrippedTensorShardingPerValueAttr>(${0})"

# (Both are IsolatedFromAbove in ops.td; the parser lets their regions see the values above, and
# ``syntax.ssa_uses`` reports a use of one as MLIR's verifier does.)
_sdy("manual_computation", operands=("tensors*",),
     attributes=(_located("in_shardings", None), _located("out_shardings", None),
                 _located("manual_axes", S.MANUAL_AXES)),
     results=("results*",), regions=("body",), traits=("SingleBlockImplicitTerminator",),
     format="`(` operands `)` " + _SHARDINGS.format("in_shardings") + " " + _SHARDINGS.format("out_shardings")
            + " `manual_axes` `` `=` `` $manual_axes " + _REGION_FORMAT, expect=_FUNCTION_TYPE)

_sdy("named_computation", operands=("operands*",),
     attributes=(AttrDef("name", codec=String("the computation name")), _located("in_shardings", None, optional=True),
                 _located("out_shardings", None, optional=True)),
     results=("results*",), regions=("body",), traits=("SingleBlockImplicitTerminator",),
     format="`<` $name `>` `` `(` $operands `)` (" + _SHARDINGS.format("in_shardings") + "^)? ("
            + _SHARDINGS.format("out_shardings") + "^)? " + _REGION_FORMAT,
     expect={"<": "'<' and the computation name", **_FUNCTION_TYPE})

_sdy("sharding_group", operands=("input",), attributes=(AttrDef("group_id", codec=S.GroupId),),
     format="$input `group_id` `` `=` `` $group_id attr-dict `:` type($input)", expect=_TYPE)

_sdy("constant", attributes=(AttrDef("value"),), results=("output",), parse=S.parse_constant,
     print=S.print_constant)

_sdy("data_flow_edge", operands=("input",), attributes=(_located("sharding", S.SHARDING, optional=True),),
     results=("result",), traits=_SAME_TYPE, format=f"$input (`sharding` `` `=` `` $sharding^)? {_TAIL}",
     expect=_TYPE)

_sdy("func_data_flow_edge", operands=("operand",), results=("result",), traits=_SAME_TYPE,
     format=f"$operand {_TAIL}", expect=_TYPE)

_sdy("propagation_barrier", operands=("input",),
     attributes=(AttrDef("allowed_direction", codec=S.PROPAGATION_DIRECTION),), results=("result",),
     traits=_SAME_TYPE, format="$input `allowed_direction` `` `=` `` $allowed_direction attr-dict `:` type($input)",
     expect=_TYPE)

#: The collectives: the axes property each has (and its codec), and whether it reduces.
_COLLECTIVES = {
    "all_gather": ("gathering_axes", S.LIST_OF_AXIS_REF_LISTS),
    "all_slice": ("slicing_axes", S.LIST_OF_AXIS_REF_LISTS),
    "all_to_all": ("params", S.ALL_TO_ALL_PARAMS),
    "collective_permute": (None, None),
    "all_reduce": ("reduction_axes", S.AXIS_REF_LIST),
    "reduce_scatter": ("reduce_scatter_axes", S.LIST_OF_AXIS_REF_LISTS),
    "sharded_to_unreduced": ("axes", S.LIST_OF_AXIS_REF_LISTS),
    "replicated_to_unreduced": ("axes", S.AXIS_REF_LIST),
}
for _name, (_axes, _codec) in _COLLECTIVES.items():
    _reducing = _name in ("all_reduce", "reduce_scatter")
    _attrs = [_located("out_sharding", S.SHARDING)]
    _format = "$tensor `out_sharding` `` `=` `` $out_sharding " + _TAIL
    if _axes is not None:
        _attrs.insert(0, _located(_axes, _codec))
        _format = f"${_axes} " + _format
    if _reducing:  # ``DefaultValuedAttr<Sdy_ReductionOp, SUM>``: kept as ``sum`` when not written
        _attrs.insert(0, AttrDef("reduction_op", optional=True, default="sum", materialize=True,
                                 codec=S.REDUCTION_OP))
        _format = "($reduction_op^)? " + _format
    _sdy(_name, operands=("tensor",), attributes=tuple(_attrs), results=("result",), traits=_SAME_TYPE,
         format=_format, expect=_TYPE)

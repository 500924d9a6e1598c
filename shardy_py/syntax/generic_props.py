"""Inherent attributes (MLIR properties) of an op, as its generic form writes them in ``<{...}>``,
and the reverse: an op of the hand-parsed dialects (builtin, func, sdy) built from them.

Declared ops keep their properties as attributes already.  ``builtin.module``, ``func.func``
and the sdy ops keep theirs the way their custom syntax reads them (a symbol name as a string, a
function's argument types as a list, ...): ``inherent_attributes`` writes those as the C++ ops
store them, ``adopt_generic`` reads them back.
"""
from __future__ import annotations

from shardy_py.errors import ParseError
from shardy_py.ir import attrs as A
from shardy_py.ir.ops import Operation
from shardy_py.ir.types import Type
from shardy_py.syntax import attr_printer as P


def _text(s: str) -> A.OpaqueAttr:
    return A.OpaqueAttr(s)


def _string(s: str) -> A.OpaqueAttr:
    return A.OpaqueAttr(P.quote_string(s))


def _fn_type(ins, outs) -> A.OpaqueAttr:
    from shardy_py.syntax.op_writer import functional_type

    return A.OpaqueAttr(functional_type(ins, outs))


def _dicts(ds: list[dict]) -> A.OpaqueAttr | None:
    from shardy_py.syntax.op_writer import attr_entries

    if not any(ds):
        return None
    return A.OpaqueAttr("[" + ", ".join("{" + attr_entries(d) + "}" for d in ds) + "]")


def _module(op: Operation) -> dict:
    out = {}
    if "sym_name" in op.properties_view:
        out["sym_name"] = _string(op.properties_view["sym_name"])
    return out


def _func(op: Operation) -> dict:
    p = op.properties_view
    out = {"function_type": _fn_type(p["arg_types"], p["result_types"]), "sym_name": _string(p["sym_name"])}
    if p.get("sym_visibility"):
        out["sym_visibility"] = _string(p["sym_visibility"])
    args = op.regions[0].blocks[0].arguments if op.regions else None
    arg_attrs = [dict(a.attributes) for a in args] if args is not None else p["arg_attrs"]
    for key, ds in (("arg_attrs", arg_attrs), ("res_attrs", p["res_attrs"])):
        d = _dicts(ds)
        if d is not None:
            out[key] = d
    return out


def _keys(*names: str):
    def get(op: Operation) -> dict:
        return {k: op.properties_view[k] for k in names if op.properties_view.get(k) is not None}
    return get


def _named_computation(op: Operation) -> dict:
    out = _keys("in_shardings", "out_shardings")(op)
    out["name"] = _string(op.properties_view["name"])
    return out


def _mesh(op: Operation) -> dict:
    return {"mesh": op.properties_view["mesh"], "sym_name": _string(op.properties_view["sym_name"])}


def _constant(op: Operation) -> dict:
    return {"value": _text(f"{op.properties_view['value']} : {op.results[0].type}")}


def _reducing(axes_key: str):
    """sdy.all_reduce / sdy.reduce_scatter: ``reduction_op`` (Shardy's ``ReductionOp`` enum) is an
    ``i32`` in the generic form, always written there (the custom form leaves out ``sum``)."""
    def get(op: Operation) -> dict:
        out = _keys(axes_key, "out_sharding")(op)
        k = A.REDUCTION_KINDS.index(op.properties_view.get("reduction_op", "sum"))
        out["reduction_op"] = _text(f"{k} : i32")
        return out
    return get


def _barrier(op: Operation) -> dict:
    k = A.PROPAGATION_DIRECTIONS.index(op.properties_view["allowed_direction"])
    return {"allowed_direction": _text(f"{k} : i32")}


_ADAPTERS = {
    "builtin.module": _module,
    "func.func": _func,
    "sdy.mesh": _mesh,
    "sdy.sharding_constraint": _keys("sharding"),
    "sdy.reshard": _keys("sharding"),
    "sdy.data_flow_edge": _keys("sharding"),
    "sdy.manual_computation": _keys("in_shardings", "manual_axes", "out_shardings"),
    "sdy.named_computation": _named_computation,
    "sdy.sharding_group": lambda op: {"group_id": _text(f"{op.properties_view['group_id']} : i64")},
    "sdy.constant": _constant,
    "sdy.propagation_barrier": _barrier,
    "sdy.all_gather": _keys("gathering_axes", "out_sharding"),
    "sdy.all_slice": _keys("slicing_axes", "out_sharding"),
    "sdy.all_to_all": _keys("params", "out_sharding"),
    "sdy.collective_permute": _keys("out_sharding"),
    "sdy.all_reduce": _reducing("reduction_axes"),
    "sdy.reduce_scatter": _reducing("reduce_scatter_axes"),
    "sdy.sharded_to_unreduced": _keys("axes", "out_sharding"),
    "sdy.replicated_to_unreduced": _keys("axes", "out_sharding"),
}


def inherent_attributes(op: Operation) -> dict[str, A.Attr]:
    """The op's properties as attributes, by name."""
    adapter = _ADAPTERS.get(op.name)
    if adapter is not None:
        return adapter(op)
    return {k: v for k, v in op.properties_view.items() if isinstance(v, A.Attr)}


def has_adapter(name: str) -> bool:
    """Whether ``name`` is one of the hand-parsed ops ``adopt_generic`` can build."""
    return name in _ADAPTERS or name in ("func.return", "sdy.return", "sdy.func_data_flow_edge")


def adopt_generic(p, op: Operation, props: dict[str, A.Attr], offset: int, name_at: int) -> None:
    """Give a hand-parsed op read in generic form the properties its custom syntax would give
    (errors at ``offset``, the operands; MLIR's property-conversion errors at ``name_at``)."""
    name = op.name
    pr = op.properties

    def need(key: str):
        if key not in props:
            raise p.error(offset, f"'{name}' needs the property '{key}'")
        return props[key]

    def plain_string(key: str) -> str:
        v = need(key)
        text = str(v)
        if not (text.startswith('"') and text.endswith('"')):
            raise p.error(offset, f"'{name}': property '{key}' must be a string")
        return p.unquote_at(text, offset)

    if name == "builtin.module":
        if "sym_name" in props:
            pr["sym_name"] = plain_string("sym_name")
    elif name == "func.func":
        _adopt_func(p, op, props, offset, plain_string)
    elif name == "sdy.mesh":
        pr["sym_name"] = plain_string("sym_name")
        pr["mesh"] = need("mesh")
    elif name in ("sdy.named_computation",):
        pr["name"] = plain_string("name")
        for k in ("in_shardings", "out_shardings"):
            if k in props:
                pr[k] = props[k]
    elif name == "sdy.sharding_group":
        pr["group_id"] = typed_int(p, name, "group_id", need("group_id"), offset, "i64")
    elif name == "sdy.constant":
        pr["value"] = A.OpaqueAttr(str(need("value")).rsplit(" : ", 1)[0])
    elif name == "sdy.propagation_barrier":
        k = typed_int(p, name, "allowed_direction", need("allowed_direction"), offset, "i32")
        if not 0 <= k < len(A.PROPAGATION_DIRECTIONS):
            raise p.error(offset, f"'{name}': allowed_direction {k} is not a propagation direction (0 to "
                                  f"{len(A.PROPAGATION_DIRECTIONS) - 1})")
        pr["allowed_direction"] = A.PROPAGATION_DIRECTIONS[k]
    else:
        if name in ("sdy.all_reduce", "sdy.reduce_scatter"):
            props = dict(props)
            pr["reduction_op"] = _reduction_op(p, name, props, props.pop("reduction_op", None), name_at)
        for k, v in props.items():
            want = _SDY_PROPERTY_CLASSES.get(k)
            if want is not None and name.startswith("sdy.") and not isinstance(v, want):
                raise p.error(offset, f"'{name}': property '{k}' must be a {want.__name__}, not '{v}'")
            pr[k] = v
    if name == "sdy.mesh" and not isinstance(pr["mesh"], A.MeshAttr):
        raise p.error(offset, f"'{name}': property 'mesh' must be a #sdy.mesh, not '{pr['mesh']}'")


#: The attribute class each sdy op property must have (generic form read back into the model).
_SDY_PROPERTY_CLASSES = {
    "sharding": A.TensorShardingAttr, "out_sharding": A.TensorShardingAttr,
    "in_shardings": A.TensorShardingPerValueAttr, "out_shardings": A.TensorShardingPerValueAttr,
    "manual_axes": A.ManualAxesAttr,
}


def _reduction_op(p, op_name: str, props: dict, attr, offset: int) -> str:
    """The ``reduction_op`` property read back: ``sum`` when absent (its default), else ``0 : i32``
    (sum), ``1 : i32`` (max) or ``2 : i32`` (min); anything else is MLIR's property-conversion error."""
    if attr is None:
        return "sum"
    number, _, t = str(attr).partition(" : ")
    if t.strip() == "i32" and number.strip() in ("0", "1", "2"):
        return A.REDUCTION_KINDS[int(number)]
    entries = ", ".join(f"{k} = {v}" for k, v in sorted({**props, "reduction_op": attr}.items()))
    raise p.error(offset, f"invalid properties {{{entries}}} for op {op_name}: Invalid attribute "
                          f"`reduction_op` in property conversion: {attr}")


def typed_int(p, op_name: str, key: str, attr, offset: int, type_name: str) -> int:
    """The value of an integer property written ``N : type``; a located error otherwise."""
    text = str(attr)
    number, _, t = text.partition(" : ")
    try:
        value = int(number)
    except ValueError:
        value = None
    if value is None or t.strip() not in ("", type_name):
        raise p.error(offset, f"'{op_name}': property '{key}' must be an integer of type {type_name}, not '{text}'")
    return value


def _adopt_func(p, op: Operation, props, offset: int, plain_string) -> None:
    pr = op.properties
    pr["sym_name"] = plain_string("sym_name")
    if "sym_visibility" in props:
        pr["sym_visibility"] = plain_string("sym_visibility")
    ft = props.get("function_type")
    if ft is None:
        raise p.error(offset, "'func.func' needs the property 'function_type'")
    from shardy_py.syntax.fn_types import split_function_type

    try:
        ins, outs = split_function_type(str(ft))
    except ValueError as e:
        raise ParseError(str(e), *p.lines.locate(offset), offset, p.filename) from None
    pr["arg_types"] = [Type(t) if not isinstance(t, Type) else t for t in ins]
    pr["result_types"] = list(outs)
    arg_attrs = _split_dicts(p, props.get("arg_attrs"), len(ins))
    pr["arg_attrs"] = arg_attrs
    pr["res_attrs"] = _split_dicts(p, props.get("res_attrs"), len(outs))
    pr["res_locs"] = []
    pr["arg_locs"] = [None] * len(ins)
    if op.regions:
        for v, d in zip(op.regions[0].blocks[0].arguments, arg_attrs, strict=False):
            v.attributes = d


def _split_dicts(p, attr, n: int) -> list[dict]:
    if attr is None:
        return [{} for _ in range(n)]
    from shardy_py.syntax.fn_types import split_dict_array

    return split_dict_array(p, str(attr), n)

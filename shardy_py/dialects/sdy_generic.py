"""The sdy ops' properties in MLIR's generic form (``<{...}>``) and back, as the C++ ops'
``getPropertiesAsAttr`` / ``setPropertiesFromAttr`` convert them.

The custom syntax keeps a symbol or computation name as a string, ``group_id`` as an integer and
the enums (``reduction_op``, ``allowed_direction``) as their keywords; the generic form writes them
as a ``StringAttr``, an ``i64`` and ``i32`` case numbers.  Every other property is the sdy attribute
itself, which must be of its class.
"""
from __future__ import annotations

from shardy_py.ir import attrs as A
from shardy_py.ir.ops import Operation
from shardy_py.syntax.generic_props import GenericProperties, attribute_properties, string_attr


def _i(value: int, type_name: str) -> A.OpaqueAttr:
    return A.OpaqueAttr(f"{value} : {type_name}")


def as_attrs(op: Operation) -> dict[str, A.Attr]:
    """The properties of sdy op ``op`` as its generic form writes them."""
    props = op.properties_view
    out = attribute_properties(op)
    name = op.name
    if name == "sdy.mesh":
        out["sym_name"] = string_attr(props["sym_name"])
    elif name == "sdy.named_computation":
        out["name"] = string_attr(props["name"])
    elif name == "sdy.sharding_group":
        out["group_id"] = _i(props["group_id"], "i64")
    elif name == "sdy.constant":
        out["value"] = A.OpaqueAttr(f"{props['value']} : {op.results[0].type}")
    elif name == "sdy.propagation_barrier":
        out["allowed_direction"] = _i(A.PROPAGATION_DIRECTIONS.index(props["allowed_direction"]), "i32")
    elif name in ("sdy.all_reduce", "sdy.reduce_scatter"):
        # Shardy's ``ReductionOp`` enum: always written in the generic form (the custom form leaves out sum)
        out["reduction_op"] = _i(A.REDUCTION_KINDS.index(props.get("reduction_op", "sum")), "i32")
    return out


#: The attribute class each sdy op property must have.
_PROPERTY_CLASSES = {
    "sharding": A.TensorShardingAttr, "out_sharding": A.TensorShardingAttr,
    "in_shardings": A.TensorShardingPerValueAttr, "out_shardings": A.TensorShardingPerValueAttr,
    "manual_axes": A.ManualAxesAttr,
}


def from_attrs(p, op: Operation, props: dict[str, A.Attr], offset: int, name_at: int,
               result_types: list = ()) -> None:
    """Give sdy op ``op``, read in generic form, the properties its custom syntax would give (errors at
    ``offset``, the operands; MLIR's property-conversion error at ``name_at``, the op name)."""
    name = op.name
    pr = op.properties
    g = GenericProperties(p, op, props, offset)
    if name == "sdy.mesh":
        pr["sym_name"] = g.plain_string("sym_name")
        pr["mesh"] = g.need("mesh")
        if not isinstance(pr["mesh"], A.MeshAttr):
            raise g.error(f"'{name}': property 'mesh' must be a #sdy.mesh, not '{pr['mesh']}'")
    elif name == "sdy.named_computation":
        pr["name"] = g.plain_string("name")
        for k in ("in_shardings", "out_shardings"):
            if k in props:
                pr[k] = props[k]
    elif name == "sdy.sharding_group":
        pr["group_id"] = g.typed_int("group_id", "i64")
    elif name == "sdy.constant":
        value, _, value_type = str(g.need("value")).rpartition(" : ")
        # (the custom form writes one type: a literal of another type than the result keeps its own, for the
        # verifier's InferTypeOpInterface check to report; a quantized result's literal has its storage type)
        result = str(result_types[0]) if result_types else value_type
        same = not value or value_type == result or "!quant." in result
        pr["value"] = A.OpaqueAttr(f"{value} : {value_type}" if not same else value or value_type)
    elif name == "sdy.propagation_barrier":
        k = g.typed_int("allowed_direction", "i32")
        if not 0 <= k < len(A.PROPAGATION_DIRECTIONS):
            raise g.error(f"'{name}': allowed_direction {k} is not a propagation direction (0 to "
                          f"{len(A.PROPAGATION_DIRECTIONS) - 1})")
        pr["allowed_direction"] = A.PROPAGATION_DIRECTIONS[k]
    else:
        if name in ("sdy.all_reduce", "sdy.reduce_scatter"):
            props = dict(props)
            pr["reduction_op"] = _reduction_op(p, name, props, props.pop("reduction_op", None), name_at)
        for k, v in props.items():
            want = _PROPERTY_CLASSES.get(k)
            if want is not None and not isinstance(v, want):
                raise g.error(f"'{name}': property '{k}' must be a {want.__name__}, not '{v}'")
            pr[k] = v


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

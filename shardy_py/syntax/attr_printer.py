"""Canonical text of sdy attributes, byte-identical to the C++ Shardy printer.

Two forms exist: the standalone form with the dialect prefix
(``#sdy.sharding<@m, [{"a"}]>``) used in attribute dictionaries, and the
stripped form (``<@m, [{"a"}]>``) used inside other attributes and in op
positions.  ``print_attr`` gives the standalone form; the ``*_body`` helpers
give the pieces the op printer needs.
"""
from __future__ import annotations

import re

from shardy_py.ir import attrs as A
from shardy_py.ir.attr_text import quote_string

_BARE_SYMBOL = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*\Z")


def symbol_ref(name: str) -> str:
    """``@name``, quoted when ``name`` is not a bare identifier."""
    return "@" + (name if _BARE_SYMBOL.match(name) else quote_string(name))


def mesh_body(m: A.MeshAttr) -> str:
    axes = ", ".join(f"{quote_string(a.name)}={a.size}" for a in m.axes)
    ids = f", device_ids=[{', '.join(map(str, m.device_ids))}]" if m.device_ids else ""
    return f"<[{axes}]{ids}>"


def axis_ref(a: A.AxisRefAttr) -> str:
    s = quote_string(a.name)
    if a.sub_axis_info is not None:
        s += f":({a.sub_axis_info.pre_size}){a.sub_axis_info.size}"
    return s


def axis_list(axes) -> str:
    """``{"a", "b":(1)2}``."""
    return "{" + ", ".join(axis_ref(a) for a in axes) + "}"


def dim_sharding(d: A.DimensionShardingAttr) -> str:
    inner = ", ".join(axis_ref(a) for a in d.axes)
    if not d.is_closed:
        inner = inner + ", ?" if inner else "?"
    prio = f"p{d.priority}" if d.priority is not None else ""
    return "{" + inner + "}" + prio


def mesh_or_ref(m) -> str:
    if isinstance(m, str):
        return symbol_ref(m)
    return "mesh" + mesh_body(m)


def sharding_body(s: A.TensorShardingAttr) -> str:
    """``<@mesh, [{"x"}, {}]>`` of ``s`` (memoised: attributes are immutable and a module repeats a few)."""
    text = _BODY_CACHE.get(s)
    if text is None:
        if len(_BODY_CACHE) >= _CACHE_LIMIT:
            _BODY_CACHE.clear()
        text = _BODY_CACHE[s] = _sharding_body(s)
    return text


def _sharding_body(s: A.TensorShardingAttr) -> str:
    """Stripped form ``<@m, [{"a"}, {}], replicated={"b"}>``."""
    out = [mesh_or_ref(s.mesh_or_ref), ", [", ", ".join(dim_sharding(d) for d in s.dim_shardings), "]"]
    if s.replicated_axes:
        out.append(", replicated=" + axis_list(s.replicated_axes))
    if s.unreduced_axes:
        kw = "" if s.reduction == "sum" else s.reduction
        out.append(f", unreduced={kw}" + axis_list(s.unreduced_axes))
    return "<" + "".join(out) + ">"


def sharding_list(shardings) -> str:
    """``[<...>, <...>]`` as in ``in_shardings=`` and ``sharding_per_value``."""
    return "[" + ", ".join(sharding_body(s) for s in shardings) + "]"


def factor_symbol(k: int) -> str:
    return chr(ord("i") + k) if k <= 17 else f"z_{k - 17}"


def tensor_mapping(t: A.TensorMappingAttr) -> str:
    return "[" + ", ".join("".join(factor_symbol(k) for k in d.factor_indices) for d in t.dim_mappings) + "]"


def op_sharding_rule_body(r: A.OpShardingRuleAttr) -> str:
    out = ["<(", ", ".join(tensor_mapping(t) for t in r.operand_mappings), ")->(",
           ", ".join(tensor_mapping(t) for t in r.result_mappings), ")"]
    if r.factor_sizes:
        out.append(" {" + ", ".join(f"{factor_symbol(i)}={n}" for i, n in enumerate(r.factor_sizes)) + "}")
    for kw, fs in (("reduction", r.reduction_factors), ("need_replication", r.need_replication_factors),
                   ("permutation", r.permutation_factors), ("blocked_propagation", r.blocked_propagation_factors)):
        if fs:
            out.append(f" {kw}={{" + ", ".join(factor_symbol(k) for k in fs) + "}")
    if r.is_custom_rule:
        out.append(", custom")
    out.append(">")
    return "".join(out)


def edge_value_ref(v: A.EdgeValueRefAttr) -> str:
    return f"{v.type}-{v.index}"


def propagation_edges_body(p: A.PropagationEdgesAttr) -> str:
    steps = []
    for st in p.value:
        entries = ", ".join(
            "{" + f"{axis_ref(e.axis_name)} = {edge_value_ref(e.source)} -> ["
            + ", ".join(edge_value_ref(t) for t in e.targets) + "]}"
            for e in st.axis_entries)
        steps.append(f"{{step-{st.step_index} = [{entries}]}}")
    return "<[" + ", ".join(steps) + "]>"


def list_of_axis_ref_lists(x: A.ListOfAxisRefListsAttr) -> str:
    return "[" + ", ".join(axis_list(a.value) for a in x.value) + "]"


def all_to_all_params(x: A.AllToAllParamListAttr) -> str:
    return "[" + ", ".join(f"{axis_list(p.axes)}: {p.src_dim}->{p.tgt_dim}" for p in x.value) + "]"


def manual_axes(x: A.ManualAxesAttr) -> str:
    return "{" + ", ".join(quote_string(a) for a in x.axes) + "}"


_STANDALONE = {
    A.MeshAttr: lambda a: "#sdy.mesh" + mesh_body(a),
    A.TensorShardingAttr: lambda a: "#sdy.sharding" + sharding_body(a),
    A.TensorShardingPerValueAttr: lambda a: "#sdy.sharding_per_value<" + sharding_list(a.shardings) + ">",
    A.OpShardingRuleAttr: lambda a: "#sdy.op_sharding_rule" + op_sharding_rule_body(a),
    A.PropagationEdgesAttr: lambda a: "#sdy.propagation_edges" + propagation_edges_body(a),
    A.ManualAxesAttr: lambda a: "#sdy<manual_axes" + manual_axes(a) + ">",
    A.AxisRefListAttr: lambda a: "#sdy<axis_ref_list" + axis_list(a.value) + ">",
    A.ListOfAxisRefListsAttr: lambda a: "#sdy<list_of_axis_ref_lists" + list_of_axis_ref_lists(a) + ">",
    A.AllToAllParamListAttr: lambda a: "#sdy<all_to_all_param_list" + all_to_all_params(a) + ">",
    A.OpaqueAttr: lambda a: a.text or "unit",  # OpaqueAttr("") is UNIT_ATTR: `unit` when printed alone
    # Nested-only attributes print in their nested form.
    A.MeshAxisAttr: lambda a: f"{quote_string(a.name)}={a.size}",
    A.SubAxisInfoAttr: lambda a: f"({a.pre_size}){a.size}",
    A.AxisRefAttr: axis_ref,
    A.DimensionShardingAttr: dim_sharding,
    A.DimMappingAttr: lambda a: "".join(factor_symbol(k) for k in a.factor_indices),
    A.TensorMappingAttr: tensor_mapping,
    A.AllToAllParamAttr: lambda a: f"{axis_list(a.axes)}: {a.src_dim}->{a.tgt_dim}",
    A.EdgeValueRefAttr: edge_value_ref,
}


def print_attr(a: A.Attr) -> str:
    """Canonical text of ``a`` (standalone form for the top-level sdy attributes), memoised.

    Classes without an entry in ``_STANDALONE`` (the builtin attributes of ``ir.builtin_attrs`` and
    ``ir.dense_attrs``, the StableHLO/CHLO ones of ``ir.stablehlo_attrs``) print with their ``mlir_text()``."""
    text = _ATTR_CACHE.get(a)
    if text is None:
        if len(_ATTR_CACHE) >= _CACHE_LIMIT:
            _ATTR_CACHE.clear()
        fn = _STANDALONE.get(type(a))
        text = _ATTR_CACHE[a] = fn(a) if fn is not None else a.mlir_text()
    return text


# Printed texts by attribute (frozen, hash cached): printing a big module formats each distinct one once.
_CACHE_LIMIT = 65536
_ATTR_CACHE: dict[A.Attr, str] = {}
_BODY_CACHE: dict[A.Attr, str] = {}

"""ODS attribute constraints of StableHLO ops whose attribute is written in an attribute dictionary (generic
form, or a custom form's ``{...}``), where any attribute can be written: ``I64ElementsAttr``
(``dense<...> : tensor<...xi64>``), ``StableHLO_ReplicaGroups`` (that, or a
``#stablehlo.replica_group_mesh_axes``), ``BoolAttr``, ``ConfinedAttr<I64Attr, [IntNonNegative]>`` and
``DenseI64ArrayAttr`` (``StablehloOps.td``).  MLIR checks them (in the order the op declares them) before
the operand and result constraints and the op's own verifier; the message is ODS's
``attribute 'NAME' failed to satisfy constraint: ...``.
"""
from __future__ import annotations

import re

from shardy_py.dialects.registry import add_verifier
from shardy_py.dialects.stablehlo_verify_common import attr_constraint_failure, attr_text

_I64_ELEMENTS = re.compile(r"dense<.*>\s*:\s*(?:tensor|vector)<(?:\d+x)*i64>", re.S)
_I64 = re.compile(r"(-?(?:0x[0-9a-fA-F]+|\d+)) : i64")


def _i64_elements(text: str) -> bool:
    return _I64_ELEMENTS.fullmatch(text) is not None


def _replica_groups(text: str) -> bool:
    return _i64_elements(text) or text.startswith("#stablehlo.replica_group_mesh_axes<")


def _bool(text: str) -> bool:
    return text in ("true", "false")


def _non_negative_i64(text: str) -> bool:
    m = _I64.fullmatch(text)
    if m is None:
        return False
    digits = m.group(1).lstrip("-")
    return not m.group(1).startswith("-") or int(digits, 16 if "x" in digits else 10) == 0


def _i64_array(text: str) -> bool:
    return text == "array<i64>" or text.startswith("array<i64:")


_I64_ELEMENTS_KIND = (_i64_elements, "64-bit signless integer elements attribute")
_REPLICA_GROUPS_KIND = (_replica_groups, "64-bit signless integer elements attribute or mesh and axes based "
                                         "replica groups representation.")
_BOOL_KIND = (_bool, "bool attribute")
_FEATURE_INDEX_KIND = (_non_negative_i64, "64-bit signless integer attribute whose value is non-negative")
_I64_ARRAY_KIND = (_i64_array, "i64 dense array attribute")

#: op -> ((attribute, kind), ...) in the op's declaration order.
ATTRIBUTE_KINDS = {
    "stablehlo.all_gather": (("replica_groups", _REPLICA_GROUPS_KIND),),
    "stablehlo.all_reduce": (("replica_groups", _REPLICA_GROUPS_KIND),),
    "stablehlo.reduce_scatter": (("replica_groups", _REPLICA_GROUPS_KIND),),
    "stablehlo.all_to_all": (("replica_groups", _REPLICA_GROUPS_KIND),),
    "stablehlo.collective_broadcast": (("replica_groups", _REPLICA_GROUPS_KIND),),
    "stablehlo.collective_reduce": (("replica_groups", _REPLICA_GROUPS_KIND),),
    "stablehlo.collective_permute": (("source_target_pairs", _I64_ELEMENTS_KIND),),
    "stablehlo.send": (("is_host_transfer", _BOOL_KIND), ("source_target_pairs", _I64_ELEMENTS_KIND)),
    "stablehlo.recv": (("is_host_transfer", _BOOL_KIND), ("source_target_pairs", _I64_ELEMENTS_KIND)),
    "stablehlo.convolution": (("window_strides", _I64_ARRAY_KIND), ("padding", _I64_ELEMENTS_KIND),
                              ("lhs_dilation", _I64_ARRAY_KIND), ("rhs_dilation", _I64_ARRAY_KIND)),
    "stablehlo.dynamic_conv": (("window_strides", _I64_ARRAY_KIND), ("lhs_dilation", _I64_ARRAY_KIND),
                               ("rhs_dilation", _I64_ARRAY_KIND)),
    "stablehlo.select_and_scatter": (("window_dimensions", _I64_ARRAY_KIND), ("window_strides", _I64_ARRAY_KIND),
                                     ("padding", _I64_ELEMENTS_KIND)),
    "stablehlo.reduce_window": (("window_dimensions", _I64_ARRAY_KIND), ("window_strides", _I64_ARRAY_KIND),
                                ("base_dilations", _I64_ARRAY_KIND), ("window_dilations", _I64_ARRAY_KIND),
                                ("padding", _I64_ELEMENTS_KIND)),
    "stablehlo.custom_call": (("has_side_effect", _BOOL_KIND),),
    "stablehlo.gather": (("slice_sizes", _I64_ARRAY_KIND), ("indices_are_sorted", _BOOL_KIND)),
    "stablehlo.dynamic_gather": (("indices_are_sorted", _BOOL_KIND),),
    "stablehlo.scatter": (("indices_are_sorted", _BOOL_KIND), ("unique_indices", _BOOL_KIND)),
    "stablehlo.sort": (("is_stable", _BOOL_KIND),),
    "stablehlo.batch_norm_grad": (("feature_index", _FEATURE_INDEX_KIND),),
    "stablehlo.batch_norm_inference": (("feature_index", _FEATURE_INDEX_KIND),),
    "stablehlo.batch_norm_training": (("feature_index", _FEATURE_INDEX_KIND),),
    "stablehlo.pad": (("edge_padding_low", _I64_ARRAY_KIND), ("edge_padding_high", _I64_ARRAY_KIND),
                      ("interior_padding", _I64_ARRAY_KIND)),
    "stablehlo.slice": (("start_indices", _I64_ARRAY_KIND), ("limit_indices", _I64_ARRAY_KIND),
                        ("strides", _I64_ARRAY_KIND)),
    "stablehlo.dynamic_broadcast_in_dim": (("broadcast_dimensions", _I64_ARRAY_KIND),
                                           ("known_expanding_dimensions", _I64_ARRAY_KIND),
                                           ("known_nonexpanding_dimensions", _I64_ARRAY_KIND)),
    **{f"stablehlo.{op}": ((name, _I64_ARRAY_KIND),) for op, name in (
        ("reduce", "dimensions"), ("dynamic_slice", "slice_sizes"), ("broadcast", "broadcast_sizes"),
        ("broadcast_in_dim", "broadcast_dimensions"), ("fft", "fft_length"), ("map", "dimensions"),
        ("reverse", "dimensions"), ("transpose", "permutation"))},
    **{f"chlo.broadcast_{op}": (("broadcast_dimensions", _I64_ARRAY_KIND),) for op in (
        "add", "atan2", "divide", "maximum", "minimum", "multiply", "next_after", "polygamma", "power", "remainder",
        "shift_left", "shift_right_arithmetic", "shift_right_logical", "subtract", "zeta", "and", "or", "xor",
        "complex", "compare")},
}


def verify_attribute_kinds(op, ctx):
    """The first attribute of ``op`` (in ``ATTRIBUTE_KINDS``) that is not of its declared kind, as ODS
    reports it; None when all are (or absent: a missing required one is reported elsewhere)."""
    for name, (ok, constraint) in ATTRIBUTE_KINDS.get(op.name, ()):
        attr = op.properties_view.get(name)
        if attr is not None and not ok(attr_text(attr).strip()):
            return attr_constraint_failure(op, ctx, name, constraint)
    return None


verify_attribute_kinds.shape_only = True  # (reads the op's name and properties: ``registry.add_verifier``)
for _name in ATTRIBUTE_KINDS:
    add_verifier(_name, verify_attribute_kinds)

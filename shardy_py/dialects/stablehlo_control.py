"""StableHLO's collective and async ops (``StablehloOps.td``): no assembly format, so MLIR prints
them in generic form and their declaration lists their parts only.  (The region ops, gather/scatter
and convolution are declared in ``dialects.stablehlo_regions``.)
"""
from __future__ import annotations

from shardy_py.dialects.registry import AttrDef, declare


def _a(name: str, codec=None, optional: bool = False, default=None) -> AttrDef:
    return AttrDef(name, optional=optional, default=default, codec=codec)


# -- ops MLIR prints in generic form ------------------------------------------------------------
_GENERIC = {
    "all_reduce": (("operands*",), ("replica_groups", _a("channel_handle", optional=True),
                                    _a("use_global_device_ids", optional=True)), ("computation",)),
    "reduce_scatter": (("operand",), ("scatter_dimension", "replica_groups", _a("channel_handle", optional=True),
                                      _a("use_global_device_ids", optional=True)), ("computation",)),
    "all_gather": (("operands*",), ("all_gather_dim", "replica_groups", _a("channel_handle", optional=True),
                                    _a("use_global_device_ids", optional=True)), ()),
    "all_to_all": (("operands*",), ("split_dimension", "concat_dimension", "split_count", "replica_groups",
                                    _a("channel_handle", optional=True)), ()),
    "collective_broadcast": (("operands*",), ("replica_groups", _a("channel_handle", optional=True),
                                              _a("has_dynamic_root", optional=True)), ()),
    "collective_reduce": (("operands*",), ("replica_groups", _a("channel_handle", optional=True),
                                           _a("use_global_device_ids", optional=True),
                                           _a("has_dynamic_root", optional=True)), ("computation",)),
    "collective_permute": (("operand",), ("source_target_pairs", _a("channel_handle", optional=True)), ()),
    "async_start": (("operands*",), (), ("body",)),
    "async_done": (("operand",), (), ()),
}
for _name, (_ops, _attrs, _regions) in _GENERIC.items():
    declare(f"stablehlo.{_name}", operands=_ops, attributes=_attrs, results=("results*",), regions=_regions)


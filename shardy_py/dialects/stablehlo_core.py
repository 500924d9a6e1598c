"""StableHLO's host-transfer ops (``StablehloOps.td``: infeed, outfeed, send, recv), declared with
their parts only: their C++ declares no assembly format, so MLIR prints them in generic form.

These belong with the collectives; the region-less ops are in ``dialects.stablehlo_ops``.
"""
from __future__ import annotations

from shardy_py.dialects.registry import AttrDef, declare
from shardy_py.ir import attrs as A

_FALSE = A.OpaqueAttr("false")
_TRANSFER = (AttrDef("channel_handle"), AttrDef("is_host_transfer", default=_FALSE),
             AttrDef("source_target_pairs", optional=True))

for _name, _ops, _results, _attrs in (
        ("infeed", ("token",), ("results*",), (AttrDef("infeed_config", default=A.OpaqueAttr('""'), materialize=True),
                                               AttrDef("layout", optional=True))),
        ("outfeed", ("inputs*", "token"), ("result",),
         (AttrDef("outfeed_config", default=A.OpaqueAttr('""'), materialize=True),)),
        ("send", ("inputs*", "token"), ("result",), _TRANSFER),
        ("recv", ("token",), ("results*",), _TRANSFER),
):
    declare(f"stablehlo.{_name}", operands=_ops, results=_results, attributes=_attrs)

"""StableHLO's collective, asynchronous and communication ops (``StablehloOps.td``).

None of them has an assembly format: MLIR prints them in generic form
(``"stablehlo.all_gather"(%0) <{all_gather_dim = 1 : i64, replica_groups = ...}> : ...``), so
each declaration lists the op's operands, inherent attributes (ODS ``arguments``), results and
regions, which is all the generic form reads and writes.  An attribute written in the trailing
attribute dictionary of the source is inherent when it is listed here, and MLIR then prints it
in ``<{...}>``.

The attributes: ``replica_groups`` and ``source_target_pairs`` are ``I64ElementsAttr``
(``dense<[[0, 1]]> : tensor<1x2xi64>``), ``channel_handle`` is
``#stablehlo.channel_handle<handle = 1, type = 0>``, ``use_global_device_ids`` and
``has_dynamic_root`` are ``UnitAttr`` (written by name alone), ``is_host_transfer`` is a
``DefaultValuedOptionalAttr<BoolAttr, "false">`` and the feed configs are
``DefaultValuedStrAttr<StrAttr, "">`` (materialized: MLIR stores and prints ``""`` when absent).
"""
from __future__ import annotations

from shardy_py.dialects import stablehlo_verify_collectives as V
from shardy_py.dialects import stablehlo_verify_io as IO
from shardy_py.dialects.registry import AttrDef, declare
from shardy_py.ir import attrs as A

_IMPLICIT_RETURN = "SingleBlockImplicitTerminator"


def _req(name: str) -> AttrDef:
    """A required attribute (written whole)."""
    return AttrDef(name)


def _opt(name: str) -> AttrDef:
    """An ``OptionalAttr``."""
    return AttrDef(name, optional=True)


def _unit(name: str) -> AttrDef:
    """A ``UnitAttr``: present or absent."""
    return AttrDef(name, form="unit", optional=True)


def _str_config(name: str) -> AttrDef:
    """A ``DefaultValuedStrAttr<StrAttr, "">``: stored (and printed) as ``""`` when not written."""
    return AttrDef(name, default=A.OpaqueAttr('""'), materialize=True)


def _host_transfer() -> AttrDef:
    """``DefaultValuedOptionalAttr<BoolAttr, "false">:$is_host_transfer``."""
    return AttrDef("is_host_transfer", optional=True, default=A.OpaqueAttr("false"))


# -- collectives ---------------------------------------------------------------------------------
declare("stablehlo.all_gather", operands=("operands*",),
        attributes=(_req("all_gather_dim"), _req("replica_groups"), _opt("channel_handle"),
                    _unit("use_global_device_ids")),
        results=("results*",), verify=V.verify_all_gather)
declare("stablehlo.all_reduce", operands=("operands*",),
        attributes=(_req("replica_groups"), _opt("channel_handle"), _unit("use_global_device_ids")),
        results=("results*",), regions=("computation",), traits=(_IMPLICIT_RETURN,), verify=V.verify_all_reduce)
declare("stablehlo.reduce_scatter", operands=("operand",),
        attributes=(_req("scatter_dimension"), _req("replica_groups"), _opt("channel_handle"),
                    _unit("use_global_device_ids")),
        results=("result",), regions=("computation",), verify=V.verify_reduce_scatter)
declare("stablehlo.all_to_all", operands=("operands*",),
        attributes=(_req("split_dimension"), _req("concat_dimension"), _req("split_count"), _req("replica_groups"),
                    _opt("channel_handle")),
        results=("results*",), verify=V.verify_all_to_all)
declare("stablehlo.collective_broadcast", operands=("operands*",),
        attributes=(_req("replica_groups"), _opt("channel_handle"), _unit("has_dynamic_root")),
        results=("results*",), verify=V.verify_collective_broadcast)
declare("stablehlo.collective_reduce", operands=("operands*",),
        attributes=(_req("replica_groups"), _opt("channel_handle"), _unit("use_global_device_ids"),
                    _unit("has_dynamic_root")),
        results=("results*",), regions=("computation",), traits=(_IMPLICIT_RETURN,),
        verify=V.verify_collective_reduce)
declare("stablehlo.collective_permute", operands=("operand",),
        attributes=(_req("source_target_pairs"), _opt("channel_handle")), results=("result",),
        verify=V.verify_collective_permute)
declare("stablehlo.cross-replica-sum", operands=("operand",), attributes=(_req("replica_groups"),),
        results=("result",))

# -- asynchronous execution ----------------------------------------------------------------------
declare("stablehlo.async_start", operands=("operands*",), results=("result",), regions=("body",),
        traits=(_IMPLICIT_RETURN, "IsolatedFromAbove"), verify=IO.verify_async_start,
        verify_regions=IO.verify_async_start_regions)
declare("stablehlo.async_done", operands=("operand",), results=("result",), verify=IO.verify_async_done)

# -- host and peer communication -----------------------------------------------------------------
declare("stablehlo.infeed", operands=("token",), attributes=(_str_config("infeed_config"), _opt("layout")),
        results=("results*",), verify=IO.verify_infeed)
declare("stablehlo.outfeed", operands=("inputs*", "token"), attributes=(_str_config("outfeed_config"),),
        results=("result",), verify=IO.verify_token_result)
declare("stablehlo.send", operands=("inputs*", "token"),
        attributes=(_req("channel_handle"), _host_transfer(), _opt("source_target_pairs")), results=("result",),
        verify=IO.verify_send)
declare("stablehlo.recv", operands=("token",),
        attributes=(_req("channel_handle"), _host_transfer(), _opt("source_target_pairs")), results=("results*",),
        verify=IO.verify_recv)

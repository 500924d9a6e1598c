"""The module-level sharding metadata ``-sdy-convert-global-to-local`` writes (jaxlib 0.12; the test
files' commit has no such step): ``sdy.parameters_shardings`` and ``sdy.output_shardings`` on the
module, a ``#sdy.sharding_per_value`` with one sharding per argument (result) of the function named
``main``, its mesh written out (``mesh<[...]>``, not ``@mesh``), so that the shardings outlive the
meshes (``-sdy-drop-sharding-and-mesh`` removes them unless ``keep-module-sharding-metadata``).

A result without a sharding of its own takes the sharding of the value ``main`` returns for it; an
argument or result without either gets a replicated one on the module's first mesh that has axes
(``mesh<[]>`` when there is none).  A module without a ``main`` function is left as it is.
Found against jaxlib 0.12 (tests/test_passes_convert_global_to_local_metadata.py)."""
from __future__ import annotations

import attrs

from shardy_py.ir.attrs import DimensionShardingAttr, MeshAttr, TensorShardingAttr, TensorShardingPerValueAttr
from shardy_py.ir.ops import Operation
from shardy_py.ir.types import RankedTensorType
from shardy_py.passes.data_flow import set_attribute
from shardy_py.passes.export.resolve_single_device_sharding import global_mesh_of
from shardy_py.passes.func_calls import arg_sharding, result_sharding, sym_name
from shardy_py.passes.meshes import MeshTable
from shardy_py.passes.shardings import get_sharding

PARAMETERS = "sdy.parameters_shardings"
OUTPUTS = "sdy.output_shardings"


def _first_mesh_with_axes(module_op: Operation, table: MeshTable) -> MeshAttr:
    found = global_mesh_of(module_op)
    return table.lookup(found[0]) if found is not None else MeshAttr(())


def _written_out(sharding: TensorShardingAttr | None, value_type, table: MeshTable,
                 default_mesh: MeshAttr) -> TensorShardingAttr:
    """``sharding`` with its mesh itself, or a replicated sharding of ``value_type`` on ``default_mesh``."""
    if sharding is None:
        rank = len(value_type.shape) if isinstance(value_type, RankedTensorType) else 0
        return TensorShardingAttr(default_mesh, tuple(DimensionShardingAttr() for _ in range(rank)))
    if isinstance(sharding.mesh_or_ref, str):
        mesh = table.lookup(sharding.mesh_or_ref)
        if mesh is not None:
            return attrs.evolve(sharding, mesh_or_ref=mesh)
    return sharding


def _returned_values(func: Operation) -> list:
    if not func.regions or not func.regions[0].blocks or not func.regions[0].blocks[0].ops:
        return []
    last = func.regions[0].blocks[0].ops[-1]
    return list(last.operands) if last.name == "func.return" else []


def set_module_sharding_metadata(module_op: Operation) -> None:
    """Write ``sdy.parameters_shardings`` and ``sdy.output_shardings`` of ``main`` on ``module_op``."""
    block = module_op.regions[0].blocks[0]
    main = next((op for op in block.ops if op.name == "func.func" and sym_name(op) == "main"), None)
    if main is None:
        return
    table = MeshTable(block)
    default_mesh = _first_mesh_with_axes(module_op, table)
    props = main.properties
    arg_types = props.get("arg_types") or []
    params = [_written_out(arg_sharding(main, i), t, table, default_mesh) for i, t in enumerate(arg_types)]
    returned = _returned_values(main)
    outputs = [_written_out(result_sharding(main, i) or (get_sharding(returned[i]) if i < len(returned) else None),
                            t, table, default_mesh) for i, t in enumerate(props.get("result_types") or [])]
    set_attribute(module_op, PARAMETERS, TensorShardingPerValueAttr(tuple(params)))
    set_attribute(module_op, OUTPUTS, TensorShardingPerValueAttr(tuple(outputs)))

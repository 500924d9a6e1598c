"""Hypothesis strategies for Shardy (``sdy``) attributes and whole modules.

In the style of ``hypothesis.extra.numpy``::

    from hypothesis import given
    from shardy_py import strategies as sst

    @given(sst.modules())
    def test_clean(module):
        assert shardy_py.verify(module) == []

Attribute strategies return the frozen classes of ``shardy_py.ir.attrs``:

* ``meshes()`` -> ``MeshAttr`` (sub-divisible axis sizes, odd axis names, device ids, empty and
  maximal meshes);
* ``axis_refs(mesh)`` -> ``AxisRefAttr`` (full axes and valid sub-axes);
* ``dimension_shardings(mesh)`` -> ``DimensionShardingAttr``;
* ``tensor_shardings(mesh, rank)`` -> ``TensorShardingAttr`` valid for ``mesh`` (sub-axes, open
  dims, priorities, replicated and unreduced axes; ``reductions=REDUCTIONS`` for ``max``/``min``
  unreduced axes);
* ``op_sharding_rules(operand_ranks, result_ranks)`` -> ``OpShardingRuleAttr`` valid for tensors
  of those ranks;
* ``propagation_edges(mesh, n_operands, n_results)`` -> ``PropagationEdgesAttr`` valid for an op
  of that many operands and results on ``mesh``.

Module strategies *build MLIR text* (in the canonical form the C++ printer writes, SSA values
numbered as MLIR numbers them) and parse it with ``shardy_py.parse``:

* ``module_texts()`` -> ``str``: a small module valid by construction: meshes (symbols, quoted
  names, explicit device ids, empty and maximal meshes, twins with the same axes and another
  device order), a ``func.func`` with sharded arguments and results, stablehlo ops with
  ``sdy.sharding``/``sdy.sharding_rule``/``sdy.propagation_edges``, ``sdy.sharding_constraint``,
  ``sdy.reshard``, ``sdy.manual_computation``, ``sdy.named_computation`` (with
  ``sdy.block_arg_propagation_edges``/``sdy.result_propagation_edges``), every collective
  (all_gather, all_slice, all_reduce, reduce_scatter, all_to_all with one or more parameters,
  collective_permute across dims and meshes, replicated_to_unreduced, sharded_to_unreduced),
  ``sdy.propagation_barrier`` (with or without its own sharding), ``sdy.sharding_group``,
  ``sdy.data_flow_edge`` (with sharding and propagation edges) and ``sdy.constant`` (splat and
  element-wise literals, sharded or not).  Inputs may hold iota ``device_ids``, which both
  printers drop.  ``reductions=REDUCTIONS`` adds ``max``/``min`` unreduced axes, all-reduces and
  reduce-scatters, keeping every unreduced-axes transition valid (C68).
* ``modules()`` -> ``Module``: ``shardy_py.parse(text)`` of a drawn ``module_texts()``
  (``module.source`` is the text).
* ``propagation_module_texts()`` -> ``str``: a small module aimed at sharding propagation: a
  ``@main`` of StableHLO ops with real sharding rules (elementwise, dot_general, transpose, reshape,
  broadcast_in_dim, reduce, concatenate, slice, dynamic_slice), sharding constraints, reshards,
  sometimes a manual computation, a sharding group or a call; user shardings with open/closed dims,
  sub-axes, replicated axes and priorities on some values; nothing the C++ propagation cannot run.

Invalid strategies break exactly one rule, named by its id in the constraints catalogue
(``B9``, ``C38``, ...), with every rule checked before it holding:

* ``invalid_modules()`` -> ``InvalidModule(text, rule, line)``: a valid module with one line added;
  the first error of both the C++ Shardy and ``shardy_py`` is at 1-based ``line``.
* ``invalid_meshes()`` -> ``InvalidAttribute(text, rule, module, line)``: ``#sdy.mesh<...>``
  breaking B1-B6; ``module`` uses the attribute and both verifiers first fail at ``line``.
* ``invalid_tensor_shardings(mesh, rank)`` -> ``InvalidAttribute``: ``#sdy.sharding<...>`` on
  ``@m`` (``mesh_ref``) breaking one of B9-B23, B27 for a rank-``rank`` tensor
  (``applicable_sharding_rules(mesh, rank)`` says which ones ``mesh`` allows).
* ``invalid_op_sharding_rules(operand_ranks, result_ranks)`` -> ``InvalidAttribute``:
  ``#sdy.op_sharding_rule<...>`` breaking one of B34-B47 for an op with tensors of those ranks.

Everything valid is valid for the Shardy build in jaxlib 0.10.2 by default: unreduced axes,
all-reduces and reduce-scatters use ``sum`` only (pass ``reductions=REDUCTIONS`` for newer builds)
and factor sizes fit in int32.
"""
from shardy_py.strategies.attributes import (
    AXIS_NAMES,
    REDUCTIONS,
    axis_refs,
    dimension_shardings,
    meshes,
    op_sharding_rules,
    propagation_edges,
    tensor_shardings,
)
from shardy_py.strategies.invalid_attributes import (
    INVALID_MESH_RULES,
    INVALID_OP_SHARDING_RULE_RULES,
    InvalidAttribute,
    invalid_meshes,
    invalid_op_sharding_rules,
)
from shardy_py.strategies.invalid_modules import INVALID_RULES, InvalidModule, invalid_modules
from shardy_py.strategies.invalid_shardings import (
    INVALID_SHARDING_RULES,
    UNKNOWN_MESH,
    applicable_sharding_rules,
    invalid_tensor_shardings,
)
from shardy_py.strategies.modules import module_texts, modules
from shardy_py.strategies.propagation_modules import propagation_module_texts

__all__ = [
    "AXIS_NAMES", "INVALID_MESH_RULES", "INVALID_OP_SHARDING_RULE_RULES", "INVALID_RULES",
    "INVALID_SHARDING_RULES", "REDUCTIONS", "UNKNOWN_MESH", "InvalidAttribute", "InvalidModule",
    "applicable_sharding_rules", "axis_refs", "dimension_shardings", "invalid_meshes", "invalid_modules",
    "invalid_op_sharding_rules", "invalid_tensor_shardings", "meshes", "module_texts", "modules",
    "op_sharding_rules", "propagation_edges", "propagation_module_texts", "tensor_shardings",
]

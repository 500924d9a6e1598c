"""``shardy_py.partition``: from a module with sharding annotations to the program each device runs.

The steps, each a registered pass: Shardy's propagation pipeline (``shardy_py.propagate``), the
export pipeline with explicit collectives (``-sdy-export-pipeline=enable-insert-explicit-
collectives=true``: reshards become ``sdy.all_gather``/``all_slice``/``all_to_all``/... and reductions
``sdy.all_reduce``), ``-sdy-pad-for-divisibility``, ``-sdy-convert-global-to-local`` (local shapes,
stablehlo collectives with replica groups and channel ids) and, unless ``keep_shardings``,
``-sdy-drop-sharding-and-mesh``.
"""
from __future__ import annotations

from shardy_py.ir.module import Module

#: The passes after propagation, as ``opt`` flags take them (``{options}`` filled in by ``partition``).
PARTITION_STEPS = (
    ("sdy-export-pipeline", {"enable_insert_explicit_collectives": True}),
    ("sdy-pad-for-divisibility", {}),
    ("sdy-convert-global-to-local", {}),
    ("sdy-drop-sharding-and-mesh", {}),
)


def partition_passes(*, replica_count: int = 1, partition_count: int = 1, enable_rgv3: bool = False,
                     per_dim_all_gather: bool = False, combine_multi_dimension_reduce_scatter: bool = False,
                     keep_shardings: bool = False) -> list:
    """The pass objects ``partition`` runs after propagation."""
    from shardy_py.passes.registry import lookup

    convert = {"replica_count": replica_count, "partition_count": partition_count, "enable_rgv3": enable_rgv3,
               "per_dim_all_gather": per_dim_all_gather,
               "combine_multi_dimension_reduce_scatter": combine_multi_dimension_reduce_scatter}
    passes = []
    for name, options in PARTITION_STEPS:
        if name == "sdy-drop-sharding-and-mesh" and keep_shardings:
            continue
        if name == "sdy-convert-global-to-local":
            options = convert
        passes.append(lookup(name)(**options))
    return passes


def partition(module: Module, *, propagate: bool = True, replica_count: int = 1, partition_count: int = 1,
              enable_rgv3: bool = False, per_dim_all_gather: bool = False,
              combine_multi_dimension_reduce_scatter: bool = False, keep_shardings: bool = False) -> Module:
    """A copy of ``module`` partitioned: the per-device program (local shapes, stablehlo
    collectives).  ``propagate=False`` starts from a module already propagated.  The other options
    are ``sdy-convert-global-to-local``'s; ``keep_shardings`` keeps the shardings and meshes.
    Raises ``PassError`` (with located diagnostics) when a step fails; the input is unchanged."""
    from shardy_py.ir.clone import clone_module
    from shardy_py.passes.manager import PassManager

    if propagate:
        from shardy_py.passes.propagation.propagation_pipeline import propagate as run_propagation

        result = run_propagation(module)
    else:
        result = clone_module(module)
    PassManager(partition_passes(
        replica_count=replica_count, partition_count=partition_count, enable_rgv3=enable_rgv3,
        per_dim_all_gather=per_dim_all_gather,
        combine_multi_dimension_reduce_scatter=combine_multi_dimension_reduce_scatter,
        keep_shardings=keep_shardings)).run(result)
    return result

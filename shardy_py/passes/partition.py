"""``shardy_py.partition``: from a module with sharding annotations to the program each device runs.

The steps, each a registered pass: Shardy's propagation pipeline (``shardy_py.propagate``), the
passes of the export pipeline with explicit collectives (``-sdy-export-pipeline=enable-insert-
explicit-collectives=true``: reshards become ``sdy.all_gather``/``all_slice``/``all_to_all``/... and
reductions ``sdy.all_reduce``) with ``-sdy-resolve-permutation-factors`` before
``-sdy-reshard-to-collectives`` (where Shardy's partitioner pipeline runs it: jaxlib 0.12's export
pipeline with a ``partitioner-stage``, after the reshard canonicalizer, and
transforms/export/test/executable_partitioner_pipeline/run_sdy_interpreter_test.sh; a pad, slice,
reverse or reshape whose sharded dimensions need data of other devices gets a halo exchange or
reshards), ``-sdy-pad-for-divisibility``, ``-sdy-convert-global-to-local`` (local shapes,
stablehlo collectives with replica groups and channel ids) and, unless ``keep_shardings``,
``-sdy-drop-sharding-and-mesh``.
"""
from __future__ import annotations

from shardy_py.ir.module import Module

#: The passes after the export pipeline's, as ``opt`` flags take them (``{options}`` filled in by
#: ``partition``).
PARTITION_STEPS = (
    ("sdy-pad-for-divisibility", {}),
    ("sdy-convert-global-to-local", {}),
    ("sdy-drop-sharding-and-mesh", {}),
)
#: The export pipeline's options ``partition`` runs it with.
EXPORT_OPTIONS = {"enable_insert_explicit_collectives": True}
#: The pass of the export pipeline the partitioner runs ``sdy-resolve-permutation-factors`` before.
RESOLVE_BEFORE = "sdy-reshard-to-collectives"


def export_steps(*, replica_count: int = 1, partition_count: int = 1, enable_halo_exchange: bool = True
                 ) -> list[tuple[str, dict]]:
    """The export pipeline's steps with ``sdy-resolve-permutation-factors`` before
    ``sdy-reshard-to-collectives``: (pass name, options) in order."""
    from shardy_py.passes.export.export_pipeline import export_pipeline_passes

    steps = export_pipeline_passes(**EXPORT_OPTIONS)
    at = [name for name, _ in steps].index(RESOLVE_BEFORE)
    steps.insert(at, ("sdy-resolve-permutation-factors", {
        "enable_halo_exchange": enable_halo_exchange, "replica_count": replica_count,
        "partition_count": partition_count}))
    return steps


def partitioner_steps(*, replica_count: int = 1, partition_count: int = 1, enable_rgv3: bool = False,
                      per_dim_all_gather: bool = False, combine_multi_dimension_reduce_scatter: bool = False,
                      keep_shardings: bool = False) -> list[tuple[str, dict]]:
    """The steps after the export pipeline's: (pass name, options) in order."""
    convert = {"replica_count": replica_count, "partition_count": partition_count, "enable_rgv3": enable_rgv3,
               "per_dim_all_gather": per_dim_all_gather,
               "combine_multi_dimension_reduce_scatter": combine_multi_dimension_reduce_scatter}
    steps = []
    for name, options in PARTITION_STEPS:
        if name == "sdy-drop-sharding-and-mesh" and keep_shardings:
            continue
        steps.append((name, convert if name == "sdy-convert-global-to-local" else options))
    return steps


def partition_passes(*, replica_count: int = 1, partition_count: int = 1, enable_rgv3: bool = False,
                     per_dim_all_gather: bool = False, combine_multi_dimension_reduce_scatter: bool = False,
                     keep_shardings: bool = False, enable_halo_exchange: bool = True, after_export: bool = False
                     ) -> list:
    """The pass objects ``partition`` runs after propagation (only those after the export
    pipeline's with ``after_export``)."""
    from shardy_py.passes.export.export_pipeline import instantiate

    steps = [] if after_export else export_steps(replica_count=replica_count, partition_count=partition_count,
                                                 enable_halo_exchange=enable_halo_exchange)
    steps += partitioner_steps(replica_count=replica_count, partition_count=partition_count, enable_rgv3=enable_rgv3,
                               per_dim_all_gather=per_dim_all_gather,
                               combine_multi_dimension_reduce_scatter=combine_multi_dimension_reduce_scatter,
                               keep_shardings=keep_shardings)
    return instantiate("partition", steps)


def partition(module: Module, *, propagate: bool = True, replica_count: int = 1, partition_count: int = 1,
              enable_rgv3: bool = False, per_dim_all_gather: bool = False,
              combine_multi_dimension_reduce_scatter: bool = False, keep_shardings: bool = False,
              enable_halo_exchange: bool = True) -> Module:
    """A copy of ``module`` partitioned: the per-device program (local shapes, stablehlo
    collectives).  ``propagate=False`` starts from a module already propagated.
    ``enable_halo_exchange=False`` replicates permutation factors instead of exchanging halos
    (``sdy-resolve-permutation-factors``); ``replica_count`` and ``partition_count`` choose the
    device id read, and the rest are ``sdy-convert-global-to-local``'s options; ``keep_shardings``
    keeps the shardings and meshes.  Raises ``PassError`` (with located diagnostics) when a step
    fails; the input is unchanged."""
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
        keep_shardings=keep_shardings, enable_halo_exchange=enable_halo_exchange)).run(result)
    return result

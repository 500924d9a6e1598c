"""``shardy_py.partition``: from a module with sharding annotations to the program each device runs.

The steps, each a registered pass, are jaxlib 0.12's staged partitioner: Shardy's registered
``-sdy-propagation-pipeline`` (import, ``sdy-import-func-calls`` before the constraints are
applied, propagation, and its default export pipeline; ``shardy_py.propagate`` runs the same steps
and stops before the partitioner), then ``-sdy-export-pipeline=partitioner-stage=resolve-single-
device-sharding`` (full explicit reshards marking partial results unreduced, the reshard
canonicalizer, ``-sdy-resolve-permutation-factors`` (a pad, slice, reverse or reshape whose sharded
dimensions need data of other devices gets a halo exchange or reshards), ``-sdy-reshard-to-
collectives``, ``-sdy-optimize-collectives`` and the collective canonicalizer,
``-sdy-pad-for-divisibility``, ``-sdy-resolve-single-device-sharding``), then
``-sdy-convert-global-to-local`` (local shapes, stablehlo collectives with replica groups and channel
ids; ``enable-rgv3`` false unless asked, the test files' default, where the stage
``convert-global-to-local`` would set it) and, unless ``keep_shardings``,
``-sdy-drop-sharding-and-mesh``.  transforms/export/test/executable_partitioner_pipeline/
run_sdy_interpreter_test.sh runs the same partitioner passes.
"""
from __future__ import annotations

from shardy_py.ir.module import Module

#: The passes after the export pipeline's, as ``opt`` flags take them (``{options}`` filled in by
#: ``partition``).
PARTITION_STEPS = (
    ("sdy-convert-global-to-local", {}),
    ("sdy-drop-sharding-and-mesh", {}),
)
#: How far down jaxlib 0.12's staged partitioner the export pipeline runs for ``partition``.
STAGE = "resolve-single-device-sharding"
#: ``partition`` at its defaults as MLIR's textual pass pipeline, in two parts (what jaxlib's
#: PassManager runs for the comparisons in benchmarks/): propagation and the staged export
#: pipeline, then the partitioner's last passes.
PIPELINE_FRONT = f"sdy-propagation-pipeline,sdy-export-pipeline{{partitioner-stage={STAGE}}}"
PIPELINE_BACK = "sdy-convert-global-to-local{enable-rgv3=false},sdy-drop-sharding-and-mesh"


def export_steps(*, replica_count: int = 1, partition_count: int = 1, enable_halo_exchange: bool = True,
                 rng_bit_generator_unsafe: bool = True) -> list[tuple[str, dict]]:
    """The export pipeline's steps down to ``STAGE`` (``sdy-resolve-permutation-factors`` with
    ``enable_halo_exchange``): (pass name, options) in order."""
    from shardy_py.passes.export.export_pipeline import export_pipeline_passes

    steps = export_pipeline_passes(partitioner_stage=STAGE, replica_count=replica_count,
                                   partition_count=partition_count, rng_bit_generator_unsafe=rng_bit_generator_unsafe)
    return [(name, {**options, "enable_halo_exchange": enable_halo_exchange})
            if name == "sdy-resolve-permutation-factors" else (name, options) for name, options in steps]


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
                     keep_shardings: bool = False, enable_halo_exchange: bool = True, after_export: bool = False,
                     rng_bit_generator_unsafe: bool = True) -> list:
    """The pass objects ``partition`` runs after propagation (only those after the export
    pipeline's with ``after_export``)."""
    from shardy_py.passes.export.export_pipeline import instantiate

    steps = [] if after_export else export_steps(replica_count=replica_count, partition_count=partition_count,
                                                 enable_halo_exchange=enable_halo_exchange,
                                                 rng_bit_generator_unsafe=rng_bit_generator_unsafe)
    steps += partitioner_steps(replica_count=replica_count, partition_count=partition_count, enable_rgv3=enable_rgv3,
                               per_dim_all_gather=per_dim_all_gather,
                               combine_multi_dimension_reduce_scatter=combine_multi_dimension_reduce_scatter,
                               keep_shardings=keep_shardings)
    return instantiate("partition", steps)


def partition(module: Module, *, propagate: bool = True, replica_count: int = 1, partition_count: int = 1,
              enable_rgv3: bool = False, per_dim_all_gather: bool = False,
              combine_multi_dimension_reduce_scatter: bool = False, keep_shardings: bool = False,
              enable_halo_exchange: bool = True, rng_bit_generator_unsafe: bool = True) -> Module:
    """A copy of ``module`` partitioned: the per-device program (local shapes, stablehlo
    collectives).  ``propagate=False`` starts from a module already propagated.
    ``enable_halo_exchange=False`` replicates permutation factors instead of exchanging halos
    (``sdy-resolve-permutation-factors``); ``rng_bit_generator_unsafe=False`` generates a sharded
    ``stablehlo.rng_bit_generator`` output whole on every device and slices it (the unpartitioned
    numbers; by default, as jaxlib 0.12, each device draws its own piece, which the unpartitioned
    run does not give); ``replica_count`` and ``partition_count`` choose the
    device id read, and the rest are ``sdy-convert-global-to-local``'s options; ``keep_shardings``
    keeps the shardings and meshes.  Raises ``PassError`` (with located diagnostics) when a step
    fails; the input is unchanged."""
    from shardy_py.ir.clone import clone_module
    from shardy_py.passes.manager import PassManager
    from shardy_py.passes.registry import lookup

    result = clone_module(module)
    PassManager(([lookup("sdy-propagation-pipeline")()] if propagate else []) + partition_passes(
        replica_count=replica_count, partition_count=partition_count, enable_rgv3=enable_rgv3,
        per_dim_all_gather=per_dim_all_gather,
        combine_multi_dimension_reduce_scatter=combine_multi_dimension_reduce_scatter,
        keep_shardings=keep_shardings, enable_halo_exchange=enable_halo_exchange,
        rng_bit_generator_unsafe=rng_bit_generator_unsafe)).run(result)
    return result

"""``-sdy-export-pipeline`` (export/export_pipeline.cc, ``ExportOptions`` in export/passes.h): the
passes Shardy runs after propagation, in order.

Each step is looked up by name in the registry when the pipeline runs (the canonicalizer as
``canonicalize`` with ``enable_patterns``, passes/export/canonicalization.py), so a pass that lands
later (``sdy-reshard-to-collectives``, ``sdy-per-instruction-partitioning`` ...) is used as soon as
it is registered; until then the pipeline fails before running anything, with an error naming the
missing pass.  Module dumps (``dump-directory``) are not written: asking for them is an error.

The options and steps are jaxlib 0.12's (read off ``PassManager.parse`` of the pipeline, which expands
it, for every option; tests/test_passes_export_pipeline_jaxlib.py compares them): its canonicalizers
traverse bottom-up (``top-down=false``), ``sdy-optimize-collectives`` follows
``sdy-reshard-to-collectives``, and ``partitioner-stage`` runs the partitioner down to one of
``PARTITIONER_STAGES`` (resolving permutation factors, collectives, padding, single-device
shardings, global-to-local) with full explicit reshards that mark partial results unreduced."""
from __future__ import annotations

from collections.abc import Sequence

from shardy_py.passes.registry import Pass, PassOption, lookup, register

#: ``kReshardLabel`` / ``kCollectiveLabel`` (ir/constants.h): the debug labels of the reshard and
#: collective canonicalization patterns the pipeline's canonicalizer runs (and only those).
RESHARD_LABEL = "sdy-reshard"
COLLECTIVE_LABEL = "sdy-collective"
#: The name under which MLIR's canonicalizer is looked up; it runs only the patterns whose labels
#: its ``enable-patterns`` option lists.
CANONICALIZE = "canonicalize"

#: ``PartitionerStage`` (jaxlib 0.12's ``partitioner-stage`` values), in pipeline order: a stage runs
#: the passes of every stage before it.  ``unspecified`` keeps the partitioner the options choose.
UNSPECIFIED = "unspecified"
PARTITIONER_STAGES = (UNSPECIFIED, "resolve-permutation-factors", "reshard-to-collectives", "optimize-collectives",
                      "pad-for-divisibility", "resolve-single-device-sharding", "convert-global-to-local")

#: ``ExportOptions``, as ``sdy-export-pipeline`` registers them in jaxlib 0.12 (flag, type, default, help).
EXPORT_OPTIONS: tuple[PassOption, ...] = (
    PassOption("replica-count", int, 1, "Number of replicas (data parallelism)."),
    PassOption("partition-count", int, 1, "Number of partitions (model parallelism)."),
    PassOption("dump-directory", str, "", "Directory to dump intermediate MLIR modules."),
    PassOption("avoid-export-for-partitioning", bool, False,
               "Avoid exporting the module for partitioning so that the module will be compatible for "
               "another round of propagation."),
    PassOption("enable-insert-explicit-collectives", bool, False,
               "Enable inserting explicit collective ops during export."),
    PassOption("remove-all-gather-reduce-scatter-for-cmv1", bool, False,
               "Remove all-gather and reduce-scatter ops for CMV1."),
    PassOption("enable-per-instruction-partitioning", bool, False,
               "Enable selective per-instruction partitioning and sdy.manual_computation wrapping."),
    PassOption("per-instruction-partitioning-filter", str, "",
               "Filter string for selective partitioning (e.g. 'dot, pad', 'selectLow=0, selectHigh=10')."),
    PassOption("keep-sharding-rules", bool, False, "Keep sdy.sharding_rule attrs."),
    PassOption("dump-sharding-origins", bool, False, "Sink sdy.sharding_origins attr."),
    PassOption("dump-propagation-edges", bool, False, "Sink sdy.propagation_edges attr."),
    PassOption("avoid-reshards-on-calls", bool, False, "Avoid inserting explicit reshards/collectives for calls."),
    PassOption("update-non-divisible-input-output-shardings", bool, True,
               "Update axes with non-divisible input/output shardings."),
    PassOption("inline-meshes", bool, True, "Inline meshes in shardings."),
    PassOption("mark-partial-result-with-unreduced-axes", bool, False,
               "Whether to mark partial reduction results with unreduced axes."),
    PassOption("partitioner-stage", PARTITIONER_STAGES, UNSPECIFIED,
               "How far down the Shardy partitioner pipeline to run. Each stage also runs all earlier stages."),
    PassOption("rng-bit-generator-unsafe", bool, True,
               "Whether to allow unsafe partitioning of stablehlo.rng_bit_generator."),
)

Steps = list[tuple[str, dict]]


def export_option_defaults() -> dict:
    """Every ``ExportOptions`` field (underscored) at its default."""
    return {o.name.replace("-", "_"): o.default for o in EXPORT_OPTIONS}


def _reached(o: dict, stage: str) -> bool:
    """Whether the partitioner stage asked for runs ``stage``."""
    return PARTITIONER_STAGES.index(o["partitioner_stage"]) >= PARTITIONER_STAGES.index(stage)


def _counts(o: dict) -> dict:
    return {"replica_count": o["replica_count"], "partition_count": o["partition_count"]}


def _rng(o: dict) -> dict:
    """``rng-bit-generator-unsafe`` for the passes that take it, passed only away from their default
    (true), so a pass that does not declare the option yet still runs at its default."""
    return {} if o["rng_bit_generator_unsafe"] else {"rng_bit_generator_unsafe": False}


def _staged_partitioner(o: dict) -> Steps:
    """The passes after the reshard canonicalizer for a ``partitioner-stage`` (jaxlib 0.12)."""
    steps: Steps = [("sdy-resolve-permutation-factors", {"enable_halo_exchange": True, **_counts(o), **_rng(o)})]
    if _reached(o, "reshard-to-collectives"):
        steps.append(("sdy-reshard-to-collectives", {}))
    if _reached(o, "optimize-collectives"):
        steps += [("sdy-optimize-collectives", {}), (CANONICALIZE, _canonicalizer(COLLECTIVE_LABEL))]
    if _reached(o, "pad-for-divisibility"):
        steps.append(("sdy-pad-for-divisibility", {}))
    if _reached(o, "resolve-single-device-sharding"):
        steps.append(("sdy-resolve-single-device-sharding", _counts(o)))
    if _reached(o, "convert-global-to-local"):
        steps += [("sdy-convert-global-to-local", {"combine_multi_dimension_reduce_scatter": False, "enable_rgv3": True,
                                                    "per_dim_all_gather": False, **_counts(o)}),
                  ("sdy-drop-sharding-and-mesh", {"keep_module_sharding_metadata": True})]
    return steps


def _canonicalizer(label: str) -> dict:
    """The options of the pipeline's canonicalizer: ``createCanonicalizerPass(GreedyRewriteConfig(), {}, {label})``
    (a default ``GreedyRewriteConfig`` traverses bottom-up and simplifies regions aggressively)."""
    return {"enable_patterns": label, "top_down": False, "region_simplify": "aggressive"}


def _shardy_partitioner(o: dict) -> Steps:
    """``runShardyPartitioner`` as jaxlib 0.12 has it (the module dumps aside): with a
    ``partitioner-stage`` (or per-instruction partitioning, which needs the last stage) the full
    explicit reshards, marking partial results unreduced; otherwise the test files' partitioner, with
    ``sdy-optimize-collectives`` after ``sdy-reshard-to-collectives``."""
    staged = o["partitioner_stage"] != UNSPECIFIED
    steps: Steps = [
        ("sdy-verify-unreduced-axes", {}),
        ("sdy-insert-explicit-reshards", {"enable_full_version": o["enable_insert_explicit_collectives"]
                                          or o["enable_per_instruction_partitioning"] or staged,
                                          "mark_partial_result_with_unreduced_axes":
                                              o["mark_partial_result_with_unreduced_axes"] or staged}),
    ]
    if o["enable_per_instruction_partitioning"]:
        steps.append(("sdy-per-instruction-partitioning", {
            "filter": o["per_instruction_partitioning_filter"], "enable_halo_exchange": True, **_counts(o),
            **_rng(o)}))
    elif staged:
        steps.append((CANONICALIZE, _canonicalizer(RESHARD_LABEL)))
        steps += _staged_partitioner(o)
    elif o["enable_insert_explicit_collectives"]:
        steps += [(CANONICALIZE, _canonicalizer(RESHARD_LABEL)), ("sdy-reshard-to-collectives", {}),
                  ("sdy-optimize-collectives", {})]
    steps.append((CANONICALIZE, _canonicalizer(COLLECTIVE_LABEL)))
    if not staged and o["enable_insert_explicit_collectives"] and o["remove_all_gather_reduce_scatter_for_cmv1"]:
        steps.append(("sdy-remove-all-gather-reduce-scatter-for-cmv1", {}))
    return steps


def export_pipeline_passes(**options) -> Steps:
    """``addExportPipeline``: (pass name, options) in order for these ``ExportOptions`` (the
    others at their defaults; underscored or dashed names)."""
    o = export_option_defaults()
    for key, value in options.items():
        key = key.replace("-", "_")
        if key not in o:
            raise ValueError(f"sdy-export-pipeline has no option '{key.replace('_', '-')}'")
        o[key] = value
    if o["enable_per_instruction_partitioning"] and o["partitioner_stage"] not in (UNSPECIFIED, PARTITIONER_STAGES[-1]):
        raise ValueError("sdy-export-pipeline: enable-per-instruction-partitioning needs "
                         f"partitioner-stage={PARTITIONER_STAGES[-1]} (jaxlib 0.12 aborts on any other stage)")
    avoid = o["avoid_export_for_partitioning"]
    steps: Steps = [
        ("sdy-constant-or-scalar-merger", {}),
        ("sdy-sink-data-flow-edges", {"sink_debug_sharding_origins": o["dump_sharding_origins"],
                                      "sink_debug_propagation_edge_sharding": o["dump_propagation_edges"]}),
    ]
    if not avoid:
        steps += [("sdy-remove-sharding-groups", {}), ("sdy-sharding-constraint-to-reshard", {})]
    if o["update_non_divisible_input_output_shardings"]:
        steps += [("sdy-update-non-divisible-input-output-shardings", {}),
                  ("sdy-remove-sub-axes-in-input-output-shardings", {})]
    steps.append(("sdy-close-shardings", {}))
    if not avoid:
        steps += _shardy_partitioner(o)
    if o["dump_propagation_edges"] or o["dump_sharding_origins"]:
        steps.append(("sdy-remove-propagation-debug-info", {}))
    if not o["keep_sharding_rules"]:
        steps.append(("sdy-drop-sharding-rules", {}))
    if not avoid and o["inline_meshes"]:
        steps.append(("sdy-inline-meshes", {}))
    return steps


class MissingPipelinePass(LookupError):
    """A pipeline step whose pass is not registered (yet), or does not take an option it needs."""


def instantiate(pipeline: str, steps: Sequence[tuple[str, dict]]) -> list[Pass]:
    """The passes of ``steps``, looked up by name now; ``MissingPipelinePass`` names the first
    step that is not registered, or whose pass lacks an option the step sets."""
    out = []
    for name, options in steps:
        cls = lookup(name)
        if cls is None:
            raise MissingPipelinePass(f"{pipeline}: pass '{name}' is not implemented in shardy_py yet")
        known = {o.name.replace("-", "_") for o in cls.options}
        missing = [k for k in options if k not in known]
        if missing:
            raise MissingPipelinePass(f"{pipeline}: pass '{name}' has no option "
                                      f"'{missing[0].replace('_', '-')}' yet")
        out.append(cls(**options))
    return out


def run_pipeline(pipeline: str, steps: Sequence[tuple[str, dict]], module, ctx) -> None:
    """Run ``steps`` on ``module`` as one pipeline pass: each step verified after it ran (its own
    run), the whole marked preserved for the outer pass manager.  A missing pass is an error of
    the pipeline before any step runs."""
    from shardy_py.passes.manager import PassError, PassManager

    try:
        passes = instantiate(pipeline, steps)
    except MissingPipelinePass as e:
        ctx.error(None, str(e))
        raise PassError(str(e), ctx.diagnostics) from None
    PassManager(passes).run(module, ctx)
    ctx.mark_all_preserved()


def check_dump_directory(pipeline: str, directory: str, ctx) -> bool:
    """Module dumps (``createSaveModuleOpPass``) are not written by shardy_py: a dump directory is an
    error rather than silently ignored.  Whether the pipeline may go on."""
    if directory:
        ctx.error(None, f"{pipeline}: option 'dump-directory' is not supported by shardy_py (no module "
                        "dumps are written); leave it empty")
        return False
    return True


@register
class ExportPipelinePass(Pass):
    name = "sdy-export-pipeline"
    summary = ("Run a sequence of export passes needed as a post-processing step for Shardy "
               "propagation")
    options = EXPORT_OPTIONS

    def run(self, module, ctx) -> None:
        """Run the export passes for this pass's options in the C++ order."""
        if not check_dump_directory(self.name, self.option("dump-directory"), ctx):
            return
        try:
            steps = export_pipeline_passes(**self.values)
        except ValueError as e:
            ctx.error(None, str(e))
            return
        run_pipeline(self.name, steps, module, ctx)

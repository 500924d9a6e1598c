"""``-sdy-import-pipeline`` (import/import_pipeline.cc): the import passes Shardy runs before
propagation, in order.  Each is looked up by name in the registry and run as ``sdy_opt`` would run
it (the IR verified after each)."""
from __future__ import annotations

from shardy_py.passes.registry import Pass, PassOption, register


def import_pipeline_passes(dedup_functions_fully: bool = False,
                           enable_explicit_gather_scatter_batching: bool = False) -> list[tuple[str, dict]]:
    """``addImportPipeline``: (pass name, options) in order, for ``PropagationOptions`` with these
    two fields (the others at their defaults; the module dump step is a no-op without a dump
    directory)."""
    passes: list[tuple[str, dict]] = [
        ("symbol-dce", {}),
        ("sdy-lift-inlined-meshes", {}),
        ("sdy-remove-size-one-axes", {}),
        ("sdy-propagate-sharding-from-func-to-call", {}),
        ("sdy-constant-or-scalar-splitter", {}),
    ]
    if enable_explicit_gather_scatter_batching:
        passes.append(("sdy-explicit-gather-scatter-batching", {}))
    passes += [("symbol-dce", {}), ("sdy-manual-axes-cleanup", {}), ("sdy-add-data-flow-edges", {})]
    if dedup_functions_fully:
        passes += [
            ("sdy-apply-sharding-constraints",
             {"debug_sharding_origins": False, "debug_propagation_edge_sharding": False}),
            ("sdy-sharding-group-import", {}),
        ]
    return passes


@register
class ImportPipelinePass(Pass):
    name = "sdy-import-pipeline"
    summary = ("Run a sequence of import passes needed as a pre-processing step for Shardy "
               "propagation")
    options = (PassOption("dedup-functions-fully", bool, False, "Whether to dedup functions fully."),)

    def run(self, module, ctx) -> None:
        """Run the pipeline's passes in order; a pass not implemented yet is an error naming it."""
        from shardy_py.passes.export.export_pipeline import run_pipeline

        run_pipeline(self.name, import_pipeline_passes(self.option("dedup-functions-fully")), module, ctx)

"""Shardy's propagation pipeline (propagation/propagation_pipeline.cc) as far as propagation goes,
and ``propagate``, which runs it on a copy of a module.

``addPropagationPipeline`` is the import pipeline, the call-graph passes of the chosen compilation
mode, applying sharding constraints, user-priority propagation (sharding rules kept), the export of
named computations and func results, and the export pipeline.  ``propagate`` stops where the export
pipeline writes its ``after_propagation`` dump (edges sunk, constraints turned into reshards,
non-divisible input/output shardings updated, shardings closed), before the partitioner (so
without the reshards and collectives it inserts); it then drops the sharding rules unless asked to keep
them, as the export pipeline ends.  The debug attributes of ``debug_sharding_origins`` and
``debug_propagation_edge_sharding`` are kept (Shardy removes them after that dump): they are what
``shardy_py.explain`` reads.

A step whose pass shardy_py does not implement yet is left out and named in a
``PipelineStepSkipped`` warning.
"""
from __future__ import annotations

import warnings
import weakref

from shardy_py.ir.module import Module
from shardy_py.passes.import_.import_pipeline import import_pipeline_passes
from shardy_py.passes.registry import Pass, PassOption, lookup, register


class PipelineStepSkipped(UserWarning):
    """``propagate`` left out pipeline steps shardy_py does not implement yet."""


#: ``propagate``'s result -> the module it ran on (a copy) and the options it ran with, which
#: ``shardy_py.explain`` reads.
_ORIGINALS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_OPTIONS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def remember_original(propagated: Module, original: Module, options: dict | None = None) -> None:
    """Record ``original`` (the module before propagation) and the options ``propagate`` ran with, for
    ``explain`` on ``propagated``."""
    _ORIGINALS[propagated] = original
    if options is not None:
        _OPTIONS[propagated] = options


def original_of(propagated: Module) -> Module | None:
    """The module ``propagate`` ran on to give ``propagated`` (None for a module it did not give)."""
    return _ORIGINALS.get(propagated)


def options_of(propagated: Module) -> dict | None:
    """The options ``propagate`` ran with to give ``propagated`` (None when unknown)."""
    return _OPTIONS.get(propagated)


def propagation_pipeline_passes(*, keep_sharding_rules: bool = False, conservative_propagation: bool = False,
                                debug_sharding_origins: bool = False, debug_propagation_edge_sharding: bool = False,
                                dedup_functions_fully: bool = False,
                                enable_explicit_gather_scatter_batching: bool = False) -> list[tuple[str, dict]]:
    """(pass name, options) of ``addPropagationPipeline`` up to the ``after_propagation`` dump,
    then ``sdy-drop-sharding-rules`` unless ``keep_sharding_rules``."""
    debug = {"debug_sharding_origins": debug_sharding_origins,
             "debug_propagation_edge_sharding": debug_propagation_edge_sharding}
    steps = import_pipeline_passes(dedup_functions_fully, enable_explicit_gather_scatter_batching)
    if dedup_functions_fully:
        steps = [(n, dict(o, **debug) if n == "sdy-apply-sharding-constraints" else o) for n, o in steps]
    steps += call_graph_steps(dedup_functions_fully, debug)
    steps += [("sdy-pre-order-funcs", {}),
              ("sdy-user-priority-propagate", dict(debug, keep_sharding_rules=True,
                                                   conservative_propagation=conservative_propagation))]
    if dedup_functions_fully:
        steps += [("sdy-propagate-to-func-results", {}), ("sdy-sink-func-data-flow-edges", {})]
    else:
        steps += [("sdy-export-named-computations", {}), ("sdy-propagate-to-func-results", {})]
    steps += [("sdy-unflatten-call-graph", {}), ("symbol-dce", {}), ("sdy-insert-func-call-reshards", {})]
    steps += _export_steps_before_partitioner(debug_sharding_origins, debug_propagation_edge_sharding,
                                              dedup_functions_fully)
    if not keep_sharding_rules:
        steps.append(("sdy-drop-sharding-rules", {}))
    return steps


def call_graph_steps(dedup_functions_fully: bool, debug: dict | None = None) -> list[tuple[str, dict]]:
    """The steps ``addPropagationPipeline`` runs between the import pipeline and propagation: in the
    aggressive mode (``dedup_functions_fully``) the func data-flow edges; in the conservative mode the
    call graph flattened and the calls imported as named computations, then the sharding constraints
    applied (with ``debug``'s options) and the sharding groups imported (Shardy at SHARDY_COMMIT and
    jaxlib 0.12 alike: ``ApplyShardingConstraints`` after the inliner, b/517993355)."""
    if dedup_functions_fully:
        return [("sdy-add-func-data-flow-edges", {})]
    return [("sdy-flatten-call-graph", {}), ("symbol-dce", {}), ("sdy-import-func-calls", {}), ("symbol-dce", {}),
            ("sdy-apply-sharding-constraints", dict(debug or {})), ("sdy-sharding-group-import", {})]


def _export_steps_before_partitioner(debug_sharding_origins: bool, debug_propagation_edge_sharding: bool,
                                     dedup_functions_fully: bool) -> list[tuple[str, dict]]:
    """The steps of ``addExportPipeline`` (as ``populateExportOptions`` sets its options) up to its
    ``after_propagation`` dump, i.e. through ``sdy-close-shardings``: sinking the edges, constraints
    made reshards, and the non-divisible input/output shardings updated (their sub-axes removed)."""
    from shardy_py.passes.export.export_pipeline import export_pipeline_passes

    steps = export_pipeline_passes(dump_sharding_origins=debug_sharding_origins,
                                   dump_propagation_edges=debug_propagation_edge_sharding,
                                   avoid_reshards_on_calls=dedup_functions_fully)
    names = [name for name, _ in steps]
    return steps[:names.index("sdy-close-shardings") + 1]


def propagate(module: Module, *, keep_sharding_rules: bool = False, conservative_propagation: bool = False,
              debug_sharding_origins: bool = False, debug_propagation_edge_sharding: bool = False,
              dedup_functions_fully: bool = False, enable_explicit_gather_scatter_batching: bool = False,
              verify_each: bool = True, in_place: bool = False) -> Module:
    """A copy of ``module`` after Shardy's propagation pipeline (see the module docstring); the
    input is left unchanged.  Raises ``PassError`` when a pass fails.  ``verify_each=False`` does
    not verify the IR after every pass (as XLA runs Shardy in release builds) and ``in_place=True``
    propagates ``module`` itself (nothing is remembered for ``explain``): for callers that verified
    the input and run the pipeline many times on copies of their own (``shardy_py.suggest``).

    The options are ``PropagationOptions``' of the same names.  With ``debug_sharding_origins`` /
    ``debug_propagation_edge_sharding`` the copy carries ``sdy.sharding_origins`` /
    ``sdy.propagation_edges`` for ``shardy_py.explain``, which also reads the input's user
    shardings (their priorities) through the copy."""
    from shardy_py.ir.clone import clone_module
    from shardy_py.passes.manager import PassManager

    steps = propagation_pipeline_passes(
        keep_sharding_rules=keep_sharding_rules, conservative_propagation=conservative_propagation,
        debug_sharding_origins=debug_sharding_origins, debug_propagation_edge_sharding=debug_propagation_edge_sharding,
        dedup_functions_fully=dedup_functions_fully,
        enable_explicit_gather_scatter_batching=enable_explicit_gather_scatter_batching)
    passes, skipped = [], []
    for name, options in steps:
        cls = lookup(name)
        if cls is None:
            skipped.append(name)
            continue
        known = {o.name.replace("-", "_") for o in cls.options}
        passes.append(cls(**{k: v for k, v in options.items() if k in known}))
    if skipped:
        warnings.warn("shardy_py.propagate left out pipeline steps it does not implement yet: "
                      + ", ".join(dict.fromkeys(skipped)), PipelineStepSkipped, stacklevel=2)
    if in_place:
        PassManager(passes, verify_each=verify_each).run(module)
        return module
    original = clone_module(module)
    result = clone_module(module)
    PassManager(passes, verify_each=verify_each).run(result)
    remember_original(result, original, dict(
        keep_sharding_rules=keep_sharding_rules, conservative_propagation=conservative_propagation,
        debug_sharding_origins=debug_sharding_origins, debug_propagation_edge_sharding=debug_propagation_edge_sharding,
        dedup_functions_fully=dedup_functions_fully,
        enable_explicit_gather_scatter_batching=enable_explicit_gather_scatter_batching))
    return result


# -- the registered ``-sdy-propagation-pipeline`` ----------------------------------------------------

def full_propagation_pipeline_passes(*, dedup_functions_fully: bool = False,
                                     inline_meshes: bool = False) -> list[tuple[str, dict]]:
    """(pass name, options) of all of ``addPropagationPipeline`` for ``PropagationOptions`` at their
    defaults but these two (as ``sdy-propagation-pipeline`` registers it: ``inlineMeshes`` false):
    import, the call-graph passes, user-priority propagation, the export of named computations and
    func results, unflattening, the reshards on calls, and the whole export pipeline (partitioner
    included)."""
    from shardy_py.passes.export.export_pipeline import export_pipeline_passes

    steps = import_pipeline_passes(dedup_functions_fully) + call_graph_steps(dedup_functions_fully)
    steps += [("sdy-pre-order-funcs", {}), ("sdy-user-priority-propagate", {"keep_sharding_rules": True})]
    if dedup_functions_fully:
        steps += [("sdy-propagate-to-func-results", {}), ("sdy-sink-func-data-flow-edges", {})]
    else:
        steps += [("sdy-export-named-computations", {}), ("sdy-propagate-to-func-results", {})]
    steps += [("sdy-unflatten-call-graph", {}), ("symbol-dce", {}), ("sdy-insert-func-call-reshards", {})]
    # ``populateExportOptions``: avoidReshardsOnCalls is dedupFunctionsFully (the export pipeline
    # reads it nowhere); the other fields it copies are at their defaults here.
    return steps + export_pipeline_passes(avoid_reshards_on_calls=dedup_functions_fully, inline_meshes=inline_meshes)


@register
class PropagationPipelinePass(Pass):
    name = "sdy-propagation-pipeline"
    summary = ("Runs the SDY propagation pass, preceded by a sequence of import passes needed as a "
               "pre-processing step for propagation")
    options = (PassOption("dedup-functions-fully", bool, False, "Whether to dedup functions fully."),)

    def run(self, module, ctx) -> None:
        """Run every step in the C++ order; a step whose pass is not registered yet fails the
        pipeline, naming it, before anything runs."""
        from shardy_py.passes.export.export_pipeline import run_pipeline

        steps = full_propagation_pipeline_passes(dedup_functions_fully=self.option("dedup-functions-fully"))
        run_pipeline(self.name, steps, module, ctx)

"""The propagation pipeline in both modes, as jaxlib runs it (``CPP_PIPELINES``) and as shardy_py
runs it (``ours``), for ``benchmarks/differential_propagation.py`` and
``tests/test_propagation_pipeline_drawn.py``.

* ``default``: ``sdy-propagation-pipeline`` (registered in both);
* ``expanded``: the same pipeline spelt out pass by pass for jaxlib (``expanded_pipeline``), to
  check the spelling against the registered pipeline;
* ``conservative``: the spelt-out pipeline with ``PropagationOptions.conservativePropagation`` on
  (neither registration of ``sdy-propagation-pipeline`` exposes that option), i.e.
  ``sdy-user-priority-propagate{keep-sharding-rules=true conservative-propagation=true}``.
"""
from __future__ import annotations

FAILED = "<the pipeline failed>"


def expanded_pipeline(conservative: bool, without: tuple[str, ...] = ()) -> str:
    """``addPropagationPipeline`` (defaults, ``inlineMeshes`` false) in MLIR's textual pipeline
    syntax, from shardy_py's step list; func-anchored passes nested under ``func.func``, without the
    passes named in ``without``."""
    from shardy_py.passes.propagation.propagation_pipeline import full_propagation_pipeline_passes

    func_passes = {"sdy-constant-or-scalar-merger", "sdy-sink-data-flow-edges", "sdy-sharding-constraint-to-reshard",
                   "sdy-verify-unreduced-axes", "sdy-insert-explicit-reshards", "sdy-drop-sharding-rules"}
    items: list[tuple[bool, str]] = []
    for name, options in full_propagation_pipeline_passes():
        if name in without:
            continue
        opts = {k.replace("_", "-"): v for k, v in options.items()}
        if name == "sdy-user-priority-propagate" and conservative:
            opts["conservative-propagation"] = True
        shown = " ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in opts.items()
                         if not (isinstance(v, bool) and not v))
        items.append((name in func_passes, name + (f"{{{shown}}}" if shown else "")))
    parts: list[str] = []
    i = 0
    while i < len(items):
        if items[i][0]:
            j = i
            while j < len(items) and items[j][0]:
                j += 1
            parts.append("func.func(" + ",".join(t for _, t in items[i:j]) + ")")
            i = j
        else:
            parts.append(items[i][1])
            i += 1
    return "builtin.module(" + ",".join(parts) + ")"


def ours(text: str, conservative: bool, detail: bool = False, without: tuple[str, ...] = ()) -> str:
    """Our module after the pipeline (``FAILED`` when a pass fails; with ``detail``, followed by a
    newline and the error messages), without the passes named in ``without``."""
    import shardy_py
    from shardy_py.errors import ParseError
    from shardy_py.passes.export.export_pipeline import instantiate
    from shardy_py.passes.manager import PassError, PassManager
    from shardy_py.passes.propagation.propagation_pipeline import full_propagation_pipeline_passes

    try:
        module = shardy_py.parse(text)
    except ParseError as e:  # (drawn modules parse; an input given by hand may not)
        return FAILED + (f"\n{e}" if detail else "")
    try:
        if not conservative and not without:
            PassManager.parse(["-sdy-propagation-pipeline"]).run(module)
        else:
            steps = [(n, dict(o, conservative_propagation=conservative) if n == "sdy-user-priority-propagate" else o)
                     for n, o in full_propagation_pipeline_passes() if n not in without]
            PassManager(instantiate("sdy-propagation-pipeline", steps)).run(module)
    except PassError as e:
        return FAILED + ("\n" + "\n".join(map(str, e.diagnostics)) if detail else "")
    return str(module)


#: jaxlib textual pipelines by mode.
CPP_PIPELINES = {"default": "builtin.module(sdy-propagation-pipeline)", "expanded": expanded_pipeline(False),
                 "conservative": expanded_pipeline(True)}

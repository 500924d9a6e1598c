"""``shardy_py.cost``: what a sharding costs per device, explained, compared and suggested.

``cost(module, topology=None, **pipeline_options)`` propagates a module (unless it is propagated
already), inserts Shardy's explicit reshards and collectives in a copy, and reports per device the
bytes of every function argument and result, the peak of live bytes along each function, and every
collective with its bytes, estimated time on a topology and the decision that made it, with the
origins of the shardings involved.  ``compare`` puts two reports side by side (``variants`` makes a
module's variants from priorities or PartitionSpecs), ``suggest`` searches user priorities for the
cheapest result.

Modules, one job each: ``sizes`` (element and local sizes), ``pipeline`` (the passes), ``memory``
(liveness and peak), ``loops`` (trip counts), ``collectives`` (what each collective moves),
``topologies`` (presets and the alpha-beta formulas), ``reasons`` (why each collective is there),
``report`` (``CostReport``), ``schema`` (its JSON), ``render_text`` / ``render_html`` (its pictures),
``variants``, ``comparison`` (``compare``), ``search`` (``suggest``), ``render_compare`` /
``render_suggest``, ``command`` (``python -m shardy_py cost``).
"""
from __future__ import annotations

__all__ = ["cost", "CostReport", "Topology", "Link", "PRESETS", "topology", "TopologyError", "compare",
           "compare_variants", "Comparison", "suggest", "Suggestion", "Candidate", "apply_variant", "VariantError"]

# Everything loads on first use: ``import shardy_py`` imports this package (so that
# ``shardy_py.cost`` stays the function ``cost``, as ``shardy_py.verify`` does).
_LAZY = {
    "cost": "report", "CostReport": "report",
    "Topology": "topologies", "Link": "topologies", "PRESETS": "topologies", "topology": "topologies",
    "TopologyError": "topologies",
    "compare": "comparison", "compare_variants": "comparison", "Comparison": "comparison",
    "suggest": "search", "Suggestion": "search", "Candidate": "search",
    "apply_variant": "variants", "VariantError": "variants",
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"shardy_py.cost.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'shardy_py.cost' has no attribute {name!r}")

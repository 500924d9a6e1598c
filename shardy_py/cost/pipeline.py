"""The modules a cost is read from: the input propagated (``shardy_py.propagate``, unless it is
propagated already), then a copy through Shardy's explicit reshards and collectives (the
partitioner steps of ``-sdy-export-pipeline=enable-insert-explicit-collectives=true``:
``sdy-verify-unreduced-axes``, ``sdy-insert-explicit-reshards`` in its full version, the reshard
canonicalizations, ``sdy-reshard-to-collectives``, the collective canonicalizations), with the
map from the collectives module's values back to the propagated module's.

A module counts as propagated already when it has been through Shardy's passes (it holds an
``sdy.reshard``, a collective or an ``sdy.constant``, which only Shardy writes) and has no sharding
constraint, sharding group, data flow edge or open dimension left: what ``shardy_py.propagate``
and the export pipeline leave.  Any other module is propagated (``propagate=True``/``False``
decides instead).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import attrs

from shardy_py.ir.attrs import TensorShardingAttr, TensorShardingPerValueAttr
from shardy_py.ir.module import Module
from shardy_py.ir.ops import COLLECTIVE_OPS, Value

#: Ops only an unpropagated module has.
_BEFORE_PROPAGATION = ("sdy.sharding_constraint", "sdy.sharding_group", "sdy.data_flow_edge",
                       "sdy.func_data_flow_edge")


def partitioner_steps() -> list[tuple[str, dict]]:
    """(pass, options) of the export pipeline's partitioner with explicit collectives, as
    ``-sdy-export-pipeline=enable-insert-explicit-collectives=true`` runs them after
    ``sdy-close-shardings`` (sharding rules kept, meshes not inlined)."""
    from shardy_py.passes.export.export_pipeline import export_pipeline_passes

    steps = export_pipeline_passes(enable_insert_explicit_collectives=True, keep_sharding_rules=True,
                                   inline_meshes=False)
    names = [name for name, _ in steps]
    return steps[names.index("sdy-verify-unreduced-axes"):]


def _open(sharding) -> bool:
    return isinstance(sharding, TensorShardingAttr) and any(d.is_open for d in sharding.dim_shardings)


def is_propagated(module: Module) -> bool:
    """Whether ``module`` looks like the output of propagation (see the module docstring)."""
    annotated = False
    for op in module.walk():
        if op.name in _BEFORE_PROPAGATION:
            return False
        if op.name in ("sdy.reshard", "sdy.constant") or op.name in COLLECTIVE_OPS:
            annotated = True
        if op.name == "func.func":
            for block in op.regions[0].blocks[:1] if op.regions else ():
                if any(_open(a.attributes.get("sdy.sharding")) for a in block.arguments):
                    return False
            for entry in op.properties_view.get("res_attrs") or ():
                if isinstance(entry, dict) and _open(entry.get("sdy.sharding")):
                    return False
            continue
        per_value = op.attributes_view.get("sdy.sharding")
        if isinstance(per_value, TensorShardingPerValueAttr) and any(_open(s) for s in per_value.shardings):
            return False
        for key in ("sharding", "out_sharding", "in_shardings", "out_shardings"):
            value = op.properties_view.get(key)
            shardings = value.shardings if isinstance(value, TensorShardingPerValueAttr) else (value,)
            if any(_open(s) for s in shardings):
                return False
    return annotated


@dataclass
class Stages:
    """``propagated`` (the input's propagation, or the input itself when ``propagated_here`` is
    False) and ``exploded`` (its copy with explicit collectives); ``back`` maps a value of
    ``exploded`` to the value of ``propagated`` it was copied from (values the passes made have
    none)."""

    original: Module
    propagated: Module
    exploded: Module
    propagated_here: bool
    back: dict[Value, Value] = field(default_factory=dict)


def propagated_module(module: Module, *, propagate: bool | None = None, **pipeline_options) -> tuple[Module, bool]:
    """``(module propagated, whether propagation ran)``: ``shardy_py.propagate`` with
    ``pipeline_options`` (sharding rules kept for the partitioner), unless ``propagate`` is False or
    None and ``is_propagated``."""
    from shardy_py.passes.propagation.propagation_pipeline import propagate as run_propagation

    if propagate is None:
        propagate = not is_propagated(module)
    options = dict(pipeline_options)
    options.setdefault("keep_sharding_rules", True)
    return (run_propagation(module, **options), True) if propagate else (module, False)


def explode(original: Module, propagated: Module, propagated_here: bool, *, verify_each: bool = True) -> Stages:
    """``Stages`` of ``propagated``: a copy through the partitioner's passes, and the value map."""
    from shardy_py.ir.clone import clone
    from shardy_py.passes.export.export_pipeline import instantiate
    from shardy_py.passes.manager import PassManager

    mapping: dict[Value, Value] = {}
    copy = clone(propagated.op, mapping)
    exploded = attrs.evolve(propagated, op=copy, preamble=list(propagated.preamble),
                            postamble=list(propagated.postamble))
    PassManager(instantiate("cost", partitioner_steps()), verify_each=verify_each).run(exploded)
    back = {new: old for old, new in mapping.items()}
    return Stages(original, propagated, exploded, propagated_here, back)


def run_stages(module: Module, *, propagate: bool | None = None, **pipeline_options) -> Stages:
    """Propagate ``module`` (``propagate``: True, False, or None to decide with ``is_propagated``)
    with ``pipeline_options`` (``shardy_py.propagate``'s; ``verify_each=False`` verifies after no pass,
    here too), then insert the explicit collectives in a copy.  Raises ``PassError`` when a pass
    fails; the input is unchanged."""
    propagated, here = propagated_module(module, propagate=propagate, **pipeline_options)
    return explode(module, propagated, here, verify_each=pipeline_options.get("verify_each", True))

"""XLA round-trip format -> plain sdy: what XLA's ``xla-sdy-round-trip-import-*`` passes do.

- ``xla.sdy.meshes`` (module frontend attribute) becomes ``sdy.mesh`` ops, first in the module;
- ``xla.sdy.sharding`` on function arguments becomes ``sdy.sharding``; result shardings come
  from the ``@xla.sdy.FuncResultSharding`` custom calls in front of ``return`` (a call whose
  value is also used elsewhere stays as an ``sdy.sharding_constraint`` with open dimensions);
- ``@Sharding``, ``@xla.sdy.ShardingGroup`` and ``@xla.sdy.PropagationBarrier`` custom calls
  become ``sdy.sharding_constraint``, ``sdy.sharding_group`` and ``sdy.propagation_barrier``;
- ``xla.sdy.sharding_rule`` becomes ``sdy.sharding_rule``; ``mhlo.sharding`` is dropped (the
  strings are the truth), except on infeed/outfeed as XLA does;
- manual computations come back from their custom calls and body functions (``xla_manual``).

One deliberate difference: XLA drops ``xla.sdy.sharding`` on ordinary ops (HLO passes may copy
frontend attributes onto ops of another shape); here it becomes ``sdy.sharding`` when it has one
sharding per result of the result's rank, and is dropped otherwise.
"""
from __future__ import annotations

import re

import attrs

from shardy_py.interop.xla_ops import (
    BARRIER_TARGET,
    DIRECTION_KEY,
    FUNC_RESULT_TARGET,
    GROUP_ID_KEY,
    MESHES_KEY,
    PYTHON_CALLBACK_TARGETS,
    SHARDING_GROUP_TARGET,
    SHARDING_KEY,
    SHARDING_RULE_KEY,
    SHARDING_TARGET,
    TUPLE_ARGS_KEY,
    TUPLE_RESULTS_KEY,
    Sites,
    body_block,
    callee,
)
from shardy_py.interop.xla_strings import FRONTEND_ATTRS, HLO_SHARDING, AttrSite, dict_entries
from shardy_py.ir import attrs as A
from shardy_py.ir.builder import Builder
from shardy_py.ir.edit import replace_op
from shardy_py.ir.module import Module
from shardy_py.ir.ops import Operation
from shardy_py.ir.types import RankedTensorType

#: Ops whose ``xla.sdy.sharding`` XLA imports (besides ``@Sharding`` and callback custom calls).
SHARDED_OPS = ("stablehlo.send", "stablehlo.recv", "stablehlo.after_all")
#: Ops that keep their ``mhlo.sharding`` through the import.
KEEP_HLO_SHARDING = ("stablehlo.infeed", "stablehlo.outfeed")
#: Frontend attributes the custom calls that carry no other data are left with.
_CUSTOM_CALL_NOISE = ("backend_config", "has_side_effect", "api_version", "xla_shape")


class RoundTripImporter:
    """Converts one module (edited in place) from the round-trip format to plain sdy."""

    def __init__(self, module: Module):
        self.module = module
        self.sites = Sites(module)

    def run(self) -> None:
        self.import_meshes()
        funcs = list(self.sites.funcs())
        self.import_tuple_shardings(funcs)
        for func in funcs:
            self.import_func(func)
        from shardy_py.interop.xla_manual import import_manual_computations

        import_manual_computations(self.module, self.sites)
        for func in funcs:
            self.import_custom_calls(func)

    # -- module ------------------------------------------------------------------------
    def import_meshes(self) -> None:
        site = self.sites.module_site()
        entry = site.take(MESHES_KEY)
        if entry is None:
            return
        value, positions = site.string(entry, MESHES_KEY)
        try:
            meshes = dict_entries(value)
        except ValueError as e:
            raise site.error(f"{MESHES_KEY}: {e}", positions[min(e.offset, len(positions) - 1)]) from None
        existing = set(self.module.meshes)
        for index, (name, text, offset) in enumerate(meshes):
            mesh = site.parse_sdy_text(text, positions[offset:], f"{MESHES_KEY} entry '{name}'", A.MeshAttr)
            if name in existing:
                if self.module.meshes.get(name) == mesh:
                    continue  # JAX 0.12 writes both for a mesh its collectives name (replica_group_mesh_axes)
                raise site.error(f"{MESHES_KEY}: mesh @{name} is also defined by an sdy.mesh op, as another mesh "
                                 f"({self.module.meshes[name]})", positions[offset])
            existing.add(name)
            Builder(self.module.body, index).create("sdy.mesh", result_types=(),
                                                     properties={"sym_name": name, "mesh": mesh})

    def import_tuple_shardings(self, funcs: list[Operation]) -> None:
        main = next((f for f in funcs if f.properties.get("sym_name") == "main"), None)
        site = self.sites.module_site()
        for key, kind in ((TUPLE_ARGS_KEY, "arg"), (TUPLE_RESULTS_KEY, "res")):
            entry = site.take(key)
            if entry is None or main is None:
                continue
            per_value = site.sdy(entry, key, A.TensorShardingPerValueAttr)
            targets = main.properties[f"{kind}_attrs"]
            if len(per_value.shardings) != len(targets):
                raise site.error(f"{key} has {len(per_value.shardings)} shardings for the "
                                 f"{len(targets)} {'arguments' if kind == 'arg' else 'results'} of @main", entry[1])
            for attributes, sharding in zip(targets, per_value.shardings, strict=True):
                attributes["sdy.sharding"] = sharding

    # -- functions ---------------------------------------------------------------------
    def import_func(self, func: Operation) -> None:
        for i, attributes in enumerate(func.properties["arg_attrs"]):
            site = self.sites.arg(func, i)
            entry = site.take(SHARDING_KEY)
            if entry is not None:
                attributes["sdy.sharding"] = site.sdy(entry, SHARDING_KEY, A.TensorShardingAttr)
            attributes.pop(HLO_SHARDING, None)
        for attributes in func.properties["res_attrs"]:
            attributes.pop(HLO_SHARDING, None)
        if body_block(func) is None:
            return
        for op in list(func.walk())[1:]:
            self.import_op(op, func)

    def import_op(self, op: Operation, func: Operation) -> None:
        if op.name not in KEEP_HLO_SHARDING:
            op.attributes.pop(HLO_SHARDING, None)
        site = self.sites.op(op)
        if site.written is None:
            return
        rule = site.take(SHARDING_RULE_KEY)
        if rule is not None:
            op.attributes["sdy.sharding_rule"] = site.sdy(rule, SHARDING_RULE_KEY, A.OpShardingRuleAttr)
        entry = site.take(SHARDING_KEY)
        if entry is None:
            return
        per_value = site.sdy(entry, SHARDING_KEY, A.TensorShardingPerValueAttr)
        target = callee(op) if op.name == "stablehlo.custom_call" else None
        if target == FUNC_RESULT_TARGET:
            self.import_func_result(op, func, per_value, site)
        elif target == SHARDING_TARGET or target in PYTHON_CALLBACK_TARGETS or op.name in SHARDED_OPS:
            op.attributes["sdy.sharding"] = per_value
        elif _fits(per_value, op):
            op.attributes["sdy.sharding"] = per_value

    def import_func_result(self, op: Operation, func: Operation, per_value: A.TensorShardingPerValueAttr,
                           site: AttrSite) -> None:
        if len(op.results) != 1 or len(op.operands) != 1 or len(per_value.shardings) != 1:
            raise site.error("expected one operand, one result and one sharding")
        result, operand = op.results[0], op.operands[0]
        sharding = per_value.shardings[0]
        result_users = result.users
        returns = [u for u in result_users if u.name == "func.return" and u.parent_op is func]
        if not result_users and operand is not None:
            # A zero-element result: XLA replaced its uses by a constant; the operand's returns count.
            returns = [u for u in operand.users if u.name == "func.return" and u.parent_op is func]
        for ret in returns:
            for i, v in enumerate(ret.operands):
                if v is result or (not result_users and v is operand):
                    func.properties["res_attrs"][i]["sdy.sharding"] = sharding
        others = [u for u in result_users if u not in returns]
        if others:
            open_dims = attrs.evolve(sharding, dim_shardings=tuple(
                attrs.evolve(d, is_closed=False) for d in sharding.dim_shardings))
            replace_op(op, _sdy_op("sdy.sharding_constraint", op, {"sharding": open_dims}).results)
            return
        if result_users:
            result.replace_uses_with_if(operand, lambda use: use.op in returns)
        op.erase()

    # -- custom calls that stand for sdy ops -----------------------------------------------
    def import_custom_calls(self, func: Operation) -> None:
        if body_block(func) is None:
            return
        for op in list(func.walk()):
            target = callee(op) if op.name == "stablehlo.custom_call" else None
            if target == SHARDING_TARGET:
                self.import_sharding_constraint(op)
            elif target == SHARDING_GROUP_TARGET:
                self.import_sharding_group(op)
            elif target == BARRIER_TARGET:
                self.import_barrier(op)

    def import_sharding_constraint(self, op: Operation) -> None:
        site = self.sites.op(op)
        per_value = op.attributes.get("sdy.sharding")
        if not isinstance(per_value, A.TensorShardingPerValueAttr):
            return  # not one XLA wrote (XLA's import refuses it): kept as it is
        if len(op.operands) != 1 or len(op.results) != 1 or len(per_value.shardings) != 1:
            raise site.error("a @Sharding custom call has one operand, one result and one sharding")
        sharding = per_value.shardings[0]
        unspecified = unspecified_dims(op, self.sites)
        if unspecified:
            dims = list(sharding.dim_shardings)
            for d in unspecified:
                if d >= len(dims):
                    raise self.sites.op(op, "backend_config").error(
                        f"unspecified dimension {d} is out of range for a rank-{len(dims)} sharding", 0)
                dims[d] = attrs.evolve(dims[d], is_closed=False)
            sharding = attrs.evolve(sharding, dim_shardings=tuple(dims))
        new = _sdy_op("sdy.sharding_constraint", op, {"sharding": sharding})
        new.attributes = _leftover_attributes(op, consumed=("sdy.sharding",))
        replace_op(op, new.results)

    def import_sharding_group(self, op: Operation) -> None:
        site = self.sites.op(op)
        entry = site.take(GROUP_ID_KEY)
        if entry is None:
            raise site.error(f"expected the frontend attribute {GROUP_ID_KEY}")
        group = site.integer(entry, GROUP_ID_KEY)
        if any(r.uses for r in op.results):
            raise site.error("an xla.sdy.ShardingGroup custom call must have no uses")
        if len(op.operands) != 1:
            raise site.error("an xla.sdy.ShardingGroup custom call has one operand")
        Builder.before(op).create("sdy.sharding_group", op.operands, result_types=(),
                                  properties={"group_id": group}, attributes=_leftover_attributes(op),
                                  loc=op.loc).location_text = op.location_text
        op.erase()

    def import_barrier(self, op: Operation) -> None:
        site = self.sites.op(op)
        entry = site.take(DIRECTION_KEY)
        if entry is None:
            raise site.error(f"expected the frontend attribute {DIRECTION_KEY}")
        direction = site.integer(entry, DIRECTION_KEY)
        if not 0 <= direction < len(A.PROPAGATION_DIRECTIONS):
            raise site.error(f"{DIRECTION_KEY} {direction} is not a propagation direction (0 to 3)", entry[1])
        if len(op.operands) != 1 or len(op.results) != 1:
            raise site.error("an xla.sdy.PropagationBarrier custom call has one operand and one result")
        new = _sdy_op("sdy.propagation_barrier", op, {"allowed_direction": A.PROPAGATION_DIRECTIONS[direction]})
        new.attributes = _leftover_attributes(op)
        replace_op(op, new.results)


def unspecified_dims(op: Operation, sites: Sites) -> list[int]:
    """The ``unspecified_dims=[...]`` a ``@Sharding`` custom call lists in its backend_config."""
    site = sites.op(op, "backend_config")
    text = site.written
    if text is None or not text.startswith('"'):
        return []
    value, positions = site.string((text, 0), "backend_config")
    value = value.strip()
    if not value:
        return []
    m = re.fullmatch(r"unspecified_dims=\[\s*(\d+(?:\s*,\s*\d+)*)?\s*\]", value)
    if not m:
        raise site.error(f"backend_config: expected 'unspecified_dims=[...]', found {value!r}", positions[0])
    return [int(x) for x in m.group(1).split(",")] if m.group(1) else []


def _fits(per_value: A.TensorShardingPerValueAttr, op: Operation) -> bool:
    """One sharding per result, each of its result's rank (or none, as on a maximal mesh)."""
    if len(per_value.shardings) != len(op.results):
        return False
    return all(not isinstance(r.type, RankedTensorType) or len(s.dim_shardings) in (0, r.type.rank)
               for r, s in zip(op.results, per_value.shardings, strict=True))


def _sdy_op(name: str, like: Operation, properties: dict) -> Operation:
    """An sdy op taking the first operand of ``like``, made just before it (to replace it)."""
    new = Builder.before(like).create(name, like.operands[:1], properties=properties, loc=like.loc)
    new.location_text = like.location_text
    return new


def _leftover_attributes(op: Operation, consumed: tuple[str, ...] = ()) -> dict:
    """The discardable attributes of a custom call that say more than the custom call itself
    (``consumed`` ones went into the new op)."""
    return {k: v for k, v in op.attributes.items()
            if k not in _CUSTOM_CALL_NOISE and k not in consumed and k not in (HLO_SHARDING, FRONTEND_ATTRS)}

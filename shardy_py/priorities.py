"""Priorities as users mean them: "this sharding wins".

In Shardy a dimension's priority ``pN`` orders user shardings in propagation: a lower number is
propagated first, and a dimension without a priority counts as p0, the highest, which is also the
default. So ``p0`` on one argument changes nothing when the others have no priority either: to make
one sharding win, every other one must be demoted. ``give_precedence`` does exactly that: the chosen
sharding's sharded dimensions get p0, and every other user sharding of the module (function
arguments and results, ``sdy.sharding`` of ops, sharding constraints) moves one step down (none or
pN becomes p(N+1)), so their order among themselves is kept.
"""
from __future__ import annotations

from typing import NamedTuple

import attrs

from shardy_py.ir.attrs import TensorShardingAttr, TensorShardingPerValueAttr
from shardy_py.ir.module import Module
from shardy_py.ir.ops import Block, Operation, Value


class PrecedenceError(ValueError):
    """The value has no user sharding to give precedence to, or cannot be found."""


def _demoted(sharding: TensorShardingAttr) -> TensorShardingAttr:
    dims = tuple(attrs.evolve(d, priority=(d.priority or 0) + 1) if d.axes else d for d in sharding.dim_shardings)
    return attrs.evolve(sharding, dim_shardings=dims)


def _first(sharding: TensorShardingAttr) -> TensorShardingAttr:
    dims = tuple(attrs.evolve(d, priority=0) if d.axes else d for d in sharding.dim_shardings)
    return attrs.evolve(sharding, dim_shardings=dims)


def _sites(module: Module):
    """``(get, set)`` of every user sharding of the module, with a key naming its place."""
    for op in module.walk():
        if op.name == "func.func":
            for i, arg in enumerate(op.regions[0].blocks[0].arguments if op.regions and op.regions[0].blocks else ()):
                if isinstance(arg.attributes.get("sdy.sharding"), TensorShardingAttr):
                    yield (op, "arg_attrs", i), arg
            for i, entry in enumerate(op.properties_view.get("res_attrs") or ()):
                if isinstance(entry, dict) and isinstance(entry.get("sdy.sharding"), TensorShardingAttr):
                    yield (op, "res_attrs", i), entry
        elif op.name == "sdy.sharding_constraint":
            yield (op, "constraint", 0), None
        elif not op.is_sdy and isinstance(op.attributes_view.get("sdy.sharding"), TensorShardingPerValueAttr):
            yield (op, "sdy.sharding", 0), None


def _rewrite(site, mapping) -> None:
    (op, key, i), entry = site
    if key == "arg_attrs":
        entry.attributes["sdy.sharding"] = mapping(entry.attributes["sdy.sharding"], i)
    elif key == "res_attrs":
        entries = [dict(e) for e in op.properties[key]]
        entries[i]["sdy.sharding"] = mapping(entries[i]["sdy.sharding"], i)
        op.properties[key] = entries
    elif key == "constraint":
        op.properties["sharding"] = mapping(op.properties["sharding"], 0)
    else:
        per_value = op.attributes["sdy.sharding"]
        op.attributes["sdy.sharding"] = TensorShardingPerValueAttr(
            tuple(mapping(s, k) for k, s in enumerate(per_value.shardings)))


def _target(module: Module, value: Value | str, func: str | None) -> tuple[Operation, str, int]:
    """The place of ``value``'s user sharding: (op, kind, index) as ``_sites`` names them."""
    from shardy_py.ir.partition_spec import ShardingSpecError, _find_value, func_result

    try:
        result = func_result(module, value, func)
        if result is not None:
            return result[0], "res_attrs", result[1]
        target = _find_value(module, value, func)
    except ShardingSpecError as e:
        raise PrecedenceError(str(e)) from None
    owner = target.owner
    if isinstance(owner, Block):
        return owner.parent.parent, "arg_attrs", owner.arguments.index(target)
    if owner.name == "sdy.sharding_constraint":
        return owner, "constraint", 0
    return owner, "sdy.sharding", owner.results.index(target)


def give_precedence(module: Module, value: Value | str, *, func: str | None = None) -> TensorShardingAttr:
    """Make the user sharding of ``value`` win over every other one in propagation (in place).

    ``value`` is a ``Value`` (a func argument, an op result with an ``sdy.sharding``, a
    ``sdy.sharding_constraint`` result) or its name (``"%arg0"``, ``"%3"``), or ``"result N"`` for a
    function result (of ``func``; default ``@main``, or the only function).  Its sharded dimensions
    get ``p0``; every other user sharding's sharded dimensions move one priority down (see the module
    docstring).  Returns the sharding of ``value`` after the change; raises ``PrecedenceError`` when
    ``value`` has no user sharding.
    """
    op, kind, index = _target(module, value, func)
    if _sharding_at(op, kind, index) is None:
        raise PrecedenceError("the value has no user sharding to give precedence to (mark_sharding gives it one)")
    for site in list(_sites(module)):
        (site_op, site_kind, _), _entry = site
        if site_op is op and site_kind == kind:
            def mapping(s, k, site_index=site[0][2]):
                if (kind == "sdy.sharding" and k == index) or (kind != "sdy.sharding" and site_index == index):
                    return _first(s)
                return _demoted(s)
        else:
            def mapping(s, k):
                return _demoted(s)
        _rewrite(site, mapping)
    return _sharding_at(op, kind, index)


def _sharding_at(op: Operation, kind: str, index: int) -> TensorShardingAttr | None:
    if kind == "arg_attrs":
        return op.regions[0].blocks[0].arguments[index].attributes.get("sdy.sharding")
    if kind == "res_attrs":
        entries = op.properties_view.get(kind) or ()
        return entries[index].get("sdy.sharding") if index < len(entries) else None
    if kind == "constraint":
        return op.properties_view["sharding"]
    per_value = op.attributes_view.get("sdy.sharding")
    return per_value.shardings[index] if isinstance(per_value, TensorShardingPerValueAttr) else None


def _with_priority(sharding: TensorShardingAttr, priority: int | None) -> TensorShardingAttr:
    dims = tuple(attrs.evolve(d, priority=priority) if d.axes else d for d in sharding.dim_shardings)
    return attrs.evolve(sharding, dim_shardings=dims)


def set_priority(module: Module, value: Value | str, priority: int | None, *,
                 func: str | None = None) -> TensorShardingAttr:
    """Give every sharded dimension of ``value``'s user sharding priority ``priority`` (``None``
    removes it), in place; the other user shardings are left as they are.  ``value`` is named as
    for ``give_precedence``.  Returns the new sharding; raises ``PrecedenceError`` when ``value``
    has no user sharding or ``priority`` is negative."""
    if priority is not None and priority < 0:
        raise PrecedenceError(f"a priority is p0 or more, not p{priority}")
    op, kind, index = _target(module, value, func)
    if _sharding_at(op, kind, index) is None:
        raise PrecedenceError("the value has no user sharding to give a priority to (mark_sharding gives it one)")
    for site in _sites(module):
        (site_op, site_kind, site_index), _entry = site
        if site_op is op and site_kind == kind and (kind == "sdy.sharding" or site_index == index):
            def mapping(s, k):
                return _with_priority(s, priority) if kind != "sdy.sharding" or k == index else s
            _rewrite(site, mapping)
    return _sharding_at(op, kind, index)


class ShardingSite(NamedTuple):
    """A user sharding of a module: ``label`` says where it is; ``value`` and ``func`` name it for
    ``give_precedence`` / ``set_priority`` (``value`` is ``"result N"`` for a function result of
    ``func``)."""

    label: str
    value: Value | str
    func: str | None
    sharding: TensorShardingAttr


def user_shardings(module: Module) -> list[ShardingSite]:
    """Every user sharding of ``module`` with a sharded dimension, in module order."""
    out = []
    for (op, kind, index), _entry in _sites(module):
        func = None
        if kind == "arg_attrs":
            value = op.regions[0].blocks[0].arguments[index]
            label = f"argument {index} ({value.name}) of @{op.properties_view.get('sym_name')}"
        elif kind == "res_attrs":
            func = op.properties_view.get("sym_name")
            value = f"result {index}"
            label = f"result {index} of @{func}"
        elif kind == "constraint":
            value = op.results[0]
            label = f"the sharding constraint {value.name}" + (f" at line {op.loc.line}" if op.loc else "")
        else:
            for k, s in enumerate(op.attributes_view["sdy.sharding"].shardings):
                if any(d.axes for d in s.dim_shardings):
                    out.append(ShardingSite(f"result {k} ({op.results[k].name}) of {op.name}" + (
                        f" at line {op.loc.line}" if op.loc else ""), op.results[k], None, s))
            continue
        sharding = _sharding_at(op, kind, index)
        if sharding is not None and any(d.axes for d in sharding.dim_shardings):
            out.append(ShardingSite(label, value, func, sharding))
    return out

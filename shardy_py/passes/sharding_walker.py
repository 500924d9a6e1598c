"""``transformShardings`` (``transforms/common/sharding_walker.cc``): apply a function to every
sharding in an op tree (function arguments and results, manual and named computations, data-flow
ops, and every op's results) and store back those it changes."""
from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, Union

from shardy_py.ir.attrs import TensorShardingAttr, TensorShardingPerValueAttr
from shardy_py.ir.ops import Operation, Value
from shardy_py.passes import data_flow as df
from shardy_py.passes.func_calls import result_sharding
from shardy_py.passes.shardings import get_sharding, set_sharding

Transform = Callable[[TensorShardingAttr], TensorShardingAttr]


def _transform_func(func: Operation, fn: Transform) -> None:
    props = func.properties
    if func.regions and func.regions[0].blocks:
        for arg in func.regions[0].blocks[0].arguments:
            s = arg.attributes.get(df.SHARDING)
            if isinstance(s, TensorShardingAttr) and (new := fn(s)) != s:
                arg.attributes = {**arg.attributes, df.SHARDING: new}
    else:
        props["arg_attrs"] = [_transform_dict(d, fn) for d in props.get("arg_attrs") or []]
    props["res_attrs"] = [_transform_dict(d, fn) for d in props.get("res_attrs") or []]


def _transform_dict(d: dict, fn: Transform) -> dict:
    s = d.get(df.SHARDING) if d else None
    if isinstance(s, TensorShardingAttr) and (new := fn(s)) != s:
        return {**d, df.SHARDING: new}
    return d


def _per_value(attr, fn: Transform):
    if isinstance(attr, TensorShardingPerValueAttr) and attr.shardings:
        return TensorShardingPerValueAttr(tuple(fn(s) for s in attr.shardings))
    return attr


def transform_shardings(root: Operation, fn: Transform) -> bool:
    """Replace each sharding ``s`` under ``root`` (pre-order) by ``fn(s)``; whether any changed."""
    changed = False

    def tracked(s: TensorShardingAttr) -> TensorShardingAttr:
        nonlocal changed
        new = fn(s)
        if new != s:
            changed = True
        return new

    _walk(root, tracked)
    return changed


def _walk(root: Operation, fn: Transform) -> None:
    for op in root.walk():
        if op.name == "func.func":
            _transform_func(op, fn)
        elif op.name == "sdy.manual_computation":
            for key in ("in_shardings", "out_shardings"):
                if key in op.properties:
                    df.set_property(op, key, _per_value(op.properties[key], fn))
        elif df.is_data_flow_op(op):
            shardings = df.block_arg_owner_shardings(op)
            if shardings:
                df.set_block_arg_owner_shardings(op, [fn(s) for s in shardings])
            shardings = df.result_owner_shardings(op)
            if shardings:
                df.set_result_owner_shardings(op, [fn(s) for s in shardings])
        elif len(op.results) == 1:
            s = get_sharding(op.results[0])
            if s is not None and (new := fn(s)) != s:
                set_sharding(op.results[0], new)
        else:
            attr = op.attributes_view.get(df.SHARDING)
            if isinstance(attr, TensorShardingPerValueAttr) and attr.shardings:
                df.set_attribute(op, df.SHARDING, _per_value(attr, fn))


class FuncResult(NamedTuple):
    """Result ``index`` of function ``func`` (its sharding is in the result attributes)."""

    func: Operation
    index: int


#: What a sharding belongs to: a value, a function result, or None for the sharding of an op
#: without results (a maximal sharding).
Target = Union[Value, FuncResult, None]
TransformForTensor = Callable[[TensorShardingAttr, Target], TensorShardingAttr]


def target_sharding(target: Target) -> TensorShardingAttr | None:
    """The sharding of a value (``getSharding``) or of a function result."""
    if isinstance(target, FuncResult):
        return result_sharding(target.func, target.index)
    return get_sharding(target) if target is not None else None


def transform_sharding(target: Target, fn: Transform) -> None:
    """``transformSharding``: replace ``target``'s sharding, if it has one, by ``fn`` of it."""
    old = target_sharding(target)
    if old is None:
        return
    new = fn(old)
    if new == old:
        return
    if isinstance(target, FuncResult):
        _set_func_result_sharding(target.func, target.index, new)
    else:
        set_sharding(target, new)


def _set_func_result_sharding(func: Operation, index: int, sharding: TensorShardingAttr) -> None:
    count = len(func.properties.get("result_types") or [])
    res_attrs = list(func.properties.get("res_attrs") or [])
    res_attrs += [{} for _ in range(count - len(res_attrs))]
    res_attrs[index] = dict(sorted({**(res_attrs[index] or {}), df.SHARDING: sharding}.items()))
    func.properties["res_attrs"] = res_attrs


def _each(shardings, values, fn: TransformForTensor):
    values = list(values) or [None]
    return [fn(s, v) for s, v in zip(shardings, values, strict=False)]


def transform_shardings_for_tensors(root: Operation, fn: TransformForTensor) -> None:
    """``transformShardings`` with a callback told whose sharding it gets: pre-order over ``root``,
    function arguments then results, manual computation in/out shardings (body arguments /
    results), other data-flow ops' edge owners, a single-result op's result (``getSharding``),
    and the ``sdy.sharding`` of other ops."""
    for op in root.walk():
        if op.name == "func.func":
            if op.regions and op.regions[0].blocks:
                for arg in op.regions[0].blocks[0].arguments:
                    s = get_sharding(arg)
                    if s is not None and (new := fn(s, arg)) != s:
                        arg.attributes = dict(sorted({**arg.attributes, df.SHARDING: new}.items()))
            for i in range(len(op.properties.get("result_types") or [])):
                s = result_sharding(op, i)
                if s is not None and (new := fn(s, FuncResult(op, i))) != s:
                    _set_func_result_sharding(op, i, new)
        elif op.name == "sdy.manual_computation":
            for key, values in (("in_shardings", op.regions[0].blocks[0].arguments), ("out_shardings", op.results)):
                attr = op.properties.get(key)
                if isinstance(attr, TensorShardingPerValueAttr) and attr.shardings:
                    df.set_property(op, key, TensorShardingPerValueAttr(tuple(_each(attr.shardings, values, fn))))
        elif df.is_data_flow_op(op):
            shardings = df.block_arg_owner_shardings(op)
            if shardings:
                df.set_block_arg_owner_shardings(op, _each(shardings, df.block_arg_owners(op), fn))
            shardings = df.result_owner_shardings(op)
            if shardings:
                df.set_result_owner_shardings(op, _each(shardings, df.result_owners(op), fn))
        elif len(op.results) == 1:
            s = get_sharding(op.results[0])
            if s is not None and (new := fn(s, op.results[0])) != s:
                set_sharding(op.results[0], new)
        else:
            attr = op.attributes_view.get(df.SHARDING)
            if isinstance(attr, TensorShardingPerValueAttr) and attr.shardings:
                df.set_attribute(op, df.SHARDING, TensorShardingPerValueAttr(tuple(_each(attr.shardings, op.results,
                                                                                         fn))))

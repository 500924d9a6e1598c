"""``transformShardings`` (``transforms/common/sharding_walker.cc``): apply a function to every
sharding in an op tree (function arguments and results, manual and named computations, data-flow
ops, and every op's results) and store back those it changes."""
from __future__ import annotations

from collections.abc import Callable

from shardy_py.ir.attrs import TensorShardingAttr, TensorShardingPerValueAttr
from shardy_py.ir.ops import Operation
from shardy_py.passes import data_flow as df
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
            attr = op.attributes.get(df.SHARDING)
            if isinstance(attr, TensorShardingPerValueAttr) and attr.shardings:
                df.set_attribute(op, df.SHARDING, _per_value(attr, fn))

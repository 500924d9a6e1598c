"""Reading and writing the sharding of a value as Shardy's ``getSharding`` / ``setSharding`` do
(``ir/utils.cc``), data-flow edges and data-flow ops included."""
from __future__ import annotations

import weakref

from shardy_py.ir.attrs import DimensionShardingAttr, TensorShardingAttr, TensorShardingPerValueAttr
from shardy_py.ir.ops import COLLECTIVE_OPS, Block, Operation, Value
from shardy_py.passes import data_flow as df
from shardy_py.passes.data_flow import SHARDING

_SHARDING_PROPERTY_OPS = ("sdy.data_flow_edge", "sdy.sharding_constraint", "sdy.reshard")


def fully_open_like(type_, mesh_or_ref) -> TensorShardingAttr:
    """A fully open sharding of ``type_``'s rank on ``mesh_or_ref``."""
    shape = getattr(type_, "shape", None)
    rank = len(shape) if shape is not None else 0
    return TensorShardingAttr(mesh_or_ref, tuple(DimensionShardingAttr((), is_closed=False) for _ in range(rank)))


def shardable_value(value: Value) -> Value | None:
    """``getShardableValue``: where ``value``'s sharding lives (its data-flow edge's result, a while
    argument's result, an async_start operand); None for an argument that has no such place."""
    edge = df.lookup_data_flow_edge(value)
    if edge is not None:
        return edge.results[0]
    if not isinstance(value.owner, Block):
        return value
    op = df.owning_op(value)
    if op is None:
        return None
    if op.name == "func.func":
        return value
    if df.is_data_flow_op(op):
        return df.edge_owner_from_target(op, value)
    if op.name == "stablehlo.async_start":
        return op.operands[value.index]
    return None


#: Ops whose results keep their sharding somewhere other than their ``sdy.sharding`` attribute.
_SPECIAL_OWNERS = frozenset(_SHARDING_PROPERTY_OPS) | frozenset(COLLECTIVE_OPS) | df.DATA_FLOW_OPS


def get_sharding(value: Value) -> TensorShardingAttr | None:
    """``getSharding``."""
    owner = value.owner
    if type(owner) is Operation and owner.name not in _SPECIAL_OWNERS:
        # The common case, a result of an ordinary op: its entry of the op's ``sdy.sharding``.
        per_value = owner.attributes_view.get(SHARDING)
        return per_value.shardings[value.index] if isinstance(per_value, TensorShardingPerValueAttr) else None
    value = shardable_value(value)
    if value is None:
        return None
    op = df.owning_op(value)
    if op is None:
        return None
    if op.name == "func.func":
        s = value.attributes.get(SHARDING)
        return s if isinstance(s, TensorShardingAttr) else None
    if op.name in _SHARDING_PROPERTY_OPS:
        return op.properties_view.get("sharding")
    if op.name in COLLECTIVE_OPS:
        return op.properties_view.get("out_sharding")
    if df.is_data_flow_op(op):
        if isinstance(value.owner, Block):
            shardings = df.block_arg_owner_shardings(op)
        else:
            shardings = df.result_owner_shardings(op)
        return shardings[value.index] if shardings else None
    per_value = op.attributes_view.get(SHARDING)  # read only: an op sharing its attributes keeps them shared
    if isinstance(per_value, TensorShardingPerValueAttr):
        return per_value.shardings[value.index]
    return None


def _open_with_sharding_at(values: list[Value], index: int, sharding: TensorShardingAttr) -> list:
    return [sharding if i == index else fully_open_like(v.type, sharding.mesh_or_ref) for i, v in enumerate(values)]


def set_func_arg_attributes(func: Operation, arg: Value, attributes: dict) -> None:
    """Give function argument ``arg`` a new attribute dictionary, which stays the function's
    ``arg_attrs`` entry for it too (the two are one dict, as the parser and ``clone`` make them)."""
    arg.attributes = attributes
    arg_attrs = func.properties.get("arg_attrs")
    if isinstance(arg_attrs, list) and arg.index < len(arg_attrs):
        arg_attrs[arg.index] = attributes


def set_sharding(value: Value, sharding: TensorShardingAttr) -> None:
    """``setSharding``."""
    value = shardable_value(value)
    if value is None:
        return
    op = df.owning_op(value)
    if op.name == "func.func":
        set_func_arg_attributes(op, value, {**value.attributes, SHARDING: sharding})
    elif op.name in _SHARDING_PROPERTY_OPS:
        df.set_property(op, "sharding", sharding)
    elif op.name in COLLECTIVE_OPS:
        df.set_property(op, "out_sharding", sharding)
    elif df.is_data_flow_op(op):
        if isinstance(value.owner, Block):
            shardings = df.block_arg_owner_shardings(op)
            owners = df.block_arg_owners(op)
            setter = df.set_block_arg_owner_shardings
        else:
            shardings = df.result_owner_shardings(op)
            owners = df.result_owners(op)
            setter = df.set_result_owner_shardings
        if shardings:
            shardings = list(shardings)
            shardings[value.index] = sharding
        else:
            shardings = _open_with_sharding_at(owners, value.index, sharding)
        setter(op, shardings)
    else:
        replace_sharding_at_index(op, value.index, sharding)


def replace_sharding_at_index(op: Operation, index: int, sharding: TensorShardingAttr) -> None:
    """``replaceShardingAtIndex``: set result ``index``'s sharding in the op's ``sdy.sharding``
    (the others fully open when it had none)."""
    per_value = op.attributes.get(SHARDING)
    if isinstance(per_value, TensorShardingPerValueAttr):
        shardings = list(per_value.shardings)
        shardings[index] = sharding
    else:
        shardings = _open_with_sharding_at(op.results, index, sharding)
    df.set_attribute(op, SHARDING, sharding_per_value(tuple(shardings)))


#: The ``TensorShardingPerValueAttr`` in use for each tuple of shardings (while one is in use).
_PER_VALUE: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


def sharding_per_value(shardings: tuple[TensorShardingAttr, ...]) -> TensorShardingPerValueAttr:
    """``TensorShardingPerValueAttr(shardings)``, one object for equal tuples (as MLIR uniques
    attributes): the ops propagation gives the same shardings share it, and the verifier's caches
    then find it by identity instead of comparing it field by field."""
    try:
        return _PER_VALUE[shardings]
    except KeyError:
        attr = _PER_VALUE[shardings] = TensorShardingPerValueAttr(shardings)
        return attr

"""``-sdy-update-non-divisible-input-output-shardings``
(export/update_non_divisible_input_output_shardings.cc): the shardings of function arguments and
results, of ``func.call`` results and of manual computations' edge owners become, dimension by
dimension, the largest prefix of themselves that shards the dimension evenly (the last axis kept
may become a sub-axis)."""
from __future__ import annotations

import math

import attrs

from shardy_py.ir.attrs import AxisRefAttr, SubAxisInfoAttr, TensorShardingAttr
from shardy_py.passes import data_flow as df
from shardy_py.passes.func_calls import result_sharding
from shardy_py.passes.func_shardings import set_result_sharding, sharded_size
from shardy_py.passes.meshes import MeshTable
from shardy_py.passes.registry import Pass, register
from shardy_py.passes.shardings import get_sharding, set_sharding


class NotEvenlySharded(AssertionError):
    """The prefix found still does not divide the dimension (the C++ calls this unreachable)."""


def evenly_sharded(sharding: TensorShardingAttr, shape, table: MeshTable) -> TensorShardingAttr:
    """``getEvenlySharded``: per dimension, the sharding itself when its sharded size divides the
    dimension; else its axes while each divides what is left of the dimension, the first that
    does not cut to the largest sub-axis that does (none when they share no factor)."""
    mesh = table.mesh_of(sharding)
    if mesh is None:
        raise ValueError(f"unknown mesh {sharding.mesh_or_ref!r}")
    dims = []
    for dim, size in zip(sharding.dim_shardings, shape, strict=False):  # a maximal sharding has no dims
        if size % sharded_size(dim.axes, mesh) == 0:
            dims.append(dim)
            continue
        remaining, kept, total = size, [], 1
        for axis in dim.axes:
            axis_size = axis.size(mesh)
            gcd = math.gcd(axis_size, remaining)
            if gcd == 1:
                break
            total *= gcd
            if gcd == axis_size:
                kept.append(axis)
                remaining //= gcd
                continue
            kept.append(AxisRefAttr(axis.name, SubAxisInfoAttr(axis.pre_size, gcd)))
            break
        if size % total:
            raise NotEvenlySharded(f"no even prefix of {sharding} for a dimension of size {size}")
        dims.append(attrs.evolve(dim, axes=tuple(kept), priority=None))
    return attrs.evolve(sharding, dim_shardings=tuple(dims))


def _static_shape(type_):
    """The shape of a static-shaped tensor type (``dynCastStaticShapedType``), else None."""
    return getattr(type_, "shape", None) if df.is_static_shaped(type_) else None


@register
class UpdateNonDivisibleInputOutputShardingsPass(Pass):
    name = "sdy-update-non-divisible-input-output-shardings"
    summary = ("Makes FuncOp inputs/outputs evenly sharded, removing any need for padding due to "
               "non-divisible shardings.")

    def run(self, module, ctx) -> None:
        table = MeshTable(module)
        changed = False

        def even(sharding, type_):
            nonlocal changed
            shape = _static_shape(type_)
            if shape is None:
                return sharding
            new = evenly_sharded(sharding, shape, table)
            changed = changed or new != sharding
            return new

        for func in [op for op in module.ops if op.name == "func.func"]:
            if func.regions and func.regions[0].blocks:
                for arg in func.regions[0].blocks[0].arguments:
                    sharding = get_sharding(arg)
                    if sharding is not None:
                        set_sharding(arg, even(sharding, arg.type))
            for index, type_ in enumerate(func.properties_view.get("result_types") or []):
                sharding = result_sharding(func, index)
                if sharding is not None:
                    set_result_sharding(func, index, even(sharding, type_))
        for op in module.walk():
            if op.name != "func.call":
                continue
            per_value = op.attributes_view.get(df.SHARDING)
            shardings = list(per_value.shardings) if hasattr(per_value, "shardings") else []
            if shardings:
                new = [even(s, r.type) for s, r in zip(shardings, op.results, strict=True)]
                df.set_attribute(op, df.SHARDING, type(per_value)(tuple(new)))
        for op in module.walk():
            if op.name != "sdy.manual_computation":
                continue
            shardings = df.block_arg_owner_shardings(op)
            if shardings:
                owners = df.block_arg_owners(op)
                df.set_block_arg_owner_shardings(
                    op, [even(s, v.type) for s, v in zip(shardings, owners, strict=True)])
            shardings = df.result_owner_shardings(op)
            if shardings:
                owners = df.result_owners(op)
                df.set_result_owner_shardings(
                    op, [even(s, v.type) for s, v in zip(shardings, owners, strict=True)])
        if not changed:
            ctx.mark_all_preserved()

"""Helpers for the sharding projection and factor propagation tests: axis lists from their assembly
text, factor shardings in one call, and the projection of the first op of a module's ``@main``."""
from __future__ import annotations

import shardy_py
from shardy_py.ir.attrs import AxisRefAttr, OpShardingRuleAttr, TensorShardingAttr
from shardy_py.passes.meshes import MeshTable
from shardy_py.passes.propagation.sharding_projection import (
    FactorSharding,
    ShardingProjection,
    TensorFactorShardings,
)
from shardy_py.passes.shardings import get_sharding
from shardy_py.rules import sharding_rule


def axes(text: str) -> list[AxisRefAttr]:
    """``'"a", "b":(1)2'`` -> the axis refs, read by the attribute parser."""
    attr = shardy_py.parse_attribute(f"#sdy.sharding<@m, [{{{text}}}]>")
    return list(attr.dim_shardings[0].axes)


def ax(text: str) -> AxisRefAttr:
    """A single axis ref from its text, e.g. ``'"a":(2)4'``."""
    (ref,) = axes(text)
    return ref


def fs(text: str = "", closed: bool = False, minor_most: bool = True, overflow: str = "") -> FactorSharding:
    """A ``FactorSharding`` with the axes and overflow axes written as text."""
    return FactorSharding(axes(text), closed, minor_most, axes(overflow))


def tensor(factors: dict[int, FactorSharding], replicated: str = "", unreduced: str = "") -> TensorFactorShardings:
    """A ``TensorFactorShardings`` with replicated/unreduced axes written as text."""
    return TensorFactorShardings(factors, axes(replicated), axes(unreduced))


def sharding(text: str) -> TensorShardingAttr:
    """A ``TensorShardingAttr`` from its ``#sdy.sharding<...>`` text."""
    attr = shardy_py.parse_attribute(text)
    assert isinstance(attr, TensorShardingAttr)
    return attr


class ModuleOp:
    """The first op named ``op_name`` in ``@main`` of ``text``, its rule and the module's ``@mesh``."""

    def __init__(self, text: str, op_name: str):
        self.module = shardy_py.parse(text)
        self.op = next(o for o in self.module.walk() if o.name == op_name)
        rule = sharding_rule(self.op)
        assert isinstance(rule, OpShardingRuleAttr)
        self.rule = rule
        self.mesh = MeshTable(self.module).lookup("mesh")

    def projection(self) -> ShardingProjection:
        """``ShardingProjection.build_for_op`` on the op."""
        return ShardingProjection.build_for_op(self.op, self.rule, self.mesh)

    def original_shardings(self) -> list[str]:
        """The op's operand then result shardings as text; a missing one is written fully open."""
        out = []
        for v in [*self.op.operands, *self.op.results]:
            s = get_sharding(v)
            rank = len(v.type.shape)
            out.append(str(s) if s is not None else "#sdy.sharding<@mesh, [" + ", ".join(["{?}"] * rank) + "]>")
        return out

    def reconstructed_shardings(self, projection: ShardingProjection) -> list[str]:
        """Each tensor of ``projection`` projected back to a sharding on ``@mesh``, as text."""
        mappings = [*self.rule.operand_mappings, *self.rule.result_mappings]
        return [str(t.create_tensor_sharding_attr(m, self.rule.factor_sizes, "mesh", self.mesh))
                for t, m in zip(projection.tensors(), mappings, strict=True)]

"""``-sdy-sharding-group-import`` (import/sharding_group_import.cc): check that the values of each
sharding group share a shape and a ``sdy.manual_computation`` parent, merge the groups that share a
value, renumber them 0..N-1 (in the order LLVM's ``EquivalenceClasses`` lists their leaders) and
erase repeated ``sdy.sharding_group`` ops of a value within a group."""
from __future__ import annotations

from shardy_py.ir.ops import Operation, Value
from shardy_py.passes.data_flow import set_property
from shardy_py.passes.registry import Pass, register

CROSS_MANUAL_ERROR = "ShardingGroupOps values cannot cross ManualComputationOp boundaries for groupId: "
SHAPE_ERROR = "ShardingGroupOps values must have the same shape for groupId: "


def _manual_parent(op: Operation) -> Operation | None:
    """``getParentOfType<ManualComputationOp>``."""
    parent = op.parent_op
    while parent is not None and parent.name != "sdy.manual_computation":
        parent = parent.parent_op
    return parent


def _shape(value: Value) -> tuple | None:
    """``getTensorShape``: the shape of a shaped type, () otherwise."""
    shape = getattr(value.type, "shape", None)
    return tuple(shape) if shape is not None else ()


def group_values(module, ctx) -> dict[Value, list[Operation]] | None:
    """Each grouped value's ``sdy.sharding_group`` ops (first-seen order); None after reporting
    the first group that crosses a manual computation or mixes shapes."""
    by_value: dict[Value, list[Operation]] = {}
    manual_of: dict[int, Operation | None] = {}
    shape_of: dict[int, tuple] = {}
    for op in [op for op in module.walk() if op.name == "sdy.sharding_group"]:
        value = op.operands[0]
        by_value.setdefault(value, []).append(op)
        group = op.properties["group_id"]
        parent = _manual_parent(op)
        if manual_of.setdefault(group, parent) is not parent:
            ctx.error(op, f"{CROSS_MANUAL_ERROR}{group}")
            return None
        if shape_of.setdefault(group, _shape(value)) != _shape(value):
            ctx.error(op, f"{SHAPE_ERROR}{group}")
            return None
    return by_value


class EquivalenceClasses:
    """LLVM's ``EquivalenceClasses<int64_t>``: members listed in insertion order; a union keeps the
    leader of its first argument's class."""

    def __init__(self):
        self.members: list[int] = []
        self.leader: dict[int, int] = {}

    def insert(self, x: int) -> None:
        if x not in self.leader:
            self.members.append(x)
            self.leader[x] = x

    def find(self, x: int) -> int:
        while self.leader[x] != x:
            x = self.leader[x]
        return x

    def union(self, a: int, b: int) -> None:
        self.insert(a)
        self.insert(b)
        la, lb = self.find(a), self.find(b)
        if la != lb:
            self.leader[lb] = la

    def leaders(self) -> list[int]:
        return [m for m in self.members if self.leader[m] == m]


def unify(by_value: dict[Value, list[Operation]]) -> list[list[Operation]]:
    """Merge groups sharing a value, renumber them and return each new group's ops."""
    classes = EquivalenceClasses()
    for ops in by_value.values():
        canonical = ops[0].properties["group_id"]
        for op in ops:
            classes.union(canonical, op.properties["group_id"])
    new_id = {leader: i for i, leader in enumerate(classes.leaders())}
    groups: list[list[Operation]] = [[] for _ in new_id]
    for ops in by_value.values():
        for op in ops:
            group = new_id[classes.find(op.properties["group_id"])]
            set_property(op, "group_id", group)
            groups[group].append(op)
    return groups


@register
class ShardingGroupImportPass(Pass):
    name = "sdy-sharding-group-import"
    summary = "Canonicalization and validation pass for sharding groups."

    def run(self, module, ctx) -> None:
        """Validate, unify and dedup the sharding groups."""
        by_value = group_values(module, ctx)
        if not by_value:
            if by_value is not None:
                ctx.mark_all_preserved()  # no sharding groups: nothing to do
            return
        for ops in unify(by_value):
            seen: set[Value] = set()
            for op in ops:
                if op.operands[0] in seen:
                    op.erase()
                else:
                    seen.add(op.operands[0])

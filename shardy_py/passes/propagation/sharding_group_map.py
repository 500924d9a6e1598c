"""``ShardingGroupMap`` (propagation/sharding_group_map.cc): which values share a sharding group
(``sdy.sharding_group`` ops, ids already canonicalised to 0..N by the import passes), so that
propagation can give every member of a group the sharding one member receives."""
from __future__ import annotations

from collections.abc import Callable

from shardy_py.ir.attrs import DimensionShardingAttr, TensorShardingAttr
from shardy_py.ir.builder import Builder
from shardy_py.ir.ops import Block, Operation, Value
from shardy_py.passes.shardings import get_sharding, set_sharding

Warn = Callable[[Operation, str], None]


class ShardingGroupError(ValueError):
    """A value in two sharding groups (the import passes merge such groups first)."""


def _is_fully_replicated_and_open(sharding: TensorShardingAttr) -> bool:
    """``TensorShardingAttr::isFullyReplicatedAndOpen``: every dimension open and without axes
    (replicated and unreduced axes are not looked at)."""
    return all(not d.axes and not d.is_closed for d in sharding.dim_shardings)


def _fully_open_like(sharding: TensorShardingAttr) -> TensorShardingAttr:
    """``TensorShardingAttr::getFullyOpenLike``: same mesh and rank, no axes, every dimension open."""
    return TensorShardingAttr(sharding.mesh_or_ref,
                              tuple(DimensionShardingAttr((), is_closed=False) for _ in sharding.dim_shardings))


def _owning_op(value: Value) -> Operation | None:
    owner = value.owner
    if isinstance(owner, Block):
        return owner.parent.parent if owner.parent is not None else None
    return owner


class ShardingGroupMap:
    """Group members by group id, and the group id of each member."""

    def __init__(self, module: Operation):
        #: Members by group id (the C++ keeps a vector indexed by id; ids without members do nothing).
        self.groups: dict[int, list[Value]] = {}
        self.group_of: dict[Value, int] = {}
        for op in module.walk():
            if op.name != "sdy.sharding_group":
                continue
            group_id = int(op.properties["group_id"])
            value = op.operands[0]
            known = self.group_of.setdefault(value, group_id)
            if known != group_id:
                raise ShardingGroupError("Value can only map to one sharding group id after import.")
            self.groups.setdefault(group_id, []).append(value)

    def _common_sharding(self, group_id: int, members: list[Value],
                         warn: Warn | None) -> tuple[TensorShardingAttr | None, bool]:
        """The sharding the group's members agree on (open and unsharded members aside), and
        whether two members disagree (then the first differing one's is returned)."""
        if len(members) == 1:
            return get_sharding(members[0]), False
        found: TensorShardingAttr | None = None
        for member in members:
            candidate = get_sharding(member)
            if candidate is None or _is_fully_replicated_and_open(candidate):
                continue
            if found is None:
                found = candidate
            elif candidate != found:
                if warn is not None:
                    warn(_owning_op(members[0]),
                         f"The initial operand shardings on the sharding groups of groupID: {group_id} do not "
                         "match. Inserting an open sharding constraint to all constrained values. This can be "
                         "caused when shardings from different values are grouped (e.g. from jax.shard_alike) "
                         "but have separate inconsistent sharding constraints on them.")
                return found, True
        return found, False

    def sync_group_member_shardings(self, warn: Warn | None = None) -> None:
        """``syncGroupMemberShardings``: give every member of a group the group's common sharding;
        where members conflict, put a fully open ``sdy.sharding_constraint`` after each member and
        make it the member instead (``warn`` reports the conflict)."""
        for group_id, members in sorted(self.groups.items()):
            sharding, conflict = self._common_sharding(group_id, members, warn)
            if sharding is None:
                continue
            if not conflict:
                for member in members:
                    set_sharding(member, sharding)
                continue
            for i, member in enumerate(members):
                constraint = _constraint_after(member, _fully_open_like(sharding))
                new = constraint.results[0]
                member.replace_uses_with_if(new, lambda use, c=constraint: use.op is not c)
                del self.group_of[member]
                members[i] = new
                self.group_of[new] = group_id

    def group_members(self, value: Value) -> list[Value]:
        """``getGroupMembers``: every value in ``value``'s group (itself included), [] if none."""
        group_id = self.group_of.get(value)
        return self.groups[group_id] if group_id is not None else []


def _constraint_after(value: Value, sharding: TensorShardingAttr) -> Operation:
    """An ``sdy.sharding_constraint`` of ``value`` right after its definition (at the start of the
    block for a block argument), at ``value``'s location."""
    if isinstance(value.owner, Block):
        builder = Builder(value.owner, 0)
        loc = value.owner.parent.parent._location if value.owner.parent is not None else None
    else:
        builder = Builder.after(value.owner)
        loc = value.owner._location
    op = builder.create("sdy.sharding_constraint", [value], properties={"sharding": sharding}, loc=loc)
    if not isinstance(value.owner, Block):
        op.location_text = value.owner.location_text
    return op

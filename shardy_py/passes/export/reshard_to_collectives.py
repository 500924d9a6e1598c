"""``-sdy-reshard-to-collectives`` (export/reshard_to_collectives.cc, with ``alignSubAxesByDecomposition``
of export/utils.cc in export_utils): replace each ``sdy.reshard`` by the collectives that turn its
input's sharding into its own: ``sdy.all_slice``, ``sdy.collective_permute``, ``sdy.all_to_all`` and
``sdy.all_gather``, in that order of preference, one round (at most two) at a time.

The state, per dimension: the input axes not yet where the output wants them (``ins``), the
output axes not yet produced (``outs``) -- both without their common prefix -- and the axes of the
current sharding (``current``).  Overlapping sub-axes of input and output are first cut into
aligned pieces so an axis can be compared by equality.  A round:

1. all-slice: the output axes nobody holds are sliced in, in three passes: onto a source
   dimension for a later all-to-all into its target (when that saves a permute), in their own
   dimension while its *capacity* (how much more sharded the output is there) allows, then in
   the first dimension with capacity left;
2. collective-permute, when some axes can be swapped for others of divisible size, or are in the
   wrong order or place (or the output's device order differs): axes are re-placed into each
   dimension's current capacity, output axes first in position, then the others;
3. all-to-alls: a suffix of a dimension's axes all wanted in one other dimension moves there
   (first only when it lands in position, then anywhere);
4. all-gather: each dimension's trailing axes the output does not want.

As jaxlib 0.12 (newer than the test files), a dimension sharded on both sides whose padded size
(``ceil(n / k) * k``) differs between them is *repadded*: when there is one, a first round
(``padding_round``) gathers it whole, or moves all its axes out with one all-to-all, before
anything is sliced or moved into it; then the usual rounds.

Each collective's ``out_sharding`` is the current sharding, closed, with the output's unreduced
axes.  A reshard to a replicated sharding from a replicated one is dropped; one whose input or
output is on a maximal mesh, or whose meshes differ in more than device order, is kept; with
``keep-redundant-reshards`` so is one whose input is sharded equivalently already.  The input of
the collectives is the reshard's input with ``sdy.propagation_barrier`` ops looked through.
"""
from __future__ import annotations

import math

from shardy_py.ir.attrs import (
    AllToAllParamAttr,
    AllToAllParamListAttr,
    AxisRefAttr,
    AxisRefListAttr,
    DimensionShardingAttr,
    ListOfAxisRefListsAttr,
    MeshAttr,
    SubAxisInfoAttr,
    TensorShardingAttr,
)
from shardy_py.ir.edit import replace_op
from shardy_py.ir.ops import Operation, Value
from shardy_py.passes.export.explicit_reshards_util import InsertionPoint, is_equivalent, is_fully_replicated
from shardy_py.passes.export.export_utils import align_per_dim
from shardy_py.passes.meshes import MeshTable
from shardy_py.passes.registry import Pass, PassOption, register
from shardy_py.passes.shardings import get_sharding
from shardy_py.verify.axes import (
    add_axis_or_merge,
    axis_size,
    next_pre_size,
    pre_size,
    prefix_without_overlap,
    sharded_size,
)

Axis = AxisRefAttr


class ReshardConversionError(Exception):
    """A reshard that must be converted but cannot be (the shardings' ranks differ)."""


# --- axis helpers -----------------------------------------------------------------------------

def _divisible(a: int, b: int) -> bool:
    return a % b == 0 or b % a == 0


def within_capacity(axis: Axis, capacity: int, mesh: MeshAttr) -> tuple[Axis | None, Axis | None, int]:
    """The part of ``axis`` that fits ``capacity``, the part that does not, and the capacity left."""
    size = axis_size(axis, mesh)
    if capacity <= 1 or not _divisible(size, capacity):
        return None, None, capacity
    if capacity >= size:
        return axis, None, capacity // size
    within = AxisRefAttr(axis.name, SubAxisInfoAttr(pre_size(axis), capacity))
    rest = AxisRefAttr(axis.name, SubAxisInfoAttr(next_pre_size(within, mesh), size // capacity))
    return within, rest, 1


def pop_back_from_current(current: list[Axis], to_pop: list[Axis], start: int) -> None:
    """Remove ``to_pop[start:]`` (possibly pieces of current axes) from the back of ``current``."""
    for axis in reversed(to_pop[start:]):
        prefix = prefix_without_overlap(current[-1], axis)
        if prefix is not None:
            current[-1] = prefix
        else:
            current.pop()


def padded_size(dim_size: int, shards: int) -> int:
    """The size of a dimension of ``dim_size`` padded to a multiple of ``shards``."""
    return -(-dim_size // shards) * shards


def repadded_dims(ins: list[list[Axis]], outs: list[list[Axis]], shape, mesh: MeshAttr) -> set[int]:
    """The dimensions sharded on both sides whose padded size differs between the input sharding
    (``ins``) and the output sharding (``outs``), e.g. a dimension of 8 on 64 devices (padded to
    64) to be on 8 (not padded), or one of 12 on 4 (not padded) to be on 8 (padded to 16)."""
    out: set[int] = set()
    for dim, (src, tgt) in enumerate(zip(ins, outs, strict=True)):
        a, b = sharded_size(src, mesh), sharded_size(tgt, mesh)
        if a != 1 and b != 1 and padded_size(shape[dim], a) != padded_size(shape[dim], b):
            out.add(dim)
    return out


def remove_common_prefixes(ins: list[list[Axis]], outs: list[list[Axis]], skip: set[int]) -> None:
    """Drop the axes each dimension (but those of ``skip``) already has where the output wants them."""
    for dim, (src, tgt) in enumerate(zip(ins, outs, strict=True)):
        while dim not in skip and src and tgt and src[0] == tgt[0]:
            src.pop(0)
            tgt.pop(0)


def _index_map(axes_per_dim: list[list[Axis]]) -> dict[Axis, tuple[int, int]]:
    out: dict[Axis, tuple[int, int]] = {}
    for d, axes in enumerate(axes_per_dim):
        for i, a in enumerate(axes):
            out.setdefault(a, (d, i))
    return out


# --- the collective inserter ------------------------------------------------------------------

class CollectiveInserter:
    """Turns ``source`` into ``target`` on ``value`` with collectives created at ``at``."""

    def __init__(self, source: TensorShardingAttr, target: TensorShardingAttr, value: Value, at: InsertionPoint,
                 mesh: MeshAttr, loc):
        self.at, self.value, self.mesh, self.loc = at, value, mesh, loc
        self.cur_mesh, self.out_mesh = source.mesh_or_ref, target.mesh_or_ref
        self.unreduced = target.unreduced_axes
        self.ins = [list(d.axes) for d in source.dim_shardings]
        self.outs = [list(d.axes) for d in target.dim_shardings]
        self.current = [list(d.axes) for d in source.dim_shardings]
        self.rank = len(self.ins)
        self.capacity = [1] * self.rank
        all_in = [a for axes in self.ins for a in axes]
        all_out = [a for axes in self.outs for a in axes]
        align_per_dim(self.ins, all_out, mesh)
        align_per_dim(self.outs, all_in, mesh)
        # Dimensions whose padding changes: the first round (``padding_round``) treats them apart,
        # and keeps their whole sharding (a common prefix included) to be gathered.
        self.repadded = repadded_dims(self.ins, self.outs, getattr(value.type, "shape", ()), mesh)
        remove_common_prefixes(self.ins, self.outs, self.repadded)
        self.in_set = {a for axes in self.ins for a in axes}
        self.out_index = _index_map(self.outs)

    # -- state --
    def done(self) -> bool:
        return self.cur_mesh == self.out_mesh and not any(self.ins) and not any(self.outs)

    def current_sharding(self) -> TensorShardingAttr:
        return TensorShardingAttr(self.cur_mesh, tuple(DimensionShardingAttr(tuple(a), True) for a in self.current),
                                  (), tuple(self.unreduced))

    def _emit(self, name: str, properties: dict) -> None:
        props = {**properties, "out_sharding": self.current_sharding()}
        self.value = self.at.create(name, self.value, props, self.loc).results[0]

    def insert(self) -> Value:
        if self.repadded:
            self.padding_round()
        for _ in range(2):
            if self.done():
                break
            self.try_all_slice()
            self.try_collective_permute()
            self.try_all_to_alls(out_of_order=False)
            self.try_all_to_alls(out_of_order=True)
            self.try_all_gather()
        return self.value

    def padding_round(self) -> None:
        """The first round when some dimensions are repadded: no collective-permute but one of the
        mesh's device order, nothing sliced or moved into a repadded dimension and nothing out of one
        but all its axes at once (after which it is an ordinary, replicated dimension), and a
        repadded dimension gathered whole, with the axes the output wants in one still there; the
        usual rounds follow from the state it leaves."""
        self.try_all_slice()
        if self.cur_mesh != self.out_mesh:
            self.cur_mesh = self.out_mesh
            self._emit("sdy.collective_permute", {})
        self.try_all_to_alls(out_of_order=False)
        self.try_all_to_alls(out_of_order=True)
        self.try_all_gather()
        self.repadded.clear()
        remove_common_prefixes(self.ins, self.outs, self.repadded)
        self.in_set = {a for axes in self.ins for a in axes}
        self.out_index = _index_map(self.outs)

    # -- all-gather --
    def gathering_axes(self, dim: int, blocked: set[int]) -> list[Axis]:
        """The axes to gather in ``dim``: its trailing axes the output does not want (or wants in a
        dimension of ``blocked``), all of them in a repadded dimension."""
        ins = self.ins[dim]
        if not ins:
            return []
        start = 0 if dim in self.repadded else len(ins)
        for a in ins[start:]:
            self.in_set.discard(a)
        while start > 0 and (ins[start - 1] not in self.out_index or self.out_index[ins[start - 1]][0] in blocked):
            self.in_set.discard(ins[start - 1])
            start -= 1
        pop_back_from_current(self.current[dim], ins, start)
        gathered: list[Axis] = []
        for a in ins[start:]:
            add_axis_or_merge(gathered, a, self.mesh)
        del ins[start:]
        return gathered

    def try_all_gather(self) -> None:
        blocked = {d for d in self.repadded if self.ins[d]}
        per_dim = [self.gathering_axes(d, blocked) for d in range(self.rank)]
        if any(per_dim):
            self._emit("sdy.all_gather", {"gathering_axes": _lists(per_dim)})

    # -- distributing axes into capacities --
    def distribute(self, to_front: bool, available_for, consume=None) -> None:
        split_added: list[Axis] = []
        for dim in range(self.rank):
            ins = self.ins[dim]
            insert_at = 0 if to_front else len(ins)
            available = available_for(dim)
            k = 0
            while k < len(available) and self.capacity[dim] > 1:
                within, rest, self.capacity[dim] = within_capacity(available[k], self.capacity[dim], self.mesh)
                if within is None:
                    k += 1
                    continue
                del available[k]
                ins.insert(insert_at, within)
                insert_at += 1
                self.in_set.add(within)
                if consume is not None:
                    consume(within, dim)
                if rest is not None:
                    split_added.append(within)
                    available.insert(0, rest)
        align_per_dim(self.outs, split_added, self.mesh)

    # -- all-slice --
    def slice_for_all_to_all(self, src: int) -> list[Axis] | None:
        src_in = self.ins[src]
        if not src_in or self.outs[src]:
            return None
        entry = self.out_index.get(src_in[-1])
        if entry is None:
            return None
        tgt = entry[0]
        if self.ins[tgt]:
            return None
        tgt_out = self.outs[tgt]
        start = tgt_out.index(src_in[-1]) + 1
        if start == len(tgt_out) or tgt_out[start] in self.in_set:
            return None
        i, o, common = len(src_in) - 1, start - 1, 1
        while i >= 0 and o >= 0 and src_in[i] == tgt_out[o]:
            common *= axis_size(src_in[i], self.mesh)
            i -= 1
            o -= 1
        for k in range(i, -1, -1):
            entry = self.out_index.get(src_in[k])
            if entry is not None and entry[0] == tgt:
                return None
        end, added = start, 1
        while end < len(tgt_out) and tgt_out[end] not in self.in_set:
            added *= axis_size(tgt_out[end], self.mesh)
            end += 1
        shape = getattr(self.value.type, "shape", ())
        if shape[src] % (sharded_size(self.current[src], self.mesh) * added):
            return None
        self.capacity[tgt] //= common * added
        return tgt_out[start:end]

    def slicing_axes(self) -> list[list[Axis]] | None:
        per_dim: list[list[Axis]] = [[] for _ in range(self.rank)]
        found = False
        for d in range(self.rank):
            a, b = sharded_size(self.ins[d], self.mesh), sharded_size(self.outs[d], self.mesh)
            self.capacity[d] = 1 if d in self.repadded else b // math.gcd(a, b)
        for src in range(self.rank):
            axes = self.slice_for_all_to_all(src)
            if axes is None:
                continue
            found = True
            for a in axes:
                self.ins[src].append(a)
                self.in_set.add(a)
                add_axis_or_merge(per_dim[src], a, self.mesh)
                add_axis_or_merge(self.current[src], a, self.mesh)
        available: list[Axis] = []
        for d in range(self.rank):
            if d in self.repadded:
                continue  # its output axes wait for the next round
            ins, outs = self.ins[d], self.outs[d]
            k = 0
            while k < len(outs):
                out = outs[k]
                if out in self.in_set:
                    k += 1
                    continue
                within, rest, self.capacity[d] = within_capacity(out, self.capacity[d], self.mesh)
                if within is None:
                    available.append(out)
                    k += 1
                    continue
                found = True
                add_axis_or_merge(per_dim[d], within, self.mesh)
                add_axis_or_merge(self.current[d], within, self.mesh)
                if not ins and k == 0:
                    del outs[k]
                else:
                    self.in_set.add(within)
                    ins.append(within)
                    outs[k] = within
                    k += 1
                if rest is not None:
                    outs.insert(k, rest)
                    k += 1
                    available.append(rest)

        def consume(axis: Axis, dim: int) -> None:
            nonlocal found
            found = True
            add_axis_or_merge(per_dim[dim], axis, self.mesh)
            add_axis_or_merge(self.current[dim], axis, self.mesh)

        self.distribute(False, lambda _dim: available, consume)
        self.out_index = _index_map(self.outs)
        return per_dim if found else None

    def try_all_slice(self) -> None:
        per_dim = self.slicing_axes()
        if per_dim is not None:
            self._emit("sdy.all_slice", {"slicing_axes": _lists(per_dim)})

    # -- collective-permute --
    def should_permute(self) -> bool:
        available_in = available_out = None
        for dim, (ins, outs) in enumerate(zip(self.ins, self.outs, strict=True)):
            if ins and outs and _divisible(axis_size(ins[0], self.mesh), axis_size(outs[0], self.mesh)):
                return True
            for out in outs:
                if out not in self.in_set:
                    available_out = out
            last_dim, last_index = None, 0
            seen: set[int] = set()
            for axis in ins:
                entry = self.out_index.get(axis)
                cur_dim = None
                if entry is not None:
                    cur_dim, cur_index = entry
                    if (cur_dim == dim or cur_dim in seen) and (last_dim != cur_dim or cur_index != last_index + 1):
                        return True
                    seen.add(cur_dim)
                    last_index = cur_index
                elif last_dim is not None and not outs:
                    return True
                else:
                    available_in = axis
                last_dim = cur_dim
        return (available_out is not None and available_in is not None
                and _divisible(axis_size(available_out, self.mesh), axis_size(available_in, self.mesh)))

    def permute(self) -> None:
        available_out: list[Axis] = []
        available_in_per_dim: list[list[Axis]] = [[] for _ in range(self.rank)]
        self.in_set.clear()
        for d in range(self.rank):
            ins, outs, current = self.ins[d], self.outs[d], self.current[d]
            self.capacity[d] = sharded_size(ins, self.mesh)
            used = self.capacity[d]
            pop_back_from_current(current, ins, 0)
            while self.capacity[d] > 1 and outs:
                within, rest, self.capacity[d] = within_capacity(outs[0], self.capacity[d], self.mesh)
                if within is None:
                    break
                outs.pop(0)
                add_axis_or_merge(current, within, self.mesh)
                if rest is not None:
                    outs.insert(0, rest)
            available_out.extend(outs)
            used //= self.capacity[d]
            ins[:] = [a for a in ins if a not in self.out_index]
            while used > 1 and ins:
                within, rest, used = within_capacity(ins[0], used, self.mesh)
                if within is None:
                    break
                ins.pop(0)
                available_in_per_dim[d].append(within)
                if rest is not None:
                    ins.insert(0, rest)
            available_in_per_dim[d][:0] = ins
            ins.clear()
        self.distribute(False, lambda _dim: available_out)
        self.distribute(True, lambda dim: available_in_per_dim[dim])
        rest_in = [a for axes in available_in_per_dim for a in axes]
        self.distribute(True, lambda _dim: rest_in)
        self.out_index = _index_map(self.outs)
        for ins, current in zip(self.ins, self.current, strict=True):
            for a in ins:
                add_axis_or_merge(current, a, self.mesh)

    def try_collective_permute(self) -> None:
        if self.should_permute():
            self.permute()
        elif self.cur_mesh == self.out_mesh:
            return
        self.cur_mesh = self.out_mesh
        self._emit("sdy.collective_permute", {})

    # -- all-to-all --
    def all_to_all(self, src: int, out_of_order: bool) -> tuple[list[Axis], int] | None:
        src_in = self.ins[src]
        start, tgt = len(src_in), None
        while start > 0:
            entry = self.out_index.get(src_in[start - 1])
            if entry is None or entry[0] == src or (tgt is not None and entry[0] != tgt):
                break
            tgt = entry[0]
            start -= 1
        if tgt is None or tgt in self.repadded or (src in self.repadded and start > 0):
            return None
        tgt_out = self.outs[tgt]
        moved = src_in[start:]
        if not out_of_order and tgt_out[:len(moved)] != moved:
            return None
        pop_back_from_current(self.current[src], src_in, start)
        axes: list[Axis] = []
        tgt_in = self.ins[tgt]
        for axis in moved:
            add_axis_or_merge(axes, axis, self.mesh)
            add_axis_or_merge(self.current[tgt], axis, self.mesh)
            self.in_set.discard(axis)
            if not tgt_in and tgt_out and tgt_out[0] == axis:
                tgt_out.pop(0)
            else:
                tgt_in.append(axis)
                self.in_set.add(axis)
        del src_in[start:]
        if not self.current[src]:
            self.repadded.discard(src)
        return axes, tgt

    def try_all_to_alls(self, out_of_order: bool) -> None:
        for src in range(self.rank):
            while (info := self.all_to_all(src, out_of_order)) is not None:
                axes, tgt = info
                params = AllToAllParamListAttr((AllToAllParamAttr(tuple(axes), src, tgt),))
                self._emit("sdy.all_to_all", {"params": params})


def _lists(per_dim: list[list[Axis]]) -> ListOfAxisRefListsAttr:
    return ListOfAxisRefListsAttr(tuple(AxisRefListAttr(tuple(a)) for a in per_dim))


# --- the pass ---------------------------------------------------------------------------------

def _bypass_barriers(value: Value) -> Value:
    while isinstance(value.owner, Operation) and value.owner.name == "sdy.propagation_barrier":
        value = value.owner.operands[0]
    return value


def _same_mesh_up_to_device_order(a: TensorShardingAttr, b: TensorShardingAttr, table: MeshTable) -> bool:
    if a.mesh_or_ref == b.mesh_or_ref:
        return True
    ma, mb = table.mesh_of(a), table.mesh_of(b)
    return ma is not None and mb is not None and ma.axes == mb.axes


def _maximal(sharding: TensorShardingAttr | None, table: MeshTable) -> bool:
    mesh = table.mesh_of(sharding) if sharding is not None else None
    return mesh is not None and mesh.is_maximal


def must_convert(op: Operation, table: MeshTable, keep_redundant: bool) -> bool:
    """Whether the reshard ``op`` is to become collectives (the conversion's legality rule)."""
    source = get_sharding(_bypass_barriers(op.operands[0]))
    target = op.properties["sharding"]
    if keep_redundant and is_equivalent(source, target):
        return False
    if _maximal(source, table) or _maximal(target, table):
        return False
    if is_fully_replicated(target):
        return True
    return source is None or _same_mesh_up_to_device_order(source, target, table)


def convert(op: Operation, table: MeshTable) -> None:
    """Replace reshard ``op`` by its collectives."""
    target = op.properties["sharding"]
    value = _bypass_barriers(op.operands[0])
    source = get_sharding(value)
    if source is None:
        source = TensorShardingAttr(target.mesh_or_ref, tuple(DimensionShardingAttr((), False)
                                                              for _ in target.dim_shardings))
    if source.rank != target.rank:
        raise ReshardConversionError(f"'{op.name}' op cannot be converted: its input and output shardings "
                                     "have different ranks")
    if is_fully_replicated(target):
        if is_fully_replicated(source):
            replace_op(op, [op.operands[0]])
            return
        target = TensorShardingAttr(source.mesh_or_ref, tuple(DimensionShardingAttr((), True)
                                                              for _ in source.dim_shardings))
    if not _same_mesh_up_to_device_order(source, target, table):
        raise ReshardConversionError(f"'{op.name}' op cannot be converted: its input and output meshes differ")
    inserter = CollectiveInserter(source, target, value, InsertionPoint.before(op), table.mesh_of(source), op.loc)
    replace_op(op, [inserter.insert()])


@register
class ReshardToCollectivesPass(Pass):
    name = "sdy-reshard-to-collectives"
    summary = "Converts ReshardOp into various Shardy collective ops."
    anchor = "func.func"
    options = (
        PassOption("keep-redundant-reshards", bool, False, "Whether to keep redundant reshard ops."),
    )

    def run(self, func, ctx) -> None:
        """Convert every reshard that must be converted, in pre-order.  Which ones must is decided
        on the function as it was, as the C++ conversion does (its legality check still sees a
        converted reshard's input as the reshard it replaced: a reshard to another mesh fed by one
        from it is kept, as jaxlib 0.12 keeps it)."""
        table = MeshTable(func.parent)
        keep = self.option("keep-redundant-reshards")
        reshards = [op for op in func.walk() if op.name == "sdy.reshard"]
        if not reshards:
            ctx.mark_all_preserved()
            return
        for op in [op for op in reshards if must_convert(op, table, keep)]:
            try:
                convert(op, table)
            except ReshardConversionError as e:
                ctx.error(op, str(e))
                return

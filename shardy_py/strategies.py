"""Hypothesis strategies for Shardy (``sdy``) attributes and whole modules.

In the style of ``hypothesis.extra.numpy``::

    from hypothesis import given
    from shardy_py import strategies as sst

    @given(sst.modules())
    def test_clean(module):
        assert shardy_py.verify(module) == []

Attribute strategies return the frozen classes of ``shardy_py.ir.attrs``:

* ``meshes()`` -> ``MeshAttr`` (sub-divisible axis sizes, odd axis names, device ids, empty and
  maximal meshes);
* ``axis_refs(mesh)`` -> ``AxisRefAttr`` (full axes and valid sub-axes);
* ``dimension_shardings(mesh)`` -> ``DimensionShardingAttr``;
* ``tensor_shardings(mesh, rank)`` -> ``TensorShardingAttr`` valid for ``mesh`` (sub-axes, open
  dims, priorities, replicated and unreduced axes);
* ``op_sharding_rules(operand_ranks, result_ranks)`` -> ``OpShardingRuleAttr`` valid for tensors
  of those ranks.

Module strategies *build MLIR text* (in the canonical form the C++ printer writes, SSA values
numbered as MLIR numbers them) and parse it with ``shardy_py.parse``:

* ``module_texts()`` -> ``str``: a small module valid by construction: meshes (symbols, quoted
  names, explicit device ids, empty and maximal meshes), a ``func.func`` with sharded arguments
  and results, stablehlo ops with ``sdy.sharding``/``sdy.sharding_rule``, ``sdy.sharding_constraint``,
  ``sdy.reshard``, ``sdy.manual_computation``, ``sdy.named_computation`` and every collective
  (all_gather, all_slice, all_reduce, reduce_scatter, all_to_all, collective_permute,
  replicated_to_unreduced, sharded_to_unreduced), ``sdy.propagation_barrier`` and
  ``sdy.sharding_group``.  Inputs may hold iota ``device_ids``, which both printers drop.
* ``modules()`` -> ``Module``: ``shardy_py.parse(text)`` of a drawn ``module_texts()``
  (``module.source`` is the text).
* ``invalid_modules()`` -> ``InvalidModule(text, rule, line)``: a valid module with exactly one
  line added that breaks the rule ``rule`` (an id of the constraints catalogue, ``B9``, ``C38``,
  ...); the first error of both the C++ Shardy and ``shardy_py`` is at 1-based ``line``.

Everything is valid for the Shardy build in jaxlib 0.10.2 by default: unreduced axes use
``sum`` only (pass ``reductions=("sum", "max", "min")`` to ``tensor_shardings`` for newer builds)
and factor sizes fit in int32.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

import attrs
from hypothesis import strategies as st

from shardy_py.ir.attrs import (
    AxisRefAttr,
    DimensionShardingAttr,
    DimMappingAttr,
    MeshAttr,
    MeshAxisAttr,
    OpShardingRuleAttr,
    SubAxisInfoAttr,
    TensorMappingAttr,
    TensorShardingAttr,
)
from shardy_py.syntax.attr_printer import (
    axis_ref as _axis_ref_text,
)
from shardy_py.syntax.attr_printer import (
    mesh_body,
    op_sharding_rule_body,
    quote_string,
    sharding_body,
    symbol_ref,
)
from shardy_py.verify.axes import add_axis_or_merge, can_merge, mesh_sort_key, sort_and_merge

__all__ = [
    "AXIS_NAMES", "InvalidModule", "INVALID_RULES", "meshes", "axis_refs", "dimension_shardings",
    "tensor_shardings", "op_sharding_rules", "module_texts", "modules", "invalid_modules",
]

#: Axis names drawn by ``meshes()``: plain, dotted, and ones the printer must escape.
AXIS_NAMES: tuple[str, ...] = ("x", "y", "z", "a", "b", "data", "model", "x.y", 'q"t', "sp ace", "tab\t")
_SIZES = (1, 2, 3, 4, 6, 8, 12, 16)
_DIMS = (1, 2, 4, 8, 16, 24, 32)
_ELEM = ("f32", "bf16", "i32")


# --------------------------------------------------------------------------------------------
# Attribute strategies
# --------------------------------------------------------------------------------------------

@st.composite
def meshes(draw, *, min_axes: int = 0, max_axes: int = 3, axis_sizes: Sequence[int] = _SIZES,
           axis_names: Sequence[str] = AXIS_NAMES, device_ids: bool = True, allow_maximal: bool = True,
           max_devices: int = 64) -> MeshAttr:
    """A valid ``MeshAttr``: up to ``max_axes`` uniquely named axes.

    With ``device_ids``, explicit ids (a non-iota permutation) are drawn when the mesh has at most
    ``max_devices`` devices.  With no axes the mesh is empty or (``allow_maximal``) maximal.
    """
    names = draw(st.lists(st.sampled_from(list(axis_names)), min_size=min_axes, max_size=max_axes, unique=True))
    axes: list[MeshAxisAttr] = []
    total = 1
    for n in names:
        size = draw(st.sampled_from([s for s in axis_sizes if total * s <= max_devices] or [1]))
        total *= size
        axes.append(MeshAxisAttr(n, size))
    if not axes:
        if allow_maximal and draw(st.booleans()):
            return MeshAttr((), (draw(st.integers(0, 7)),))
        return MeshAttr(())
    if device_ids and total > 1 and draw(st.integers(0, 3)) == 0:
        ids = draw(st.permutations(list(range(total))))
        return MeshAttr.get(axes, ids)
    return MeshAttr(tuple(axes))


def _factorizations(n: int) -> list[tuple[int, ...]]:
    """Ordered factorizations of ``n`` into >= 2 factors, each > 1."""
    out: list[tuple[int, ...]] = []

    def rec(rest: int, acc: tuple[int, ...]) -> None:
        if rest == 1:
            if len(acc) >= 2:
                out.append(acc)
            return
        for f in range(2, rest + 1):
            if rest % f == 0:
                rec(rest // f, acc + (f,))

    rec(n, ())
    return out


@st.composite
def _axis_pieces(draw, mesh: MeshAttr, exclude: Sequence[str] = (), sub_axes: bool = True) -> list[AxisRefAttr]:
    """Disjoint refs covering (parts of) the mesh axes: each axis whole or split into sub-axes."""
    pieces: list[AxisRefAttr] = []
    for ax in mesh.axes:
        if ax.name in exclude:
            continue
        splits = _factorizations(ax.size) if sub_axes else []
        if splits and draw(st.integers(0, 2)) == 0:
            pre = 1
            for f in draw(st.sampled_from(splits)):
                pieces.append(AxisRefAttr(ax.name, SubAxisInfoAttr(pre, f)))
                pre *= f
        else:
            pieces.append(AxisRefAttr(ax.name))
    return pieces


@st.composite
def axis_refs(draw, mesh: MeshAttr, *, sub_axes: bool = True) -> AxisRefAttr:
    """One valid ``AxisRefAttr`` of ``mesh`` (which must have axes): a full axis or a sub-axis."""
    if not mesh.axes:
        raise ValueError("axis_refs() needs a mesh with axes")
    return draw(st.sampled_from(draw(_axis_pieces(mesh, sub_axes=sub_axes))))


def _unmergeable(refs: list[AxisRefAttr]) -> bool:
    return not any(can_merge(a, b) for a, b in zip(refs, refs[1:], strict=False))


def _fix_order(refs: list[AxisRefAttr]) -> list[AxisRefAttr]:
    """``refs`` reordered (if needed) so that no two adjacent sub-axes can be merged (B11)."""
    if _unmergeable(refs):
        return refs
    return sorted(refs, key=lambda r: (r.name, -r.pre_size))


@st.composite
def dimension_shardings(draw, mesh: MeshAttr | None = None, axes: Sequence[AxisRefAttr] | None = None, *,
                        allow_open: bool = True, allow_priority: bool = True) -> DimensionShardingAttr:
    """A ``DimensionShardingAttr`` over ``axes`` (default: some disjoint pieces of ``mesh``).

    The axes are ordered so that no adjacent sub-axes can be merged; a priority is only drawn when
    the dimension is open or non-empty (an empty closed dimension cannot carry one).
    """
    if axes is None:
        pieces = draw(_axis_pieces(mesh)) if mesh is not None and mesh.axes else []
        axes = draw(st.permutations(pieces).map(lambda p: p[: len(p) // 2 + 1] if p else p))
    refs = _fix_order(list(axes))
    closed = not (allow_open and draw(st.integers(0, 3)) == 0)
    prio = None
    if allow_priority and (refs or not closed) and draw(st.integers(0, 3)) == 0:
        prio = draw(st.integers(0, 3) | st.integers(0, 2**31))
    return DimensionShardingAttr(tuple(refs), closed, prio)


@st.composite
def tensor_shardings(draw, mesh: MeshAttr, rank: int, *, mesh_ref: str | None = None,
                     exclude_axes: Sequence[str] = (), allow_open: bool = True, allow_priority: bool = True,
                     replicated: bool = True, unreduced: bool = True,
                     reductions: Sequence[str] = ("sum",)) -> TensorShardingAttr:
    """A ``TensorShardingAttr`` of ``rank`` dims valid for ``mesh`` (referenced as ``@mesh_ref``,
    inline when None).

    Each mesh axis is used whole, split into sub-axes or not at all, and every piece goes to one
    dimension, to ``replicated`` or to ``unreduced``; axes named in ``exclude_axes`` (manual
    axes of an enclosing manual_computation) are never used.  A maximal mesh gives ``[]`` whatever
    ``rank`` is (valid on any type).
    """
    mesh_or_ref: str | MeshAttr = mesh_ref if mesh_ref is not None else mesh
    if mesh.is_maximal:
        return TensorShardingAttr(mesh_or_ref, ())
    pieces = draw(st.permutations(draw(_axis_pieces(mesh, exclude_axes))))
    n_slots = rank + 3  # dims, replicated, unreduced, unused
    dims: list[list[AxisRefAttr]] = [[] for _ in range(rank)]
    rep: list[AxisRefAttr] = []
    unr: list[AxisRefAttr] = []
    for p in pieces:
        slot = draw(st.integers(0, n_slots - 1))
        if slot < rank:
            dims[slot].append(p)
        elif slot == rank and replicated:
            rep.append(p)
        elif slot == rank + 1 and unreduced:
            unr.append(p)
    dim_attrs = tuple(draw(dimension_shardings(axes=d, allow_open=allow_open, allow_priority=allow_priority))
                      for d in dims)
    key = mesh_sort_key(mesh)
    rep = _drop_mergeable(sorted(rep, key=key))
    unr = _drop_mergeable(sorted(unr, key=key))
    red = draw(st.sampled_from(list(reductions))) if unr else "sum"
    return TensorShardingAttr(mesh_or_ref, dim_attrs, tuple(rep), tuple(unr), red)


def _drop_mergeable(refs: list[AxisRefAttr]) -> list[AxisRefAttr]:
    out: list[AxisRefAttr] = []
    for r in refs:
        if out and can_merge(out[-1], r):
            continue
        out.append(r)
    return out


@st.composite
def op_sharding_rules(draw, operand_ranks: Sequence[int] = (2, 2), result_ranks: Sequence[int] = (2,), *,
                      max_factor_size: int = 64, custom: bool | None = None) -> OpShardingRuleAttr:
    """An ``OpShardingRuleAttr`` valid for tensors of the given ranks (B34-B48).

    Every dim maps to one or two factors (no size-1 factor in a compound dim), no factor repeats
    within a tensor, every factor is used, reduction factors appear in operands only, and the
    reduction/need_replication/permutation sets are disjoint (blocked_propagation may overlap).
    Needs ``sum(operand_ranks) > 0`` for a non-trivial rule; scalars map to ``[]``.
    """
    ranks = list(operand_ranks) + list(result_ranks)
    n_ops = len(operand_ranks)
    widest = max(ranks, default=0)
    n_factors = draw(st.integers(max(widest, 0), max(widest, 0) + 3))
    maps: list[list[tuple[int, ...]]] = []
    for r in ranks:
        order = draw(st.permutations(list(range(n_factors))))
        dims: list[tuple[int, ...]] = []
        pos = 0
        for d in range(r):
            take = 1 if pos + 1 >= len(order) - (r - d - 1) else draw(st.integers(1, 2))
            take = min(take, len(order) - pos - (r - d - 1))
            dims.append(tuple(order[pos:pos + take]))
            pos += take
        maps.append(dims)
    used = sorted({f for m in maps for d in m for f in d})
    remap = {f: i for i, f in enumerate(used)}
    maps = [[tuple(remap[f] for f in d) for d in m] for m in maps]
    n = len(used)
    sizes = [draw(st.sampled_from([1, 2, 3, 4, 8, 16, max_factor_size])) for _ in range(n)]
    for m in maps:
        for d in m:
            if len(d) > 1:
                for f in d:
                    if sizes[f] == 1:
                        sizes[f] = 2
    in_results = {f for m in maps[n_ops:] for d in m for f in d}
    special: list[list[int]] = [[], [], []]
    for f in range(n):
        kind = draw(st.integers(0, 5))
        if kind == 0 and f not in in_results:
            special[0].append(f)
        elif kind in (1, 2):
            special[kind].append(f)
    blocked = sorted(draw(st.sets(st.sampled_from(list(range(n))), max_size=2))) if n else []
    return OpShardingRuleAttr(
        tuple(sizes), tuple(_tmap(m) for m in maps[:n_ops]), tuple(_tmap(m) for m in maps[n_ops:]),
        tuple(special[0]), tuple(special[1]), tuple(special[2]), tuple(blocked),
        draw(st.booleans()) if custom is None else custom)


def _tmap(dims: list[tuple[int, ...]]) -> TensorMappingAttr:
    return TensorMappingAttr(tuple(DimMappingAttr(d) for d in dims))


# --------------------------------------------------------------------------------------------
# Module builder
# --------------------------------------------------------------------------------------------

@attrs.define(eq=False)
class _Val:
    """A value of the module being built: type, resolved sharding (Appendix R) and its mesh."""

    dims: tuple[int, ...]
    elem: str
    sharding: TensorShardingAttr | None = None
    mesh: MeshAttr | None = None
    name: str = ""

    @property
    def type(self) -> str:
        return "tensor<" + "".join(f"{d}x" for d in self.dims) + self.elem + ">"


@attrs.define(eq=False)
class _Op:
    """An op to render: ``text`` holds ``_ref(i)`` placeholders for the names of ``uses[i]``."""

    results: list[_Val]
    text: str
    uses: list[_Val]
    region_args: list[_Val] = attrs.field(factory=list)
    region_ops: list[_Op] | None = None
    tail: str = ""  # text after the region's closing brace
    head: str = ""  # "%3 = " / "%3:2 = ", set by _number


def _ref(i: int) -> str:
    """Placeholder for the name of an op's ``i``-th used value (filled in by ``_render``)."""
    return f"\x01{i}\x01"


def _fill(text: str, uses: Sequence[_Val]) -> str:
    return re.sub("\x01(\\d+)\x01", lambda m: uses[int(m.group(1))].name, text)


def _ty(vals: Sequence[_Val]) -> str:
    return ", ".join(v.type for v in vals)


def _fn_type(ins: Sequence[_Val], outs: Sequence[_Val]) -> str:
    res = outs[0].type if len(outs) == 1 else f"({_ty(outs)})"  # () when there are none
    return f"({_ty(ins)}) -> {res}"


def _nested(s: TensorShardingAttr) -> str:
    return sharding_body(s)


def _number(args: list[_Val], ops: list[_Op], next_val: int, next_arg: int) -> None:
    """Name values the way MLIR's AsmPrinter does: a region's own values first, then nested
    regions continue from the counters left after the enclosing region."""
    for a in args:
        a.name = f"%arg{next_arg}"
        next_arg += 1
    for op in ops:
        if not op.results:
            continue
        if len(op.results) == 1:
            op.results[0].name = f"%{next_val}"
        else:  # one name for the group: %3:2, used as %3#0 and %3#1
            for i, r in enumerate(op.results):
                r.name = f"%{next_val}#{i}"
        op.head = f"%{next_val}" + (f":{len(op.results)}" if len(op.results) > 1 else "") + " = "
        next_val += 1
    for op in ops:
        if op.region_ops is not None:
            _number(op.region_args, op.region_ops, next_val, next_arg)


def _render(ops: list[_Op], indent: str, out: list[str]) -> None:
    for op in ops:
        head = op.head
        body = _fill(op.text, op.uses)
        if op.region_ops is None:
            out.append(f"{indent}{head}{body}")
            continue
        args = ", ".join(f"{a.name}: {a.type}" for a in op.region_args)
        out.append(f"{indent}{head}{body} ({args}) {{")
        _render(op.region_ops, indent + "  ", out)
        out.append(f"{indent}}}{_fill(op.tail, op.uses)}")


class _Builder:
    """Draws the pieces of one module; ``draw`` is hypothesis' draw function."""

    def __init__(self, draw, max_ops: int) -> None:
        self.draw = draw
        self.max_ops = max_ops
        self.meshes: dict[str, MeshAttr] = {}
        self.mesh_lines: list[str] = []
        self.nc_count = 0

    # -- meshes and shardings ----------------------------------------------------------------
    def draw_meshes(self) -> None:
        draw = self.draw
        n = draw(st.integers(1, 3))
        names = draw(st.lists(st.sampled_from(["mesh", "m", "m2", "mesh_1", "mesh-x", "a.b", "maximal"]),
                              min_size=n, max_size=n, unique=True))
        for i, name in enumerate(names):
            mesh = draw(meshes(min_axes=1 if i == 0 else 0))
            self.meshes[name] = mesh
            body = mesh_body(mesh)
            if mesh.axes and not mesh.device_ids and mesh.total_size <= 32 and draw(st.integers(0, 5)) == 0:
                # iota ids: dropped by both printers (A4)
                body = body[:-1] + ", device_ids=[" + ", ".join(map(str, range(mesh.total_size))) + "]>"
            self.mesh_lines.append(f"sdy.mesh {symbol_ref(name)} = {body}")

    def pick_mesh(self, with_axes: bool = False) -> tuple[str | None, MeshAttr]:
        """(ref, mesh): a mesh symbol, or (rarely) an inline mesh with ``ref`` None."""
        draw = self.draw
        cands = [(n, m) for n, m in self.meshes.items() if m.axes or not with_axes]
        if not with_axes and draw(st.integers(0, 7)) == 0:
            return None, draw(meshes(max_axes=2, max_devices=16))
        if with_axes and draw(st.integers(0, 9)) == 0:
            return None, draw(meshes(min_axes=1, max_axes=2, max_devices=16))
        if not cands:
            return None, draw(meshes(min_axes=1, max_axes=2, max_devices=16))
        return draw(st.sampled_from(cands))

    def sharding(self, rank: int, exclude: Sequence[str] = (), with_axes: bool = False) -> TensorShardingAttr:
        ref, mesh = self.pick_mesh(with_axes)
        return self.draw(tensor_shardings(mesh, rank, mesh_ref=ref, exclude_axes=exclude))

    def resolve(self, s: TensorShardingAttr) -> MeshAttr:
        return s.mesh_or_ref if isinstance(s.mesh_or_ref, MeshAttr) else self.meshes[s.mesh_or_ref]

    def new_type(self) -> tuple[tuple[int, ...], str]:
        draw = self.draw
        dims = tuple(draw(st.lists(st.sampled_from(_DIMS), min_size=0, max_size=3)))
        return dims, draw(st.sampled_from(_ELEM))

    # -- ops ---------------------------------------------------------------------------------
    def body(self, avail: list[_Val], exclude: Sequence[str], depth: int, n_ops: int) -> list[_Op]:
        """Ops appended to a region whose values so far are ``avail`` (mutated)."""
        draw = self.draw
        ops: list[_Op] = []
        kinds = ["elementwise", "unary", "constraint", "reshard", "barrier_or_group"]
        if depth == 0:
            kinds += ["collective", "collective", "collective", "custom_call"]
        if depth < 2:
            kinds += ["manual", "named"]
        for _ in range(n_ops):
            kind = draw(st.sampled_from(kinds))
            op = getattr(self, "op_" + kind)(avail, exclude, depth)
            if op is not None:
                ops.append(op)
                avail.extend(op.results)
        return ops

    def op_elementwise(self, avail: list[_Val], exclude, depth) -> _Op:
        draw = self.draw
        a = draw(st.sampled_from(avail))
        b = draw(st.sampled_from([v for v in avail if v.dims == a.dims and v.elem == a.elem]))
        name = draw(st.sampled_from(["add", "multiply", "maximum", "subtract"]))
        attrs_: list[str] = []
        res = _Val(a.dims, a.elem)
        if draw(st.booleans()):
            s = self.sharding(len(a.dims), exclude)
            res.sharding, res.mesh = s, self.resolve(s)
            attrs_.append(f"sdy.sharding = #sdy.sharding_per_value<[{_nested(s)}]>")
        if a.dims and draw(st.integers(0, 2)) == 0:
            rule = draw(op_sharding_rules((len(a.dims), len(a.dims)), (len(a.dims),)))
            attrs_.append(f"sdy.sharding_rule = #sdy.op_sharding_rule{op_sharding_rule_body(rule)}")
        attr_text = " {" + ", ".join(attrs_) + "}" if attrs_ else ""
        return _Op([res], f"stablehlo.{name} \x010\x01, \x011\x01{attr_text} : {a.type}", [a, b])

    def op_unary(self, avail: list[_Val], exclude, depth) -> _Op:
        a = self.draw(st.sampled_from([v for v in avail if v.elem != "i32"] or avail))
        name = "negate" if a.elem == "i32" else self.draw(st.sampled_from(["negate", "abs", "exponential"]))
        return _Op([_Val(a.dims, a.elem)], f"stablehlo.{name} \x010\x01 : {a.type}", [a])

    def op_barrier_or_group(self, avail: list[_Val], exclude, depth) -> _Op:
        draw = self.draw
        a = draw(st.sampled_from(avail))
        if draw(st.booleans()):
            return _Op([], f"sdy.sharding_group {_ref(0)} group_id={draw(st.integers(0, 2**40))} : {a.type}", [a])
        direction = draw(st.sampled_from(["NONE", "FORWARD", "BACKWARD"]))
        text = f"sdy.propagation_barrier {_ref(0)} allowed_direction={direction} : {a.type}"
        return _Op([_Val(a.dims, a.elem)], text, [a])

    def op_custom_call(self, avail: list[_Val], exclude, depth) -> _Op:
        draw = self.draw
        ins = draw(st.lists(st.sampled_from(avail), min_size=1, max_size=2))
        outs = [_Val(*self.new_type()) for _ in range(draw(st.integers(1, 2)))]
        attrs_ = []
        if any(v.dims for v in ins):
            rule = draw(op_sharding_rules([len(v.dims) for v in ins], [len(v.dims) for v in outs]))
            attrs_.append(f"sdy.sharding_rule = #sdy.op_sharding_rule{op_sharding_rule_body(rule)}")
        if draw(st.booleans()):
            ss = [self.sharding(len(v.dims), exclude) for v in outs]
            for v, s in zip(outs, ss, strict=True):
                v.sharding, v.mesh = s, self.resolve(s)
            attrs_.insert(0, "sdy.sharding = #sdy.sharding_per_value<[" + ", ".join(map(_nested, ss)) + "]>")
        attr_text = " {" + ", ".join(attrs_) + "}" if attrs_ else ""
        refs = ", ".join(_ref(i) for i in range(len(ins)))
        target = draw(st.sampled_from(["foo", "Sharding", "my.target"]))
        return _Op(outs, f"stablehlo.custom_call {symbol_ref(target)}({refs}){attr_text} : {_fn_type(ins, outs)}",
                   ins)

    def op_constraint(self, avail: list[_Val], exclude, depth, opname: str = "sharding_constraint") -> _Op:
        a = self.draw(st.sampled_from(avail))
        s = self.sharding(len(a.dims), exclude)
        return _Op([_Val(a.dims, a.elem, s, self.resolve(s))], f"sdy.{opname} \x010\x01 {_nested(s)} : {a.type}", [a])

    def op_reshard(self, avail: list[_Val], exclude, depth) -> _Op:
        return self.op_constraint(avail, exclude, depth, "reshard")

    def op_named(self, avail: list[_Val], exclude, depth) -> _Op:
        draw = self.draw
        ins = draw(st.lists(st.sampled_from(avail), min_size=0, max_size=2))
        args = [_Val(v.dims, v.elem) for v in ins]
        in_sh = out_sh = None
        if ins and draw(st.booleans()):
            in_sh = [self.sharding(len(v.dims), exclude) for v in ins]
            for a, s in zip(args, in_sh, strict=True):
                a.sharding, a.mesh = s, self.resolve(s)
        inner = list(args)
        n_inner = draw(st.integers(0, 2)) if inner else 0
        region = self.body(inner, exclude, depth + 1, n_inner) if inner else []
        rets = draw(st.lists(st.sampled_from(inner), min_size=1, max_size=2)) if inner else []
        outs = [_Val(v.dims, v.elem) for v in rets]
        if outs and draw(st.booleans()):
            out_sh = [self.sharding(len(v.dims), exclude) for v in outs]
            for v, s in zip(outs, out_sh, strict=True):
                v.sharding, v.mesh = s, self.resolve(s)
        self.nc_count += 1
        name = draw(st.sampled_from(["foo", "bar", "body_fn", "a b", 'q"x'])) + str(self.nc_count)
        text = f"sdy.named_computation<{quote_string(name)}>(" + ", ".join(_ref(i) for i in range(len(ins))) + ")"
        if in_sh is not None:
            text += " in_shardings=[" + ", ".join(map(_nested, in_sh)) + "]"
        if out_sh is not None:
            text += " out_shardings=[" + ", ".join(map(_nested, out_sh)) + "]"
        region.append(self.ret(rets))
        return _Op(outs, text, list(ins), args, region, f" : {_fn_type(ins, outs)}")

    def ret(self, vals: list[_Val]) -> _Op:
        if not vals:
            return _Op([], "sdy.return", [])
        refs = ", ".join(_ref(i) for i in range(len(vals)))
        return _Op([], f"sdy.return {refs} : {_ty(vals)}", vals)

    def manual_sharding(self, ref: str, mesh: MeshAttr, manual: list[str], local: tuple[int, ...] | None,
                        glob: tuple[int, ...] | None, exclude: Sequence[str]) -> tuple[TensorShardingAttr, tuple]:
        """A sharding putting some manual axes (outermost) in dims; returns it with the other side's shape.

        Exactly one of ``local``/``glob`` is given; a manual axis only goes to a dim it divides
        (global side).
        """
        draw = self.draw
        rank = len(local if local is not None else glob)
        free = draw(tensor_shardings(mesh, rank, mesh_ref=ref, exclude_axes=list(exclude) + manual))
        dims_man: list[list[AxisRefAttr]] = [[] for _ in range(rank)]
        factor = [1] * rank
        rep_man: list[AxisRefAttr] = []
        for name in manual:
            size = mesh.axis_size(name)
            where = draw(st.integers(-1, rank))
            if 0 <= where < rank and (glob is None or glob[where] % (factor[where] * size) == 0):
                dims_man[where].append(AxisRefAttr(name))
                factor[where] *= size
            elif where == rank:
                rep_man.append(AxisRefAttr(name))
        dims = tuple(attrs.evolve(d, axes=tuple(dims_man[i]) + d.axes,
                                  priority=d.priority if (d.axes or dims_man[i] or d.is_open) else None)
                     for i, d in enumerate(free.dim_shardings))
        rep = tuple(sorted(free.replicated_axes + tuple(rep_man), key=mesh_sort_key(mesh)))
        s = attrs.evolve(free, dim_shardings=dims, replicated_axes=rep)
        if local is not None:
            other = tuple(x * f for x, f in zip(local, factor, strict=True))
        else:
            other = tuple(x // f for x, f in zip(glob, factor, strict=True))
        return s, other

    def op_manual(self, avail: list[_Val], exclude, depth) -> _Op | None:
        draw = self.draw
        cands = [(n, m) for n, m in self.meshes.items() if m.axes]
        if not cands:
            return None
        ref, mesh = draw(st.sampled_from(cands))
        free_axes = [a.name for a in mesh.axes if a.name not in exclude]
        manual = draw(st.lists(st.sampled_from(free_axes), unique=True, max_size=len(free_axes))) if free_axes else []
        manual = [a.name for a in mesh.axes if a.name in manual]  # mesh order (not required, but typical)
        ins = draw(st.lists(st.sampled_from(avail), min_size=0, max_size=2))
        in_sh, args = [], []
        for v in ins:
            s, local = self.manual_sharding(ref, mesh, manual, None, v.dims, exclude)
            in_sh.append(s)
            sub = attrs.evolve(s, dim_shardings=tuple(
                attrs.evolve(d, axes=tuple(a for a in d.axes if a.name not in manual)) for d in s.dim_shardings),
                replicated_axes=tuple(a for a in s.replicated_axes if a.name not in manual))
            args.append(_Val(local, v.elem, sub, mesh))
        inner_excl = list(exclude) + manual
        inner = list(args)
        region = self.body(inner, inner_excl, depth + 1, draw(st.integers(0, 2))) if inner else []
        rets = draw(st.lists(st.sampled_from(inner), min_size=0, max_size=2)) if inner else []
        out_sh, outs = [], []
        for v in rets:
            s, glob = self.manual_sharding(ref, mesh, manual, v.dims, None, exclude)
            out_sh.append(s)
            outs.append(_Val(glob, v.elem, s, mesh))
        text = ("sdy.manual_computation(" + ", ".join(_ref(i) for i in range(len(ins))) + ") in_shardings=["
                + ", ".join(map(_nested, in_sh)) + "] out_shardings=[" + ", ".join(map(_nested, out_sh))
                + "] manual_axes={" + ", ".join(quote_string(m) for m in manual) + "}")
        region.append(self.ret(rets))
        return _Op(outs, text, list(ins), args, region, f" : {_fn_type(ins, outs)}")

    # -- collectives -------------------------------------------------------------------------
    def op_collective(self, avail: list[_Val], exclude, depth) -> _Op | None:
        draw = self.draw
        sharded = [v for v in avail if v.sharding is not None and v.mesh is not None and v.mesh.axes
                   and v.sharding.rank == len(v.dims)]
        kinds = ["all_slice", "reduce_scatter", "all_reduce"]
        if sharded:
            kinds += ["all_gather", "all_to_all", "collective_permute", "replicated_to_unreduced",
                      "sharded_to_unreduced", "all_gather", "all_reduce"]
        kind = draw(st.sampled_from(kinds))
        unsharded = [v for v in avail if v.sharding is None]
        if kind in ("all_slice", "reduce_scatter", "all_reduce") and unsharded and (
                not sharded or draw(st.integers(0, 3)) == 0):
            # operand without a sharding: Shardy treats it as fully open and replicated on the out mesh
            v = draw(st.sampled_from(unsharded))
            ref, mesh = self.pick_mesh(with_axes=True)
            base = TensorShardingAttr(ref if ref is not None else mesh,
                                      tuple(DimensionShardingAttr((), False) for _ in v.dims))
            op = getattr(self, "c_" + kind)(v, base, mesh)
        elif sharded:
            v = draw(st.sampled_from(sharded))
            op = getattr(self, "c_" + kind)(v, v.sharding, v.mesh)
        else:
            return None
        return op

    def _out(self, v: _Val, s: TensorShardingAttr, mesh: MeshAttr, text: str) -> _Op:
        return _Op([_Val(v.dims, v.elem, s, mesh)], f"{text} \x010\x01 out_sharding={_nested(s)} : {v.type}", [v])

    def _used_names(self, s: TensorShardingAttr) -> set[str]:
        return {a.name for d in s.dim_shardings for a in d.axes} | {a.name for a in s.replicated_axes} | {
            a.name for a in s.unreduced_axes}

    def _gather(self, s: TensorShardingAttr, mesh: MeshAttr):
        """Per dim: (gathered axes, remaining dim sharding) by the gathering formula (C50)."""
        draw = self.draw
        lists, dims = [], []
        for d in s.dim_shardings:
            k = draw(st.integers(0, len(d.axes)))
            keep, gathered = list(d.axes[: len(d.axes) - k]), list(d.axes[len(d.axes) - k:])
            if not gathered and keep and keep[-1].sub_axis_info is None and draw(st.booleans()):
                full = mesh.axis_size(keep[-1].name)
                divs = [p for p in range(2, full) if full % p == 0]
                if divs:  # gather a suffix sub-axis of a full axis: "x" -> keep "x":(1)p
                    p = draw(st.sampled_from(divs))
                    name = keep[-1].name
                    keep[-1] = AxisRefAttr(name, SubAxisInfoAttr(1, p))
                    gathered = [AxisRefAttr(name, SubAxisInfoAttr(p, full // p))]
                    if len(keep) >= 2 and can_merge(keep[-2], keep[-1]):
                        return None
            prio = d.priority if (keep or d.is_open) else None
            lists.append(gathered)
            dims.append(attrs.evolve(d, axes=tuple(keep), priority=prio))
        return lists, tuple(dims)

    @staticmethod
    def _axes_lists(lists: list[list[AxisRefAttr]]) -> str:
        return "[" + ", ".join("{" + ", ".join(map(_axis_ref_text, axs)) + "}" for axs in lists) + "]"

    def c_all_gather(self, v: _Val, s: TensorShardingAttr, mesh: MeshAttr) -> _Op | None:
        g = self._gather(s, mesh)
        if g is None:
            return None
        lists, dims = g
        return self._out(v, attrs.evolve(s, dim_shardings=dims), mesh, f"sdy.all_gather {self._axes_lists(lists)}")

    def c_sharded_to_unreduced(self, v: _Val, s: TensorShardingAttr, mesh: MeshAttr) -> _Op | None:
        g = self._gather(s, mesh)
        if g is None:
            return None
        lists, dims = g
        unr = sort_and_merge(list(s.unreduced_axes) + [a for axs in lists for a in axs], mesh)
        out = attrs.evolve(s, dim_shardings=dims, unreduced_axes=tuple(unr))
        return self._out(v, out, mesh, f"sdy.sharded_to_unreduced {self._axes_lists(lists)}")

    def _slice(self, s: TensorShardingAttr, mesh: MeshAttr):
        draw = self.draw
        free = [a for a in mesh.axes if a.name not in self._used_names(s)]
        lists: list[list[AxisRefAttr]] = [[] for _ in s.dim_shardings]
        for a in free:
            where = draw(st.integers(-1, len(lists) - 1)) if lists else -1
            if where >= 0:
                lists[where].append(AxisRefAttr(a.name))
        dims = []
        for d, axs in zip(s.dim_shardings, lists, strict=True):
            new = list(d.axes)
            for a in axs:
                add_axis_or_merge(new, a, mesh)
            dims.append(attrs.evolve(d, axes=tuple(new)))
        return lists, tuple(dims)

    def c_all_slice(self, v: _Val, s: TensorShardingAttr, mesh: MeshAttr) -> _Op:
        lists, dims = self._slice(s, mesh)
        return self._out(v, attrs.evolve(s, dim_shardings=dims), mesh, f"sdy.all_slice {self._axes_lists(lists)}")

    def c_reduce_scatter(self, v: _Val, s: TensorShardingAttr, mesh: MeshAttr) -> _Op:
        lists, dims = self._slice(s, mesh)
        return self._out(v, attrs.evolve(s, dim_shardings=dims), mesh,
                         f"sdy.reduce_scatter {self._axes_lists(lists)}")

    def c_all_reduce(self, v: _Val, s: TensorShardingAttr, mesh: MeshAttr) -> _Op:
        draw = self.draw
        used = {a.name for d in s.dim_shardings for a in d.axes} | {a.name for a in s.replicated_axes}
        cand = [AxisRefAttr(a.name) for a in mesh.axes if a.name not in used and
                not any(u.name == a.name for u in s.unreduced_axes)] + list(s.unreduced_axes)
        red = sorted(draw(st.lists(st.sampled_from(cand), unique=True)) if cand else [], key=mesh_sort_key(mesh))
        unr = tuple(u for u in s.unreduced_axes if u not in red)
        out = attrs.evolve(s, unreduced_axes=unr, reduction=s.reduction if unr else "sum")
        return self._out(v, out, mesh, "sdy.all_reduce {" + ", ".join(map(_axis_ref_text, red)) + "}")

    def c_collective_permute(self, v: _Val, s: TensorShardingAttr, mesh: MeshAttr) -> _Op:
        draw = self.draw
        dims = []
        for d in s.dim_shardings:
            axes = list(draw(st.permutations(list(d.axes))))
            dims.append(attrs.evolve(d, axes=tuple(axes)) if _unmergeable(axes) else d)
        return self._out(v, attrs.evolve(s, dim_shardings=tuple(dims)), mesh, "sdy.collective_permute")

    def c_all_to_all(self, v: _Val, s: TensorShardingAttr, mesh: MeshAttr) -> _Op | None:
        draw = self.draw
        srcs = [i for i, d in enumerate(s.dim_shardings) if d.axes]
        if len(s.dim_shardings) < 2 or not srcs:
            return None
        src = draw(st.sampled_from(srcs))
        tgt = draw(st.sampled_from([i for i in range(len(s.dim_shardings)) if i != src]))
        d_src, d_tgt = s.dim_shardings[src], s.dim_shardings[tgt]
        k = draw(st.integers(1, len(d_src.axes)))
        moved = list(d_src.axes[len(d_src.axes) - k:])
        new_tgt = list(d_tgt.axes)
        for a in moved:
            add_axis_or_merge(new_tgt, a, mesh)
        keep = d_src.axes[: len(d_src.axes) - k]
        dims = list(s.dim_shardings)
        dims[src] = attrs.evolve(d_src, axes=keep, priority=d_src.priority if (keep or d_src.is_open) else None)
        dims[tgt] = attrs.evolve(d_tgt, axes=tuple(new_tgt))
        param = "{" + ", ".join(map(_axis_ref_text, moved)) + f"}}: {src}->{tgt}"
        return self._out(v, attrs.evolve(s, dim_shardings=tuple(dims)), mesh, f"sdy.all_to_all [{param}]")

    def c_replicated_to_unreduced(self, v: _Val, s: TensorShardingAttr, mesh: MeshAttr) -> _Op | None:
        draw = self.draw
        busy = {a.name for d in s.dim_shardings for a in d.axes} | {a.name for a in s.unreduced_axes}
        cand = [AxisRefAttr(a.name) for a in mesh.axes if a.name not in busy]
        if not cand or s.reduction != "sum":
            return None
        axes = sorted(draw(st.lists(st.sampled_from(cand), min_size=1, unique=True)), key=mesh_sort_key(mesh))
        unr = sort_and_merge(list(s.unreduced_axes) + axes, mesh)
        rep = tuple(a for a in s.replicated_axes if a.name not in {x.name for x in axes})
        out = attrs.evolve(s, replicated_axes=rep, unreduced_axes=tuple(unr))
        return self._out(v, out, mesh, "sdy.replicated_to_unreduced {" + ", ".join(map(_axis_ref_text, axes)) + "}")


def _func_arg_text(v: _Val, attrs_: dict[str, str]) -> str:
    if not attrs_:
        return v.type
    return v.type + " {" + ", ".join(f"{k} = {t}" for k, t in sorted(attrs_.items())) + "}"


def _build(draw, max_ops: int, extra: _Val | None = None) -> tuple[list[str], _Builder, list[_Val]]:
    """The module's lines (without the ``module {`` wrapper); also the builder and func args.

    ``extra`` is appended to the func arguments (with its ``sharding``) but used by no op.
    """
    b = _Builder(draw, max_ops)
    b.draw_meshes()
    n_args = draw(st.integers(1, 3))
    args = []
    for _ in range(n_args):
        v = _Val(*b.new_type())
        if draw(st.booleans()):
            s = b.sharding(len(v.dims))
            v.sharding, v.mesh = s, b.resolve(s)
        args.append(v)
    avail = list(args)
    ops = b.body(avail, (), 0, draw(st.integers(1, max_ops)))
    rets = draw(st.lists(st.sampled_from(avail), min_size=1, max_size=3))
    res_sh = [b.sharding(len(r.dims)) if draw(st.booleans()) else None for r in rets]
    ret = _Op([], "return " + ", ".join(_ref(i) for i in range(len(rets))) + f" : {_ty(rets)}", rets)
    if extra is not None:
        args.append(extra)
    _number(args, ops + [ret], 0, 0)
    arg_txt = ", ".join(
        f"{a.name}: " + _func_arg_text(a, {"sdy.sharding": str(a.sharding)} if a.sharding is not None else {})
        for a in args)
    res_parts = [_func_arg_text(r, {"sdy.sharding": str(s)} if s is not None else {})
                 for r, s in zip(rets, res_sh, strict=True)]
    res_txt = res_parts[0] if len(rets) == 1 and res_sh[0] is None else "(" + ", ".join(res_parts) + ")"
    lines = list(b.mesh_lines)
    lines.append(f"func.func @main({arg_txt}) -> {res_txt} {{")
    _render(ops + [ret], "  ", lines)
    lines.append("}")
    return lines, b, args


@st.composite
def module_texts(draw, *, max_ops: int = 6) -> str:
    """MLIR text of a module valid by construction (see the module docstring)."""
    lines, _, _ = _build(draw, max_ops)
    return "\n".join(lines) + "\n"


@st.composite
def modules(draw, *, max_ops: int = 6):
    """A ``Module``: ``shardy_py.parse`` of a drawn ``module_texts()`` (text in ``.source``)."""
    import shardy_py

    return shardy_py.parse(draw(module_texts(max_ops=max_ops)))


# --------------------------------------------------------------------------------------------
# Invalid modules
# --------------------------------------------------------------------------------------------

class InvalidModule(NamedTuple):
    """A module text breaking exactly one rule: ``rule`` (catalogue id) first fails at ``line``."""

    text: str
    rule: str
    line: int


def _bad_mesh_line(rule: str, draw) -> str:
    if rule == "B1":
        return f'sdy.mesh @bad = <["x"={draw(st.sampled_from([0, -1, -4]))}]>'
    if rule == "B2":
        return 'sdy.mesh @bad = <["x"=2], device_ids=[1, -1]>'
    if rule == "B3":
        return 'sdy.mesh @bad = <[], device_ids=[0, 1]>'
    if rule == "B4":
        return 'sdy.mesh @bad = <["x"=2, "y"=2, "x"=4]>'
    if rule == "B5":
        return 'sdy.mesh @bad = <["x"=2, "y"=2], device_ids=[0, 2, 1]>'
    if rule == "B6":
        return 'sdy.mesh @bad = <["x"=4], device_ids=[0, 1, 1, 2]>'
    raise AssertionError(rule)


#: Bad shardings (on ``@bad`` = ``<["x"=8, "y"=4]>``) for a rank-1 value, by rule.
_BAD_SHARDINGS: dict[str, str] = {
    "B9": '<@bad, [{"w"}]>',
    "B10": '<@bad, [{"x"}], replicated={"x"}>',
    "B11": '<@bad, [{"x":(1)2, "x":(2)2}]>',
    "B12": '<@bad, [{}], replicated={"y", "x"}>',
    "B13": '<@bad, [{}], unreduced={"y", "x"}>',
    "B14": '<@bad, [{"x", "x":(1)2}]>',
    "B15": '<@bad, [{"x":(0)2}]>',
    "B16": '<@bad, [{"x":(2)1}]>',
    "B17": '<@bad, [{"x":(3)2}]>',
    "B18": '<@bad, [{"x":(1)8}]>',
    "B19": '<@bad, [{"x":(1)4, "y", "x":(2)4}]>',
    "B21": '<@bad, [{}p1]>',
    "B22": '<@nowhere, [{}]>',
    "B27": '<@bad, [{}, {}]>',
}

#: Every rule ``invalid_modules()`` can break.
INVALID_RULES: tuple[str, ...] = (
    "B1", "B2", "B3", "B4", "B5", "B6", *_BAD_SHARDINGS, "B32", "B34", "B41", "B43", "B47",
    "C19", "C20", "C28", "C38", "C43", "C63",
)


def _bad_op_line(rule: str, v: _Val, draw) -> str:
    """One op on the rank-1 f32 value ``v`` (named ``%bad_in``) breaking ``rule``."""
    t = v.type
    if rule in _BAD_SHARDINGS:
        where = draw(st.sampled_from(["constraint", "reshard", "attr"]))
        if where == "attr":
            per_value = f"#sdy.sharding_per_value<[{_BAD_SHARDINGS[rule]}]>"
            return f"%bad = stablehlo.negate {v.name} {{sdy.sharding = {per_value}}} : {t}"
        op = "sharding_constraint" if where == "constraint" else "reshard"
        return f"%bad = sdy.{op} {v.name} {_BAD_SHARDINGS[rule]} : {t}"
    if rule == "B32":
        two = "#sdy.sharding_per_value<[<@bad, [{}]>, <@bad, [{}]>]>"
        return f"%bad = stablehlo.negate {v.name} {{sdy.sharding = {two}}} : {t}"
    rules = {
        "B34": "([i])->([i]) {i=8}",
        "B41": "([ii], [i])->([i]) {i=8}",
        "B43": "([i], [i])->([i]) {i=8, j=2}",
        "B47": "([i], [i])->([i]) {i=8} reduction={i}",
    }
    if rule in rules:
        rule_attr = f"#sdy.op_sharding_rule<{rules[rule]}>"
        return f"%bad = stablehlo.add {v.name}, {v.name} {{sdy.sharding_rule = {rule_attr}}} : {t}"
    if rule == "C19":
        return (f'sdy.manual_computation({v.name}) in_shardings=[<@bad, [{{"x"}}]>] out_shardings=[] '
                f'manual_axes={{"x"}} (%bad_arg: tensor<1xf32>) {{ sdy.return }} : ({t}) -> ()')
    if rule == "C20":
        return (f'sdy.manual_computation({v.name}) in_shardings=[<@bad, [{{"y"}}]>] out_shardings=[] '
                f'manual_axes={{"y"}} (%bad_arg: {t}) {{ sdy.return }} : ({t}) -> ()')
    if rule == "C28":
        return (f'%bad = sdy.named_computation<"bad">({v.name}) (%bad_arg: tensor<5xi32>) '
                f'{{ sdy.return %bad_arg : tensor<5xi32> }} : ({t}) -> tensor<5xi32>')
    if rule == "C38":
        return f"%bad = sdy.propagation_barrier {v.name} allowed_direction=BOTH : {t}"
    if rule == "C43":
        return f'%bad = sdy.all_gather [{{}}] {v.name} out_sharding=<@bad, [{{}}]> : {t}'
    if rule == "C63":
        return f'%bad = sdy.all_to_all [] {v.name} out_sharding=<@bad, [{{"x"}}]> : {t}'
    raise AssertionError(rule)


@st.composite
def invalid_modules(draw, rules: Sequence[str] = INVALID_RULES, *, max_ops: int = 4) -> InvalidModule:
    """An ``InvalidModule``: a drawn valid module plus one line that breaks ``rule``.

    Mesh rules (B1-B6) add a bad ``sdy.mesh @bad`` after the meshes.  The other rules add a mesh
    ``@bad = <["x"=8, "y"=4]>`` and, at a random point of the function body, an op on a fresh
    ``tensor<24xf32>`` function argument (no sharding) that breaks the rule; both verifiers
    report their first error on that op's line.
    """
    rule = draw(st.sampled_from(list(rules)))
    mesh_rule = rule in ("B1", "B2", "B3", "B4", "B5", "B6")
    # a fresh func argument for the bad op (unused otherwise, so C43 really sees no operand sharding)
    v = _Val((6,), "f32")
    if rule != "C43":
        v.sharding = TensorShardingAttr("bad", (DimensionShardingAttr((AxisRefAttr("x"),)),))
    lines, b, args = _build(draw, max_ops, None if mesh_rule else v)
    n_mesh = len(b.mesh_lines)
    func_at = n_mesh
    if mesh_rule:
        lines.insert(n_mesh, _bad_mesh_line(rule, draw))
        return InvalidModule("\n".join(lines) + "\n", rule, n_mesh + 1)
    lines.insert(n_mesh, 'sdy.mesh @bad = <["x"=8, "y"=2]>')
    func_at += 1
    # insert among the top-level ops of the body (two-space indent), before the return
    body_tops = [i for i in range(func_at + 1, len(lines) - 1)
                 if lines[i].startswith("  ") and not lines[i].startswith("   ") and not lines[i].startswith("  }")]
    at = draw(st.sampled_from(body_tops))
    lines.insert(at, "  " + _bad_op_line(rule, v, draw))
    return InvalidModule("\n".join(lines) + "\n", rule, at + 1)



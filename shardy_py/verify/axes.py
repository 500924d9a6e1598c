"""Shared sdy axis semantics: sizes, sub-axis algebra and mesh ordering.

All functions are pure and work on the frozen attribute classes of
``shardy_py.ir.attrs``.  A full axis ``"a"`` behaves like the sub-axis
``"a":(1)N`` where N is the axis size in the mesh; the helpers that need N take
the mesh.  Worked example on a mesh ``["x"=8]``: ``"x":(2)4`` covers the
devices-index range [2, 8) of axis x, its *next pre-size* is 8, it is a suffix
of ``"x"`` and overlaps ``"x":(1)4`` (ranges [1, 4) and [2, 8) intersect).
"""
from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from shardy_py.ir.attrs import AxisRefAttr, MeshAttr, SubAxisInfoAttr

__all__ = [
    "axis_ref_str", "axis_list_str", "axis_size", "pre_size", "next_pre_size", "contains", "prefix_of",
    "suffix_of", "overlaps", "can_merge", "merge", "can_coexist", "prefix_without_overlap",
    "suffix_without_overlap", "axis_sort_key", "mesh_sort_key", "is_mesh_sorted", "sort_and_merge",
    "add_axis_or_merge", "axis_set_diff", "sharded_size", "axis_sizes",
]


def axis_ref_str(ref: AxisRefAttr) -> str:
    """``"a"`` or ``"a":(2)4``, as written in the assembly."""
    name = '"' + ref.name.replace("\\", "\\\\").replace('"', '\\22') + '"'
    if ref.sub_axis_info is None:
        return name
    return f"{name}:({ref.sub_axis_info.pre_size}){ref.sub_axis_info.size}"


def axis_list_str(refs: Iterable[AxisRefAttr]) -> str:
    """``["a", "b":(1)2]`` (``[]`` when empty)."""
    return "[" + ", ".join(axis_ref_str(r) for r in refs) + "]"


@functools.lru_cache(maxsize=4096)
def axis_sizes(mesh: MeshAttr) -> dict[str, int]:
    """Axis name -> size for ``mesh`` (first definition wins), cached per mesh."""
    out: dict[str, int] = {}
    for a in mesh.axes:
        out.setdefault(a.name, a.size)
    return out


@functools.lru_cache(maxsize=4096)
def _axis_positions(mesh: MeshAttr) -> dict[str, int]:
    out: dict[str, int] = {}
    for i, a in enumerate(mesh.axes):
        out.setdefault(a.name, i)
    return out


def axis_size(ref: AxisRefAttr, mesh: MeshAttr) -> int:
    """Size of the (sub-)axis; 1 for an axis the mesh does not have."""
    if ref.sub_axis_info is not None:
        return ref.sub_axis_info.size
    return axis_sizes(mesh).get(ref.name, 1)


def pre_size(ref: AxisRefAttr) -> int:
    """The sub-axis pre-size (1 for a full axis)."""
    return 1 if ref.sub_axis_info is None else ref.sub_axis_info.pre_size


def next_pre_size(ref: AxisRefAttr, mesh: MeshAttr) -> int:
    """pre-size * size for a sub-axis, the full size for a full axis."""
    info = ref.sub_axis_info
    if info is None:
        return axis_sizes(mesh).get(ref.name, 1)
    return info.pre_size * info.size


def _sub_next(info: SubAxisInfoAttr) -> int:
    return info.pre_size * info.size


def contains(a: AxisRefAttr, b: AxisRefAttr) -> bool:
    """True if ``a`` covers all of ``b`` (same axis name)."""
    if a.name != b.name:
        return False
    if a.sub_axis_info is None:
        return True
    if b.sub_axis_info is None:
        return False
    return a.sub_axis_info.pre_size <= b.sub_axis_info.pre_size and _sub_next(a.sub_axis_info) >= _sub_next(
        b.sub_axis_info)


def prefix_of(a: AxisRefAttr, b: AxisRefAttr) -> bool:
    """True if ``a`` is contained in ``b`` and starts where ``b`` starts."""
    return contains(b, a) and pre_size(a) == pre_size(b)


def suffix_of(a: AxisRefAttr, b: AxisRefAttr, mesh: MeshAttr) -> bool:
    """True if ``a`` is contained in ``b`` and ends where ``b`` ends."""
    return contains(b, a) and next_pre_size(a, mesh) == next_pre_size(b, mesh)


def overlaps(a: AxisRefAttr, b: AxisRefAttr) -> bool:
    """True if the two refs share part of the same axis."""
    if a.name != b.name:
        return False
    ai, bi = a.sub_axis_info, b.sub_axis_info
    if ai is None or bi is None:
        return True
    return ai.pre_size < _sub_next(bi) and bi.pre_size < _sub_next(ai)


def can_merge(a: AxisRefAttr, b: AxisRefAttr) -> bool:
    """True if sub-axis ``b`` starts exactly where sub-axis ``a`` ends."""
    if a.name != b.name or a.sub_axis_info is None or b.sub_axis_info is None:
        return False
    return _sub_next(a.sub_axis_info) == b.sub_axis_info.pre_size


def merge(a: AxisRefAttr, b: AxisRefAttr, mesh: MeshAttr) -> AxisRefAttr:
    """The union of two mergeable sub-axes (the full axis when it covers it)."""
    pre = a.sub_axis_info.pre_size
    size = a.sub_axis_info.size * b.sub_axis_info.size
    if axis_sizes(mesh).get(a.name) == size:
        return AxisRefAttr(a.name)
    return AxisRefAttr(a.name, SubAxisInfoAttr(pre, size))


def _coexist(min_pre: int, max_pre: int, min_next: int, max_next: int) -> bool:
    if min_next > max_pre:
        return min_next % max_pre == 0 and max_pre % min_pre == 0 and max_next % min_next == 0
    return max_pre % min_next == 0


def can_coexist(a: AxisRefAttr, b: AxisRefAttr) -> bool:
    """True if two refs of one axis can both be sub-axes of a single factorisation."""
    if a.name != b.name or a.sub_axis_info is None or b.sub_axis_info is None:
        return True
    ap, bp = a.sub_axis_info.pre_size, b.sub_axis_info.pre_size
    an, bn = _sub_next(a.sub_axis_info), _sub_next(b.sub_axis_info)
    if min(ap, bp) <= 0 or min(an, bn) <= 0:
        return False
    return _coexist(min(ap, bp), max(ap, bp), min(an, bn), max(an, bn))


def prefix_without_overlap(a: AxisRefAttr, b: AxisRefAttr) -> AxisRefAttr | None:
    """The part of ``a`` before ``b`` starts (``a`` itself if they do not overlap)."""
    if not can_coexist(a, b):
        return None
    if not overlaps(a, b):
        return a
    ap, bp = pre_size(a), pre_size(b)
    if ap >= bp:
        return None
    return AxisRefAttr(a.name, SubAxisInfoAttr(ap, bp // ap))


def suffix_without_overlap(a: AxisRefAttr, b: AxisRefAttr, mesh: MeshAttr) -> AxisRefAttr | None:
    """The part of ``a`` after ``b`` ends (``a`` itself if they do not overlap)."""
    if not can_coexist(a, b):
        return None
    if not overlaps(a, b):
        return a
    an, bn = next_pre_size(a, mesh), next_pre_size(b, mesh)
    if an <= bn:
        return None
    return AxisRefAttr(a.name, SubAxisInfoAttr(bn, an // bn))


def _same_name_key(ref: AxisRefAttr) -> tuple:
    # Full axis sorts like pre-size 1 with an "infinite" size, after every (1)k sub-axis
    # and before every sub-axis with pre-size > 1.
    info = ref.sub_axis_info
    if info is None:
        return (1, 1, float("inf"))
    if info.pre_size == 1:
        return (1, 0, info.size)
    return (2, info.pre_size, info.size)


def axis_sort_key(ref: AxisRefAttr) -> tuple:
    """Key of the mesh-independent order of axis refs (by name, then sub-axis)."""
    return (ref.name, _same_name_key(ref))


def mesh_sort_key(mesh: MeshAttr):
    """Key function ordering axis refs the way the mesh lists their axes (unknown names last)."""
    pos = _axis_positions(mesh)
    big = len(mesh.axes)

    def key(ref: AxisRefAttr) -> tuple:
        return (pos.get(ref.name, big), ref.name if ref.name not in pos else "", _same_name_key(ref))

    return key


def is_mesh_sorted(refs: Sequence[AxisRefAttr], mesh: MeshAttr) -> bool:
    """True if no ref sorts strictly before the one preceding it."""
    key = mesh_sort_key(mesh)
    keys = [key(r) for r in refs]
    return all(keys[i] <= keys[i + 1] for i in range(len(keys) - 1))


def add_axis_or_merge(axes: list[AxisRefAttr], ref: AxisRefAttr, mesh: MeshAttr) -> None:
    """Append ``ref`` to ``axes``, merging it into the last axis when they are adjacent."""
    if axes and can_merge(axes[-1], ref):
        axes[-1] = merge(axes[-1], ref, mesh)
    else:
        axes.append(ref)


def sort_and_merge(refs: Iterable[AxisRefAttr], mesh: MeshAttr) -> list[AxisRefAttr]:
    """Refs sorted in mesh order with adjacent mergeable sub-axes merged."""
    out: list[AxisRefAttr] = []
    for ref in sorted(refs, key=mesh_sort_key(mesh)):
        add_axis_or_merge(out, ref, mesh)
    return out


def axis_set_diff(a: Sequence[AxisRefAttr], b: Sequence[AxisRefAttr], mesh: MeshAttr) -> list[AxisRefAttr]:
    """The parts of the axes in ``a`` not covered by any axis of ``b`` (sub-axis aware)."""
    if not a or tuple(a) == tuple(b):
        return []
    if not b:
        return list(a)
    out: list[AxisRefAttr] = []
    for ref in a:
        cur: AxisRefAttr | None = ref
        guard = 0
        while cur is not None and guard < 64:
            guard += 1
            hit = next((x for x in sorted(b, key=axis_sort_key) if overlaps(cur, x)), None)
            if hit is None:
                out.append(cur)
                break
            pre = prefix_without_overlap(cur, hit)
            if pre is not None:
                out.append(pre)
            cur = suffix_without_overlap(cur, hit, mesh)
    return out


def sharded_size(refs: Iterable[AxisRefAttr], mesh: MeshAttr) -> int:
    """Product of the sizes of ``refs`` in ``mesh``."""
    n = 1
    for r in refs:
        n *= axis_size(r, mesh)
    return n

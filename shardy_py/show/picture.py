"""``Picture``: everything drawn for one sharded tensor, whatever it is drawn on (terminal, HTML).

A picture holds the value's name and type, its sharding and mesh, the ``Layout`` (or the
reason there is none: an undefined mesh, a sharding that does not fit) and the notes printed
under the grid.  A value that is not a tensor (a token, as JAX's host callbacks return) or whose
shape is unknown (an unranked tensor) has no tiles to draw: its picture says in words where it
lives (``token, on device 0``).
"""
from __future__ import annotations

from collections.abc import Sequence

import attrs

from shardy_py.ir.attrs import MeshAttr, TensorShardingAttr
from shardy_py.ir.module import Module
from shardy_py.ir.ops import Location
from shardy_py.ir.types import RankedTensorType, Type, UnrankedTensorType, parse_type
from shardy_py.show.layout import Layout, LayoutError, compute_layout
from shardy_py.show.notes import layout_notes, size_line
from shardy_py.show.values import ShardedValue


@attrs.frozen
class Picture:
    """One sharded value ready to draw; ``layout`` is None exactly when ``error`` says why or
    ``description`` says in words where a value without tiles (a token) lives."""

    title: str
    what: str | None
    type_text: str | None
    sharding: TensorShardingAttr
    mesh_text: str | None
    layout: Layout | None
    element_type: str | None = None
    shape_known: bool = True
    error: str | None = None
    loc: Location | None = None
    description: str | None = None

    @property
    def notes(self) -> list[str]:
        """The size line, then the layout's notes (empty when there is no layout)."""
        if self.layout is None:
            return []
        return [size_line(self.layout, self.element_type, self.shape_known),
                *layout_notes(self.layout, self.shape_known)]


def mesh_text(sharding: TensorShardingAttr, mesh: MeshAttr | None) -> str | None:
    """``@mesh = <["x"=2]>`` for a named mesh, ``<["x"=2]>`` for an inline one; None when unknown."""
    if mesh is None:
        return None
    body = str(mesh).removeprefix("#sdy.mesh")
    return f"@{sharding.mesh_name} = {body}" if sharding.mesh_name else body


def _shape_of(t: Type | None) -> tuple[tuple[int, ...] | None, str | None, str | None]:
    """(shape, element type, error) of a value's type."""
    if isinstance(t, RankedTensorType):
        return t.shape, t.element_type, None
    if t is None:
        return None, None, "its type is not known"
    return None, None, f"type {t} is not a ranked tensor"


def _unwrapped(t: Type | None) -> Type | None:
    """The element of a one-element ``tuple<...>`` (its sharding describes the element, as in Shardy)."""
    from shardy_py.verify.typeutil import tuple_elements

    elements = tuple_elements(t)
    return elements[0] if elements is not None and len(elements) == 1 else t


def _kind_of(t: Type) -> str:
    text = str(t)
    if text in ("!stablehlo.token", "!mhlo.token") or text.endswith(".token"):
        return "token"
    if isinstance(t, UnrankedTensorType):
        return f"unranked tensor {text}"
    return text


def describe(sharding: TensorShardingAttr, mesh: MeshAttr, t: Type) -> str | None:
    """Where a value that has no tiles lives, in words (``token, on device 0``), when its
    sharding splits nothing (rank 0, no replicated or unreduced axes, as Shardy requires
    of non-tensor values); None when the sharding does split it."""
    if sharding.dim_shardings or sharding.replicated_axes or sharding.unreduced_axes:
        return None
    kind = _kind_of(t)
    if mesh.is_maximal:
        return f"{kind}, on device {mesh.device_ids[0]}"
    if not mesh.axes:
        return f"{kind}, on an empty mesh (no devices named)"
    n = mesh.total_size
    return f"{kind}, on every device of the mesh ({n} device{'s' if n != 1 else ''}), not split"


def draw(title: str, sharding: TensorShardingAttr, mesh: MeshAttr | None, t: Type | None, *,
         what: str | None = None, manual_axes: Sequence[str] = (), loc: Location | None = None,
         shape_known: bool = True) -> Picture:
    """The ``Picture`` of a value of type ``t`` with ``sharding`` on ``mesh`` (see ``Picture``)."""
    common = dict(title=title, what=what, type_text=None if t is None else str(t), sharding=sharding,
                  mesh_text=mesh_text(sharding, mesh), loc=loc, shape_known=shape_known)
    if mesh is None:
        return Picture(layout=None, error=f"sharding refers to undefined mesh @{sharding.mesh_name}", **common)
    if not shape_known:
        shape, element_type, error = None, None, None
    else:
        shape, element_type, error = _shape_of(_unwrapped(t))
    if error:
        words = describe(sharding, mesh, t) if t is not None else None
        if words is not None:
            return Picture(layout=None, description=words, **common)
        return Picture(layout=None, error=f"cannot draw {title}: {error}", **common)
    try:
        layout = compute_layout(sharding, mesh, shape, manual_axes)
    except LayoutError as e:
        return Picture(layout=None, error=f"cannot draw {title}: {e}", element_type=element_type, **common)
    return Picture(layout=layout, element_type=element_type, **common)


def picture_of_value(value: ShardedValue, module: Module, qualified: bool = False) -> Picture:
    """The picture of one sharded value of ``module`` (its mesh resolved in the module)."""
    title = value.qualified_name if qualified else value.name
    return draw(title, value.sharding, module.resolve_mesh(value.sharding), value.type, what=value.what,
                manual_axes=value.manual_axes, loc=value.loc)


def as_type(shape: str | Type | Sequence[int | None] | None, element_type: str | None = None) -> Type | None:
    """A tensor type from what a user passes: a type, its text, or a shape (``-1``/None dynamic).

    A shape without ``element_type`` gives a tensor type whose text is the bare shape
    (``8x16``): it can be drawn, but its bytes are unknown.
    """
    if shape is None or isinstance(shape, Type):
        return shape
    if isinstance(shape, str):
        return parse_type(shape)
    dims = tuple(-1 if d is None or d == -1 else int(d) for d in shape)
    text = "x".join("?" if d == -1 else str(d) for d in dims)
    if element_type:
        return parse_type(f"tensor<{text}{'x' if dims else ''}{element_type}>")
    return RankedTensorType(text or "scalar", dims, "", None)

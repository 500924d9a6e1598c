"""The user-facing objects: ``ShardingView`` (one sharding, a mesh and a shape) and the
pictures of a whole module, as terminal text, ``rich`` renderables or notebook HTML."""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from shardy_py.ir.attrs import MeshAttr, TensorShardingAttr
from shardy_py.ir.module import Module
from shardy_py.ir.types import Type
from shardy_py.show.html import render_html
from shardy_py.show.layout import Layout
from shardy_py.show.palette import Palette
from shardy_py.show.picture import Picture, as_type, draw, picture_of_value
from shardy_py.show.terminal import picture_renderable, render_text
from shardy_py.show.values import ShardedValue, sharded_values


def _attr(value, kind: type, what: str):
    if isinstance(value, str):
        from shardy_py.syntax.sdy_parser import parse_sdy_attribute

        value = parse_sdy_attribute(value)
    if not isinstance(value, kind):
        raise TypeError(f"{what} must be a {kind.__name__} or its text, not {type(value).__name__}")
    return value


class ShardingView:
    """A picture of ``sharding`` laid out on ``mesh`` for a tensor of ``shape``.

    ``sharding`` and ``mesh`` are attributes or their text; ``mesh`` may be left out when the
    sharding has an inline mesh.  ``shape`` is a tensor type (``"tensor<16x8xf32>"``), a
    tuple of sizes (``-1``/None for dynamic ones, with ``dtype`` for the byte counts), or
    None: then the tiles are drawn with equal sizes and the local shape is unknown.

    In a notebook the view draws itself (``_repr_html_``); ``print(view)`` gives plain text
    and ``rich.print(view)`` coloured text.  ``view.layout`` holds the computed tiles.
    """

    def __init__(self, sharding: TensorShardingAttr | str, mesh: MeshAttr | str | None = None,
                 shape: str | Type | Sequence[int | None] | None = None, dtype: str | None = None, *,
                 name: str = "tensor", manual_axes: Sequence[str] = ()):
        self.sharding: TensorShardingAttr = _attr(sharding, TensorShardingAttr, "sharding")
        if mesh is None:
            if not isinstance(self.sharding.mesh_or_ref, MeshAttr):
                raise ValueError(f"{self.sharding} refers to mesh @{self.sharding.mesh_name}: "
                                 "pass its MeshAttr as mesh")
            mesh = self.sharding.mesh_or_ref
        self.mesh: MeshAttr = _attr(mesh, MeshAttr, "mesh")
        t = as_type(shape, dtype)
        self.picture: Picture = draw(name, self.sharding, self.mesh, t, manual_axes=manual_axes,
                                     shape_known=shape is not None)

    @property
    def layout(self) -> Layout | None:
        """The tiles and their devices; None when the sharding does not fit (see ``error``)."""
        return self.picture.layout

    @property
    def error(self) -> str | None:
        return self.picture.error

    def text(self, width: int = 100, colour: bool = False) -> str:
        """The picture as terminal text (ANSI colours when ``colour``)."""
        return render_text([self.picture], width=width, colour=colour)

    def _repr_html_(self) -> str:
        return render_html([self.picture])

    def __rich_console__(self, console, options):
        yield picture_renderable(self.picture, Palette(), colour=console.color_system is not None,
                                 width=options.max_width)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"<ShardingView {self.sharding} on {self.mesh} for {self.picture.type_text or 'unknown shape'}>"


def module_pictures(module: Module, names: Sequence[str] = ()) -> list[Picture]:
    """The pictures of ``module``'s sharded values (only those ``names`` match, when given).

    Raises ``KeyError`` naming the first of ``names`` that matches no sharded value.
    """
    values = sharded_values(module)
    if names:
        for name in names:
            if not any(v.matches(name) for v in values):
                raise KeyError(name)
        values = [v for v in values if any(v.matches(n) for n in names)]
    seen = Counter(v.name for v in values)
    return [picture_of_value(v, module, qualified=seen[v.name] > 1) for v in values]


def module_html(module: Module) -> str:
    """Every sharded value of ``module`` as one HTML fragment (``Module._repr_html_``)."""
    pictures = module_pictures(module)
    if not pictures:
        return '<div class="shardy-show"><i>no sharded values</i></div>'
    return render_html(pictures)


def sharding_html(sharding: TensorShardingAttr) -> str | None:
    """``TensorShardingAttr._repr_html_``: the picture when the mesh is inline (tiles drawn equal,
    as the attribute has no shape); None for a mesh reference, which only a module can resolve."""
    if not isinstance(sharding.mesh_or_ref, MeshAttr):
        return None
    return ShardingView(sharding, name="sharding")._repr_html_()


__all__ = ["ShardingView", "ShardedValue", "module_html", "module_pictures", "sharding_html"]

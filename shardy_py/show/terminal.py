"""Pictures as ``rich`` renderables, the way ``jax.debug.visualize_sharding`` draws them.

Each tile is a cell whose width and height follow the shard's extent, labelled with the
ids of the devices holding it.  With colour, every distinct device set has its own
background (from a shared ``Palette``) and there are no borders; without colour the
cells are boxed.  Rank >= 3 draws one grid per tile of the leading dims, or a compact
table (one row per tile) when the grids would not fit.
"""
from __future__ import annotations

import io
import re

from rich import box
from rich.align import Align
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from shardy_py.show.geometry import GridPlan, plan_grids
from shardy_py.show.highlight import highlight
from shardy_py.show.labels import device_label, tile_range
from shardy_py.show.layout import Layout
from shardy_py.show.palette import Palette, text_colour
from shardy_py.show.picture import Picture

INDENT = 2
#: More grids than this (tiles of the leading dims) and rank >= 3 is drawn as a table.
MAX_GRIDS = 16
#: Rows of the compact table before it is cut.
MAX_TABLE_ROWS = 256
#: Columns between grids drawn side by side.
GRID_GAP = 2
_TRAILING_SPACES = re.compile(r" +$", re.M)


def _cell_style(layout: Layout, index: tuple[int, ...], palette: Palette, colour: bool) -> str:
    if not colour:
        return ""
    bg = palette.colour(layout.cells[index])
    return f"{text_colour(bg)} on {bg}"


def _label(layout: Layout, index: tuple[int, ...]) -> str:
    return device_label(layout.cells[index], layout.every_device)


def _grid_table(layout: Layout, plan: GridPlan, cells, palette: Palette, colour: bool) -> Table:
    if colour:
        table = Table(show_header=False, box=None, padding=0, pad_edge=False, show_edge=False, collapse_padding=True)
    else:
        table = Table(show_header=False, box=box.SQUARE, show_lines=True, padding=0, pad_edge=False)
    for w in plan.widths:
        table.add_column(width=w, no_wrap=True)
    for row, height in zip(cells, plan.heights, strict=True):
        table.add_row(*(Align(Text(_label(layout, index)), "center", vertical="middle", height=height,
                              style=_cell_style(layout, index, palette, colour)) for index in row))
    return table


def _lead_title(layout: Layout, lead: tuple[int, ...]) -> Text:
    ranges = [tile_range(layout.dims[d], i) for d, i in enumerate(lead)]
    return Text("[" + ", ".join(ranges + [":", ":"]) + "]", style="bold")


def _grids(layout: Layout, plan: GridPlan, palette: Palette, colour: bool, width: int) -> list[RenderableType]:
    tables = [_grid_table(layout, plan, grid.cells, palette, colour) for grid in plan.grids]
    if layout.rank < 3:
        return tables
    # Rank >= 3: titled grids side by side, as many to a row as fit.
    grid_width = sum(plan.widths) + (0 if colour else len(plan.widths) + 1)
    per_row = max(1, (width + GRID_GAP) // (grid_width + GRID_GAP))
    titled = [Group(_lead_title(layout, grid.lead), table) for grid, table in zip(plan.grids, tables, strict=True)]
    out: list[RenderableType] = []
    for k in range(0, len(titled), per_row):
        row = Table.grid(padding=(0, GRID_GAP, 0, 0))
        chunk = titled[k:k + per_row]
        for _ in chunk:
            row.add_column(width=grid_width, no_wrap=True)
        row.add_row(*chunk)
        out.append(row)
    return out


def _compact_table(layout: Layout, palette: Palette, colour: bool, max_rows: int) -> list[RenderableType]:
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False)
    for d in range(layout.rank):
        table.add_column(f"dim {d}", justify="right", no_wrap=True)
    table.add_column("devices", no_wrap=True)
    tiles = list(layout.cells)
    for index in tiles[:max_rows]:
        ranges = [tile_range(layout.dims[d], i) for d, i in enumerate(index)]
        table.add_row(*ranges, Text(f" {_label(layout, index)} ", style=_cell_style(layout, index, palette, colour)))
    out: list[RenderableType] = [table]
    if len(tiles) > max_rows:
        out.append(Text(f"… {len(tiles) - max_rows} more tiles ({len(tiles)} in all)", style="dim"))
    return out


def header(pic: Picture) -> Text:
    """``%arg0: tensor<8x16xf32>  (argument 0 of @main)`` then the sharding and mesh lines."""
    out = Text()
    out.append(pic.title, style="bold")
    if pic.type_text:
        out.append(": ")
        out.append_text(highlight(pic.type_text))
    if pic.what:
        out.append(f"  ({pic.what})", style="dim")
    out.append("\n" + " " * INDENT)
    out.append_text(highlight(str(pic.sharding)))
    if pic.mesh_text and pic.sharding.mesh_name:
        out.append("\n" + " " * INDENT + "mesh ")
        out.append_text(highlight(pic.mesh_text))
    return out


def picture_renderable(pic: Picture, palette: Palette, *, colour: bool, width: int,
                       max_grids: int = MAX_GRIDS, max_rows: int = MAX_TABLE_ROWS) -> RenderableType:
    """``pic`` as one ``rich`` renderable, ``width`` characters wide at most."""
    parts: list[RenderableType] = [header(pic)]
    layout = pic.layout
    if layout is None:
        line = Text(pic.description) if pic.description else Text(f"error: {pic.error}", style="bold red")
        parts.append(Padding(line, (0, 0, 0, INDENT), expand=False))
        return Group(*parts)
    plan = plan_grids(layout, lambda index: _label(layout, index), width - INDENT, min_height=3 if colour else 1,
                      border=0 if colour else 1, max_grids=max_grids)
    if plan:
        body = _grids(layout, plan, palette, colour, width - INDENT)
    else:
        body = _compact_table(layout, palette, colour, max_rows)
    notes = [Text(n, style="dim") for n in pic.notes]
    parts.append(Padding(Group(*body, *notes), (0, 0, 0, INDENT), expand=False))
    return Group(*parts)


def render_text(pictures: list[Picture], *, width: int = 100, colour: bool = False, palette: Palette | None = None,
                max_grids: int = MAX_GRIDS, max_rows: int = MAX_TABLE_ROWS) -> str:
    """Pictures as terminal text: ANSI truecolour when ``colour``, plain boxes otherwise."""
    palette = palette or Palette()
    buf = io.StringIO()
    console = Console(file=buf, width=width, color_system="truecolor" if colour else None, force_terminal=colour,
                      highlight=False, emoji=False, legacy_windows=False, soft_wrap=False)
    for k, pic in enumerate(pictures):
        if k:
            console.print()
        console.print(picture_renderable(pic, palette, colour=colour, width=width, max_grids=max_grids,
                                         max_rows=max_rows))
    return _TRAILING_SPACES.sub("", buf.getvalue())

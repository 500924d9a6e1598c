"""Pictures as HTML, for notebooks (``_repr_html_``) and ``show --html``.

The same grids as in the terminal, as CSS grids with inline styles only (notebooks drop
``<style>`` blocks in untrusted output): cell sizes follow shard extents, every distinct
device set has its colour, each cell says which devices hold it and carries the full list
in ``data-devices`` (space-separated ids) and its tooltip.
"""
from __future__ import annotations

from html import escape

from shardy_py.show.geometry import GridPlan, plan_grids
from shardy_py.show.highlight import highlight_html
from shardy_py.show.labels import device_label, tile_range
from shardy_py.show.layout import Layout
from shardy_py.show.palette import Palette, text_colour
from shardy_py.show.picture import Picture

#: Picture width in character cells (as the terminal's), and pixels per cell.
HTML_COLUMNS = 100
PX_PER_COLUMN = 8
PX_PER_LINE = 14
MAX_GRIDS = 16
MAX_TABLE_ROWS = 256

_FONT = "font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px"
_NOTE = "color:#57606a;margin:1px 0"


def _cell(layout: Layout, index: tuple[int, ...], palette: Palette) -> str:
    devices = layout.cells[index]
    bg = palette.colour(devices)
    full = "all devices" if layout.every_device else " ".join(map(str, devices))
    label = escape(device_label(devices, layout.every_device))
    return (f'<div data-devices="{full}" title="devices {escape(full)}" style="background:{bg};'
            f"color:{text_colour(bg)};display:flex;align-items:center;justify-content:center;"
            f'overflow:hidden;white-space:nowrap">{label}</div>')


def _grid(layout: Layout, plan: GridPlan, cells, palette: Palette) -> str:
    columns = " ".join(f"{w * PX_PER_COLUMN}px" for w in plan.widths)
    rows = " ".join(f"{h * PX_PER_LINE}px" for h in plan.heights)
    body = "".join(_cell(layout, index, palette) for row in cells for index in row)
    return (f'<div style="display:inline-grid;grid-template-columns:{columns};grid-template-rows:{rows};'
            f'gap:1px;background:#ffffff;border:1px solid #d0d7de">{body}</div>')


def _grids(layout: Layout, plan: GridPlan, palette: Palette) -> str:
    parts = []
    for grid in plan.grids:
        table = _grid(layout, plan, grid.cells, palette)
        if layout.rank >= 3:
            ranges = [tile_range(layout.dims[d], i) for d, i in enumerate(grid.lead)]
            title = escape("[" + ", ".join(ranges + [":", ":"]) + "]")
            table = f'<div><div style="font-weight:bold">{title}</div>{table}</div>'
        parts.append(table)
    return f'<div style="display:flex;flex-wrap:wrap;gap:12px;margin:4px 0">{"".join(parts)}</div>'


def _compact_table(layout: Layout, palette: Palette, max_rows: int) -> str:
    head = "".join(f'<th style="padding:0 6px">dim {d}</th>' for d in range(layout.rank)) + "<th>devices</th>"
    rows = []
    tiles = list(layout.cells)
    for index in tiles[:max_rows]:
        ranges = "".join(f'<td style="padding:0 6px;text-align:right">{escape(tile_range(layout.dims[d], i))}</td>'
                         for d, i in enumerate(index))
        rows.append(f"<tr>{ranges}<td>{_cell(layout, index, palette)}</td></tr>")
    more = ""
    if len(tiles) > max_rows:
        more = f'<div style="{_NOTE}">… {len(tiles) - max_rows} more tiles ({len(tiles)} in all)</div>'
    return f'<table style="border-collapse:collapse;margin:4px 0"><tr>{head}</tr>{"".join(rows)}</table>{more}'


def picture_html(pic: Picture, palette: Palette, *, max_grids: int = MAX_GRIDS, max_rows: int = MAX_TABLE_ROWS) -> str:
    """One picture as a self-contained ``<div>``."""
    head = f"<b>{escape(pic.title)}</b>"
    if pic.type_text:
        head += f": <code>{highlight_html(pic.type_text)}</code>"
    if pic.what:
        head += f' <span style="color:#57606a">({escape(pic.what)})</span>'
    lines = [f"<div>{head}</div>", f"<div><code>{highlight_html(str(pic.sharding))}</code></div>"]
    if pic.mesh_text and pic.sharding.mesh_name:
        lines.append(f"<div><code>mesh {highlight_html(pic.mesh_text)}</code></div>")
    layout = pic.layout
    if layout is None and pic.description:
        lines.append(f"<div>{escape(pic.description)}</div>")
    elif layout is None:
        lines.append(f'<div style="color:#cf222e;font-weight:bold">error: {escape(pic.error or "")}</div>')
    else:
        plan = plan_grids(layout, lambda index: device_label(layout.cells[index], layout.every_device), HTML_COLUMNS,
                          min_height=3, border=0, max_grids=max_grids)
        lines.append(_grids(layout, plan, palette) if plan else _compact_table(layout, palette, max_rows))
        lines.extend(f'<div style="{_NOTE}">{escape(n)}</div>' for n in pic.notes)
    return f'<div style="margin:0 0 14px 0">{"".join(lines)}</div>'


def render_html(pictures: list[Picture], palette: Palette | None = None, **kwargs) -> str:
    """Pictures as one HTML fragment (what ``_repr_html_`` returns)."""
    palette = palette or Palette()
    body = "".join(picture_html(p, palette, **kwargs) for p in pictures)
    return f'<div class="shardy-show" style="{_FONT}">{body}</div>'


def html_page(fragment: str, title: str = "shardy_py show") -> str:
    """A complete HTML document around ``fragment`` (for browsers and ``show --html``)."""
    return (f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{escape(title)}</title></head>'
            f'<body style="background:#ffffff;margin:12px">{fragment}</body></html>\n')

"""A module's shardings before and after propagation, side by side.

``before_after(before, after)`` pairs every sharded value of the propagated module ``after``
with the same value of ``before`` (``shardy_py.propagate`` returns a copy that keeps each op's
and argument's source location, so values are matched by enclosing func, location, and
argument/result index) and draws the two pictures next to each other with ``show``'s own
drawing functions; a value that had no sharding before says ``no sharding``.
"""
from __future__ import annotations

import io
import re
from collections.abc import Sequence
from html import escape

import attrs
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from shardy_py.ir.module import Module
from shardy_py.show.html import picture_html
from shardy_py.show.palette import Palette
from shardy_py.show.picture import Picture, picture_of_value
from shardy_py.show.terminal import _TRAILING_SPACES, picture_renderable
from shardy_py.show.values import ShardedValue, sharded_values

NO_SHARDING = "no sharding"
_WHAT = re.compile(r"^(argument|result|in_shardings\[)(\d+)")
_GAP = 3


def _key(v: ShardedValue) -> tuple:
    """What identifies ``v`` across propagation: func, source location and position."""
    m = _WHAT.match(v.what)
    kind = (m.group(1), int(m.group(2)), " of @" in v.what) if m else (v.what,)
    loc = (v.loc.line, v.loc.column) if v.loc else None
    return (v.func, loc, kind)


@attrs.frozen
class Pair:
    """One value: its picture before propagation (None: it had no sharding) and after."""

    title: str
    before: Picture | None
    after: Picture | None


def _label(v: ShardedValue) -> str:
    return v.qualified_name if v.name else f"@{v.func}:<{v.what}>" if v.func else f"<{v.what}>"


def pairs(before: Module, after: Module, names: Sequence[str] = ()) -> list[Pair]:
    """The values of ``after`` (then those only ``before`` has), matched to ``before``'s.

    ``names`` selects values as ``show --value`` does (matched against either module);
    raises ``KeyError`` naming the first that matches nothing.
    """
    old = sharded_values(before)
    new = sharded_values(after)
    for name in names:
        if not any(v.matches(name) for v in old + new):
            raise KeyError(name)
    old_by_key = {_key(v): v for v in old}
    new_keys = {_key(v) for v in new}
    out: list[Pair] = []
    for v in new:
        b = old_by_key.get(_key(v))
        if names and not any(v.matches(n) or (b is not None and b.matches(n)) for n in names):
            continue
        out.append(Pair(_label(v if v.name or b is None else b), b and picture_of_value(b, before, True),
                        picture_of_value(v, after, True)))
    for v in old:
        if _key(v) not in new_keys and (not names or any(v.matches(n) for n in names)):
            out.append(Pair(_label(v), picture_of_value(v, before, True), None))
    return out


def _side(pic: Picture | None, palette: Palette, colour: bool, width: int) -> RenderableType:
    if pic is None:
        return Text(NO_SHARDING, style="dim")
    return picture_renderable(pic, palette, colour=colour, width=width)


def render_pairs_text(items: list[Pair], *, width: int = 100, colour: bool = False) -> str:
    """``items`` as terminal text: a title line, then before | after in two columns."""
    palette = Palette()
    half = max(20, (width - _GAP) // 2)
    buf = io.StringIO()
    console = Console(file=buf, width=max(width, 2 * half + _GAP), color_system="truecolor" if colour else None,
                      force_terminal=colour, highlight=False, emoji=False, legacy_windows=False, soft_wrap=False)
    for k, item in enumerate(items):
        if k:
            console.print()
        console.print(Text(item.title, style="bold"))
        grid = Table(box=None, padding=(0, _GAP, 0, 0), pad_edge=False, show_edge=False, header_style="underline")
        grid.add_column("before", width=half, no_wrap=True)
        grid.add_column("after", width=half, no_wrap=True)
        grid.add_row(_side(item.before, palette, colour, half), _side(item.after, palette, colour, half))
        console.print(grid)
    return _TRAILING_SPACES.sub("", buf.getvalue())


def render_pairs_html(items: list[Pair]) -> str:
    """``items`` as one HTML fragment: per value a title and the two pictures in a row."""
    palette = Palette()

    def side(label: str, pic: Picture | None) -> str:
        body = picture_html(pic, palette) if pic else f'<div style="color:#57606a">{NO_SHARDING}</div>'
        return f'<div style="flex:1"><div style="text-decoration:underline">{label}</div>{body}</div>'

    rows = "".join(f'<div style="margin:0 0 14px 0"><b>{escape(i.title)}</b>'
                   f'<div style="display:flex;gap:24px">{side("before", i.before)}{side("after", i.after)}</div></div>'
                   for i in items)
    return ('<div class="shardy-show" style="font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;'
            f'font-size:12px">{rows or "<i>no sharded values</i>"}</div>')


class BeforeAfter:
    """Shardings before and after propagation; ``str()`` draws text, notebooks call ``_repr_html_``."""

    def __init__(self, before: Module, after: Module, names: Sequence[str] = ()):
        self.pairs: list[Pair] = pairs(before, after, names)

    def text(self, width: int = 100, colour: bool = False) -> str:
        """Terminal text, ``width`` columns (ANSI colours when ``colour``)."""
        return render_pairs_text(self.pairs, width=width, colour=colour)

    def _repr_html_(self) -> str:
        return render_pairs_html(self.pairs)

    def __str__(self) -> str:
        return self.text()


def before_after(before: Module, after: Module, names: Sequence[str] = ()) -> BeforeAfter:
    """``before`` and its propagated copy ``after`` side by side (only ``names``, when given)."""
    return BeforeAfter(before, after, names)


__all__ = ["BeforeAfter", "Pair", "before_after", "pairs", "render_pairs_html", "render_pairs_text"]

"""``python -m shardy_py show FILE``: draw how every sharded value is laid out over devices.

Exit status: 0 when every picture was drawn, 1 when the file does not parse or some value
cannot be drawn (undefined mesh, a sharding that does not fit), 2 for usage errors (an
unreadable file, a --value that names no sharded value).
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys

from shardy_py.errors import ParseError, source_lines

DEFAULT_WIDTH = 100


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``show`` options to ``parser``."""
    parser.add_argument("file", metavar="FILE", help="MLIR file ('-' for standard input)")
    parser.add_argument("--value", action="append", default=[], metavar="NAME",
                        help="only this value (%%arg0, %%3, %%3#1, result0, %%3:in0, or @func:NAME); repeatable")
    parser.add_argument("--html", action="store_true", help="write an HTML page instead of terminal text")
    add_drawing_arguments(parser)


def add_drawing_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of every command that draws pictures (``show``, ``propagate --show``)."""
    parser.add_argument("--width", type=int, default=None, help="columns to draw in (default: the terminal's)")
    parser.add_argument("--color", "--colour", choices=("auto", "always", "never"), default="auto",
                        help="colour cells by device set (auto: when writing to a terminal and NO_COLOR is unset)")
    parser.add_argument("--max-grids", type=int, default=16, metavar="N",
                        help="rank >= 3: draw at most N grids, else a table of tiles (default 16)")
    parser.add_argument("--max-rows", type=int, default=256, metavar="N",
                        help="rows of a table of tiles before it is cut (default 256)")


def drawing_usage_error(args: argparse.Namespace, command: str) -> bool:
    """Report a drawing option out of range (True), or say all are fine (False)."""
    if args.width is not None and args.width < 20:
        print(f"shardy-py {command}: --width must be at least 20", file=sys.stderr)
        return True
    if args.max_grids < 0 or args.max_rows < 1:
        print(f"shardy-py {command}: --max-grids must be >= 0 and --max-rows >= 1", file=sys.stderr)
        return True
    return False


def drawing_width(args: argparse.Namespace) -> int:
    """``--width``, else the terminal's width."""
    return args.width or shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns


def use_colour(choice: str, stream) -> bool:
    """``--color``: always, never, or (auto) when ``stream`` is a terminal and NO_COLOR is unset."""
    if choice != "auto":
        return choice == "always"
    return not os.environ.get("NO_COLOR") and hasattr(stream, "isatty") and stream.isatty()


class _Reporter:
    """Writes ``FILE:LINE:COL: error: MESSAGE`` with the source line and a caret to stderr,
    the source line highlighted with the sdy lexer when colour is on."""

    def __init__(self, name: str, source: str, colour: bool):
        self.name = name
        self.lines = source_lines(source)
        self.colour = colour

    def error(self, line: int, column: int, message: str) -> None:
        line, column = max(line, 1), max(column, 1)
        if not self.colour:
            from shardy_py.cli import format_error

            print(format_error(self.name, "\n".join(self.lines), line, column, message), file=sys.stderr)
            return
        from rich.console import Console
        from rich.text import Text

        from shardy_py.show.highlight import highlight

        console = Console(file=sys.stderr, color_system="truecolor", force_terminal=True, highlight=False,
                          soft_wrap=True, emoji=False)
        out = Text()
        out.append(f"{self.name}:{line}:{column}: ", style="bold")
        out.append("error:", style="bold red")
        out.append(f" {message}", style="bold")
        if line <= len(self.lines):
            out.append("\n")
            out.append_text(highlight(self.lines[line - 1]))
            out.append("\n" + " " * (column - 1))
            out.append("^", style="bold green")
        console.print(out)


def _parse(text: str, name: str, report: _Reporter):
    import shardy_py

    try:
        return shardy_py.parse(text, name)
    except ParseError as e:
        report.error(e.line, e.column, e.message)
    except RecursionError:
        report.error(1, 1, "input nests too deeply to parse")
    return None


def _write(text: str) -> None:
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="replace")
    sys.stdout.write(text)


def run(args: argparse.Namespace) -> int:
    """Draw the file's sharded values; returns the exit status."""
    from shardy_py.cli import read_input
    from shardy_py.show.html import html_page, render_html
    from shardy_py.show.terminal import render_text
    from shardy_py.show.values import sharded_values
    from shardy_py.show.view import module_pictures

    if drawing_usage_error(args, "show"):
        return 2
    read = read_input(args.file, "show")
    if read is None:
        return 2
    source, name = read
    report = _Reporter(name, source, use_colour(args.color, sys.stderr))
    module = _parse(source, name, report)
    if module is None:
        return 1
    try:
        pictures = module_pictures(module, args.value)
    except KeyError as e:
        known = ", ".join(v.qualified_name for v in sharded_values(module)) or "none"
        report.error(1, 1, f"no sharded value named {e.args[0]!r} (sharded values: {known})")
        return 2
    if not pictures:
        _write(f"{name}: no sharded values\n")
        return 0
    limits = dict(max_grids=args.max_grids, max_rows=args.max_rows)
    if args.html:
        _write(html_page(render_html(pictures, **limits), title=f"{name} - shardy_py show"))
    else:
        _write(render_text(pictures, width=drawing_width(args), colour=use_colour(args.color, sys.stdout), **limits))
    failed = [p for p in pictures if p.error]
    for p in failed:
        report.error(p.loc.line if p.loc else 1, p.loc.column if p.loc else 1, p.error)
    return 1 if failed else 0

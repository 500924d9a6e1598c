"""What a long command-line run is doing, on standard error while it runs.

A command runs inside ``progress_display(enabled)``: when enabled (no ``--quiet``) and standard
error is a terminal, a one-line rich display shows the current phase (reading, parsing, each pass
with its function, verifying, printing) and the time spent; otherwise nothing is drawn, so pipes,
files and CI logs get no control characters. The display is transient: it is erased when the run
ends, and what the command prints is unchanged.

Code anywhere below the command line reports with ``phase("...")``; it costs one global lookup
when no display is on (the Python API never turns one on).
"""
from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

_display = None   # (rich Progress, task id) while a display is on
_last_refresh = 0.0
REFRESH_SECONDS = 0.1


@contextmanager
def progress_display(enabled: bool = True, stream: TextIO | None = None) -> Iterator[None]:
    """Show the phases reported inside the block on ``stream`` (standard error) when ``enabled``
    and ``stream`` is a terminal; do nothing otherwise."""
    global _display
    stream = stream if stream is not None else sys.stderr
    if not enabled or _display is not None or not (hasattr(stream, "isatty") and stream.isatty()):
        yield
        return
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    console = Console(file=stream, force_terminal=True, highlight=False, emoji=False, soft_wrap=True)
    # Output to a terminal is printed above the display (rich sends it there through this stream:
    # the same terminal); output to a pipe or file is left alone.
    to_terminal = hasattr(sys.stdout, "isatty") and sys.stdout.isatty()
    progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                        console=console, transient=True, auto_refresh=True, refresh_per_second=8,
                        redirect_stdout=to_terminal, redirect_stderr=True)
    with progress:
        _display = (progress, progress.add_task("starting"))
        try:
            yield
        finally:
            _display = None


def phase(description: str) -> None:
    """Report what the run is doing now (shown only inside an enabled ``progress_display``)."""
    global _last_refresh
    if _display is None:
        return
    progress, task = _display
    progress.update(task, description=description)
    now = time.monotonic()
    if now - _last_refresh >= REFRESH_SECONDS:
        _last_refresh = now
        progress.refresh()


def is_on() -> bool:
    """Whether a display is showing (callers skip building costly descriptions otherwise)."""
    return _display is not None

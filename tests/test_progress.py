"""Progress on long runs: a rich display of the current phase on standard error when it is a
terminal, nothing otherwise, nothing with --quiet; the command's output is the same either way."""
from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest

from shardy_py import progress
from shardy_py.cli import main

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def terminal(monkeypatch):
    monkeypatch.setattr(progress, "REFRESH_SECONDS", 0.0)  # draw every phase
    return Terminal()


def run_on(stream: Terminal, monkeypatch, argv: list[str]) -> int:
    """``main(argv)`` with ``stream`` as standard error (set in the test's call phase, after pytest's capture)."""
    monkeypatch.setattr(sys, "stderr", stream)
    try:
        return main(argv)
    finally:
        monkeypatch.setattr(sys, "stderr", sys.__stderr__)


def shown(stream: Terminal) -> str:
    return ANSI.sub("", stream.getvalue().replace("\r", "\n"))


def test_phases_are_shown_on_a_terminal(terminal, capsys, monkeypatch):
    assert run_on(terminal, monkeypatch, ["propagate", "examples/mlp.mlir"]) == 0
    text = shown(terminal)
    for phase in ("parsing examples/mlp.mlir", "pass sdy-import-func-calls", "verifying after sdy-", "printing"):
        assert phase in text


def test_opt_shows_its_passes_on_each_function(terminal, capsys, monkeypatch):
    assert run_on(terminal, monkeypatch, ["opt", "examples/mlp.mlir", "-sdy-populate-op-sharding-rules"]) == 0
    assert "pass sdy-populate-op-sharding-rules on @relu" in shown(terminal)


@pytest.mark.parametrize("argv", [["propagate", "examples/mlp.mlir", "--quiet"], ["rules", "-q", "examples/mlp.mlir"],
                                  ["opt", "examples/mlp.mlir", "-sdy-basic-propagate", "--quiet"]])
def test_quiet_shows_nothing(terminal, capsys, monkeypatch, argv):
    assert run_on(terminal, monkeypatch, argv) == 0
    assert terminal.getvalue() == ""


def test_the_output_is_the_same_with_and_without_the_display(terminal, capsys, monkeypatch):
    run_on(terminal, monkeypatch, ["propagate", "examples/mlp.mlir"])
    with_display = capsys.readouterr().out
    assert "pass sdy-" in shown(terminal)
    run_on(Terminal(), monkeypatch, ["propagate", "examples/mlp.mlir", "--quiet"])
    assert capsys.readouterr().out == with_display


def test_nothing_is_drawn_when_stderr_is_not_a_terminal():
    r = subprocess.run([sys.executable, "-m", "shardy_py", "propagate", "examples/mlp.mlir"], capture_output=True,
                       text=True, timeout=120)
    assert (r.returncode, r.stderr) == (0, "")


def test_phase_outside_a_display_does_nothing():
    progress.phase("nothing to show")
    assert not progress.is_on()


def test_diagnostics_written_during_the_display_reach_stderr(terminal, capsys, monkeypatch, tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text('sdy.mesh @m = <["a"=2\n')
    assert run_on(terminal, monkeypatch, ["verify", str(bad)]) == 1
    assert f"{bad}:1:" in shown(terminal) and "error:" in shown(terminal)

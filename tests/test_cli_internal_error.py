"""A bug of ours reaching the command line is one clear line and exit status 70, not a traceback
(``SHARDY_PY_TRACEBACK=1`` lets it through for whoever debugs it)."""
from __future__ import annotations

import importlib

import pytest

from shardy_py.cli import main

# (``shardy_py.verify`` is also the name of a function on the package.)
verify_command = importlib.import_module("shardy_py.verify.command")


def _boom(args):
    raise ValueError("sharding rank 0 does not match the rule's tensor rank 1")


def test_an_internal_error_is_one_line_and_status_70(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(verify_command, "run", _boom)
    monkeypatch.delenv("SHARDY_PY_TRACEBACK", raising=False)
    assert main(["verify", str(tmp_path / "x.mlir")]) == 70
    assert capsys.readouterr().err == (
        "shardy-py verify: internal error: ValueError: sharding rank 0 does not match the rule's tensor rank 1\n"
        "This is a bug in shardy_py; please report it with the input (SHARDY_PY_TRACEBACK=1 shows where it "
        "happened).\n")


def test_shardy_py_traceback_lets_the_exception_through(monkeypatch, tmp_path):
    monkeypatch.setattr(verify_command, "run", _boom)
    monkeypatch.setenv("SHARDY_PY_TRACEBACK", "1")
    with pytest.raises(ValueError, match="rank 0"):
        main(["verify", str(tmp_path / "x.mlir")])

"""``python -m shardy_py show``: what it prints, which values it draws, and its errors and exit codes."""
from __future__ import annotations

from pathlib import Path

import pytest

MODULE = """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
func.func @other(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}
"""


@pytest.fixture
def module_file(tmp_path) -> Path:
    p = tmp_path / "m.mlir"
    p.write_text(MODULE)
    return p


def titles(out: str) -> list[str]:
    return [line.split(": ")[0] for line in out.splitlines() if line and not line.startswith(" ")]


def test_draws_every_sharded_value_in_text_order(module_file, run_main):
    r = run_main("show", str(module_file), "--width", "80", "--color", "never")
    assert r.returncode == 0, r.stderr
    assert titles(r.stdout) == ["@main:%arg0", "%0", "@other:%arg0"]


def test_value_picks_one_value(module_file, run_main):
    r = run_main("show", str(module_file), "--value", "%0", "--color", "never")
    assert r.returncode == 0
    assert titles(r.stdout) == ["%0"]
    assert "local 8x4xf32 = 128 B per device" in r.stdout


def test_value_without_percent_and_qualified_by_func(module_file, run_main):
    r = run_main("show", str(module_file), "--value", "@other:arg0", "--color", "never")
    assert titles(r.stdout) == ["%arg0"]
    assert "local 2xf32" in r.stdout


def test_unknown_value_is_a_located_usage_error(module_file, run_main):
    r = run_main("show", str(module_file), "--value", "%9", "--color", "never")
    assert r.returncode == 2
    assert r.stdout == ""
    assert r.stderr.startswith(f"{module_file}:1:1: error: no sharded value named '%9' (sharded values: "
                               "@main:%arg0, @main:%0, @other:%arg0)")


def test_unparsable_file_is_a_located_error(run_main):
    r = run_main("show", "-", "--color", "never", input='sdy.mesh @m = <["x"=2>\n')
    assert r.returncode == 1
    assert r.stderr.startswith("<stdin>:1:")
    assert ": error: " in r.stderr and "Traceback" not in r.stderr


def test_binary_junk_is_an_error_not_a_traceback():
    from conftest import run_cli as run_subprocess

    r = run_subprocess("show", "-", input=b"\x00\xff\xfe junk {{{")
    assert r.returncode in (1, 2)
    assert "Traceback" not in r.stderr and "error" in r.stderr


def test_unreadable_file_exits_2(tmp_path, run_main):
    r = run_main("show", str(tmp_path / "missing.mlir"))
    assert r.returncode == 2
    assert r.stderr.startswith("shardy-py show: cannot read")


def test_value_that_cannot_be_drawn_is_reported_at_its_argument(run_main):
    src = 'func.func @f(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@nowhere, [{"x"}]>}) {\n  return\n}\n'
    r = run_main("show", "-", "--color", "never", input=src)
    assert r.returncode == 1
    assert "error: sharding refers to undefined mesh @nowhere" in r.stdout
    assert r.stderr.startswith("<stdin>:1:14: error: sharding refers to undefined mesh @nowhere\n")


def test_rank_mismatch_is_reported(run_main):
    src = ('sdy.mesh @m = <["x"=2]>\n'
           'func.func @f(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) {\n  return\n}\n')
    r = run_main("show", "-", "--color", "never", input=src)
    assert r.returncode == 1
    assert "cannot draw %arg0: the sharding has 2 dimension shardings but the tensor has rank 1" in r.stderr


def test_module_without_shardings(run_main):
    r = run_main("show", "-", input="func.func @f() {\n  return\n}\n")
    assert r.returncode == 0 and r.stdout == "<stdin>: no sharded values\n"


def test_colour_always_uses_truecolour_backgrounds(module_file, run_main):
    r = run_main("show", str(module_file), "--color", "always", "--value", "%0")
    assert "\x1b[38;2;" in r.stdout and ";48;2;" in r.stdout


def test_colour_never_has_no_escapes(module_file, run_main):
    r = run_main("show", str(module_file), "--color", "never")
    assert "\x1b[" not in r.stdout


def test_errors_are_highlighted_with_colour(run_main):
    r = run_main("show", "-", "--color", "always", input='sdy.mesh @m = <["x"=2>\n')
    assert r.returncode == 1
    assert "\x1b[" in r.stderr and "error:" in r.stderr


def test_html_writes_a_page(module_file, run_main):
    r = run_main("show", str(module_file), "--html")
    assert r.returncode == 0
    assert r.stdout.startswith("<!DOCTYPE html>") and r.stdout.count("data-devices=") == 2 + 2 + 2


def test_rank_three_beyond_max_grids_is_a_table(run_main):
    src = ('sdy.mesh @m = <["x"=4]>\n'
           'func.func @f(%arg0: tensor<4x2x2xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}, {}]>}) {\n'
           '  return\n}\n')
    r = run_main("show", "-", "--color", "never", "--max-grids", "2", input=src)
    assert "dim 0   dim 1   dim 2   devices" in r.stdout
    assert "    3:4     0:2     0:2    3" in r.stdout


def test_table_rows_are_cut_with_a_count(run_main):
    src = ('sdy.mesh @m = <["x"=8]>\n'
           'func.func @f(%arg0: tensor<8x2x2xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}, {}]>}) {\n'
           '  return\n}\n')
    r = run_main("show", "-", "--color", "never", "--max-grids", "0", "--max-rows", "3", input=src)
    assert "… 5 more tiles (8 in all)" in r.stdout


def test_bad_width_is_a_usage_error(module_file, run_main):
    r = run_main("show", str(module_file), "--width", "5")
    assert r.returncode == 2 and "--width must be at least 20" in r.stderr


def test_examples_all_draw(run_main):
    root = Path(__file__).resolve().parent.parent / "examples"
    for path in sorted(root.glob("*.mlir")):
        r = run_main("show", str(path), "--color", "never")
        assert r.returncode == 0, (path, r.stderr)

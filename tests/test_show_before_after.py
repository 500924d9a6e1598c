"""``propagate --show --before-after`` and ``shardy_py.show.before_after``: each value's sharding
before propagation next to the one after, matched by definition; exit codes and HTML escaping."""
from __future__ import annotations

from pathlib import Path

import pytest

import shardy_py
from shardy_py.show import before_after

MLP = Path(__file__).resolve().parents[1] / "examples" / "mlp.mlir"

EXPECTED_MAIN_0 = """\
@main:%0
before                                        after
no sharding                                   @main:%0: tensor<16x256xf32>  (result 0 of…
                                                #sdy.sharding<@mesh, [{"data"}, {"model"…
                                                mesh @mesh = <["data"=2, "model"=4]>
                                                ┌─────────┬─────────┬─────────┬─────────┐
                                                │         │         │         │         │
                                                │    0    │    1    │    2    │    3    │
                                                │         │         │         │         │
                                                ├─────────┼─────────┼─────────┼─────────┤
                                                │         │         │         │         │
                                                │    4    │    5    │    6    │    7    │
                                                │         │         │         │         │
                                                └─────────┴─────────┴─────────┴─────────┘
                                                local 8x64xf32 = 2 KiB per device (globa…
"""


@pytest.fixture(autouse=True)
def columns(monkeypatch):
    monkeypatch.setenv("COLUMNS", "90")


def test_unsharded_value_before_next_to_propagated_one(run_main):
    r = run_main("propagate", str(MLP), "--show", "--before-after", "--value", "@main:%0")
    assert r.returncode == 0, r.stderr
    assert r.stdout == EXPECTED_MAIN_0


def test_sharded_argument_drawn_on_both_sides(run_main):
    r = run_main("propagate", str(MLP), "--show", "--before-after", "--value", "@main:%arg2")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "@main:%arg2"
    assert lines[1].split() == ["before", "after"]
    assert lines[3].split() == ['#sdy.sharding<@mesh,', '[{"model"}]>'] * 2
    assert lines[6].split() == ["│", "0,4", "│", "1,5", "│", "2,6", "│", "3,7", "│"] * 2
    assert "no sharding" not in r.stdout


def test_every_propagated_value_is_listed_in_text_order(run_main):
    r = run_main("propagate", str(MLP), "--show", "--before-after")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    titles = [lines[i - 1] for i, line in enumerate(lines) if line.split() == ["before", "after"]]
    assert titles[:7] == ["@main:%arg0", "@main:%arg1", "@main:%arg2", "@main:%arg3", "@main:%arg4",
                          "@main:result0", "@main:%0"]
    # The constraint became a reshard at the same place: still matched to its sharding before.
    assert "@main:%5" in titles


def test_unknown_value_is_a_usage_error(run_main):
    r = run_main("propagate", str(MLP), "--show", "--before-after", "--value", "%nope")
    assert r.returncode == 2
    assert r.stdout == ""
    assert "no sharded value named '%nope'" in r.stderr


def test_unparsable_file_exits_1(run_main):
    r = run_main("propagate", "-", "--show", "--before-after", input='sdy.mesh @m = <["x"=2>\n')
    assert r.returncode == 1
    assert r.stderr.startswith("<stdin>:1:")


def test_html_page_escapes_titles(run_main):
    r = run_main("propagate", str(MLP), "--show", "--before-after", "--html")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("<!DOCTYPE html>")
    assert "<b>@main:&lt;result 0 of func.call&gt;</b>" in r.stdout
    assert "<result 0 of" not in r.stdout
    assert "no sharding" in r.stdout and "before" in r.stdout and "after" in r.stdout


def test_python_api_text_and_html():
    module = shardy_py.parse(MLP.read_text(), "mlp.mlir")
    view = before_after(module, shardy_py.propagate(module), ["@main:%0"])
    assert view.text(width=90) == EXPECTED_MAIN_0
    assert str(view) == view.text()
    html = view._repr_html_()
    assert html.startswith('<div class="shardy-show"') and "no sharding" in html
    assert 'data-devices="0"' in html


def test_python_api_unknown_name_raises_key_error():
    module = shardy_py.parse(MLP.read_text(), "mlp.mlir")
    with pytest.raises(KeyError):
        before_after(module, shardy_py.propagate(module), ["%nope"])

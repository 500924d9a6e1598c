"""``python -m shardy_py cost``: one file, two files side by side, ``--variant``, ``--suggest``,
the topology flags, the three formats, and its errors (located, exit 1; usage, exit 2)."""
from __future__ import annotations

import json

import pytest
from test_explain import embedding

from shardy_py.cli import main
from shardy_py.cost.schema import validate


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        status = main(["cost", *argv])
    except SystemExit as e:
        status = e.code
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.fixture
def seed(tmp_path):
    path = tmp_path / "seed.mlir"
    path.write_text(embedding())
    return str(path)


def test_one_file_prints_its_cost(capsys, seed):
    status, out, err = run(capsys, seed, "--width", "300")
    assert (status, err) == (0, "")
    assert f"cost of {seed} on uniform (4 devices, entry @main)" in out
    assert "  per device: arguments 520 B, results 128 B, peak 776 B at stablehlo.negate (line 4)" in out
    assert "why (operand): operand 1 of stablehlo.gather" in out


def test_json_is_the_documented_schema(capsys, seed):
    status, out, _ = run(capsys, seed, "--format", "json", "--topology", "gpu-nvlink")
    data = json.loads(out)
    assert status == 0 and validate(data) == []
    assert (data["topology"]["name"], data["per_device"]["bytes_sent"]) == ("gpu-nvlink", 24)


def test_html_is_a_page_with_the_pictures(capsys, seed):
    status, out, _ = run(capsys, seed, "--format", "html")
    assert status == 0 and out.startswith("<!DOCTYPE html>") and "<svg class='memory'" in out


def test_the_seed_variants_in_one_command(capsys, seed):
    status, out, _ = run(capsys, seed, "--variant", "weights: %w=first", "--variant", "indices: %idx=first",
                         "--top", "0", "--width", "200")
    assert status == 0
    assert out.splitlines()[:8] == [
        "compare on uniform (4 devices), per device:",
        "               as written  weights  indices",
        "  arguments    520 B       520 B    520 B",
        "  results      128 B       128 B    128 B",
        "  peak live    776 B       776 B    776 B",
        "  bytes sent   24 B        24 B     120 B",
        "  time         2 us        2 us     4 us",
        "  collectives  1           1        2",
    ]
    assert out.splitlines()[8] == ("cheapest: as written: 24 B sent per device, ~2 us, peak 776 B; against "
                                   "weights (24 B, ~2 us), indices (120 B, ~4 us)")


def test_variants_take_priorities_and_partition_specs(capsys, seed):
    status, out, _ = run(capsys, seed, "--variant", "%w=p1; %idx=p0", "--variant", "%idx=[None, None]",
                         "--format", "json", "--no-origins")
    data = json.loads(out)
    assert status == 0 and [v["label"] for v in data["variants"]] == ["as written", "%w=p1; %idx=p0",
                                                                      "%idx=[None, None]"]
    assert [v["report"]["per_device"]["bytes_sent"] for v in data["variants"]] == [24, 120, 0]
    assert data["cheapest"] == 2 and data["ranking"] == [2, 0, 1]


def test_suggest_finds_the_cheaper_priorities(capsys, tmp_path):
    path = tmp_path / "indices_first.mlir"
    path.write_text(embedding("p1", "p0"))
    status, out, _ = run(capsys, str(path), "--suggest", "--width", "200")
    assert status == 0
    assert out.splitlines()[1] == "  1. argument 0 (%w) of @main first: ~2 us, 24 B sent, peak 776 B, 1 collectives"
    assert "  argument 0 (%w) of @main: #sdy.sharding<@mesh, [{}, {\"x\"}p0]>" in out


def test_two_files_side_by_side(capsys, seed, tmp_path):
    other = tmp_path / "indices_first.mlir"
    other.write_text(embedding("p1", "p0"))
    status, out, _ = run(capsys, seed, str(other), "--top", "1", "--width", "300")
    assert status == 0 and out.splitlines()[6].split() == ["time", "2", "us", "4", "us"]


def test_axis_figures_change_the_time(capsys, seed):
    fast = json.loads(run(capsys, seed, "--format", "json")[1])["per_device"]["time_s"]
    slow = json.loads(run(capsys, seed, "--format", "json", "--axis-bandwidth", "x=1e6", "--axis-latency",
                          "x=1e-3", "--axis-kind", "x=ring")[1])["per_device"]["time_s"]
    # a ring of 4 devices gathering 24 B: 3 x 1 ms + 3/4 x 32 B / 1 MB/s
    assert (fast, slow) == (pytest.approx(2e-6 + 0.75 * 32 / 2e11), pytest.approx(3e-3 + 0.75 * 32 / 1e6))


@pytest.mark.parametrize(("argv", "message"), [
    (["--axis-bandwidth", "x"], "shardy-py cost: --axis-bandwidth: 'x' is not AXIS=VALUE\n"),
    (["--axis-latency", "x=soon"], "shardy-py cost: --axis-latency: 'soon' is not a valid value for axis x\n"),
    (["--axis-kind", "x=tree"], "shardy-py cost: unknown link kind 'tree' (one of ring, bidirectional-ring, switch)\n"),
    (["--variant", "%nope=p0"], "shardy-py cost: --variant: %nope=p0: no value named %nope in the module's funcs\n"),
    (["--variant", "%w=[y]"], "shardy-py cost: --variant: %w=[y]: dimension 0: unknown mesh axis 'y' (the mesh has "
                              "axes 'x')\n"),
    (["--variant", "%w"], "shardy-py cost: --variant: '%w': write TARGET=VALUE (%name=p0, %name=first, "
                          "%name=[x, None])\n"),
    (["--suggest", "--variant", "%w=p0"], "shardy-py cost: --suggest takes one FILE and no --variant\n"),
    (["--width", "10"], "shardy-py cost: --width must be at least 20\n"),
])
def test_usage_errors_exit_2(capsys, seed, argv, message):
    assert run(capsys, seed, *argv) == (2, "", message)


def test_a_module_that_does_not_verify_is_a_located_error(capsys, tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text('sdy.mesh @m = <["x"=4]>\nfunc.func @f(%a: tensor<8xf32> {sdy.sharding = '
                   '#sdy.sharding<@m, [{"y"}]>}) -> tensor<8xf32> {\n  return %a : tensor<8xf32>\n}\n')
    status, out, err = run(capsys, str(bad))
    assert (status, out) == (1, "")
    assert err.startswith(f"{bad}:2:") and ": error: " in err.splitlines()[0]

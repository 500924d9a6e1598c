"""A ``CostReport``'s forms: the JSON of its documented schema (``shardy_py.cost.schema``), the text
for a terminal (every line within the width), and the HTML pictures for notebooks."""
from __future__ import annotations

import json

import pytest
from test_explain import embedding

import shardy_py
from shardy_py.cost import cost
from shardy_py.cost.schema import SCHEMA, VERSION, validate


@pytest.fixture(scope="module")
def seed():
    return cost(shardy_py.parse(embedding("p1", "p0"), "seed.mlir"), "tpu-v5e")


def test_the_json_fits_its_schema(seed):
    data = json.loads(json.dumps(seed.to_json()))
    assert validate(data) == []
    assert data["schema"] == VERSION == "shardy_py.cost/1"


def test_the_json_per_device_totals(seed):
    # %w 32x16xf32 split 4 ways on dim 1: 512 B; %idx 8x1xi32 on dim 0: 8 B; result 8x16xf32: 128 B
    assert seed.to_json()["per_device"] | {"time_s": None} == {
        "arguments_bytes": 520, "results_bytes": 128, "peak_bytes": 776, "peak_op": "sdy.all_to_all",
        "peak_line": 3, "bytes_sent": 120, "bytes_received": 120, "time_s": None}


def test_the_json_collectives_say_what_moves_and_why(seed):
    first = seed.to_json()["collectives"][0]
    assert {k: first[k] for k in ("kind", "collective", "axes", "group_size", "tensor_type", "input_bytes",
                                  "output_bytes", "bytes_sent", "bytes_received", "op", "line", "executions")} == {
        "kind": "all_to_all", "collective": "sdy.all_to_all", "axes": ["x"], "group_size": 4,
        "tensor_type": "tensor<8x16xf32>", "input_bytes": 128, "output_bytes": 128, "bytes_sent": 96,
        "bytes_received": 96, "op": "stablehlo.gather", "line": 3, "executions": 1}
    # bidirectional ring, n = 4, S = 128 B: floor(4/2) x 1 us + floor(16/4)/8 x 128 / 50e9
    assert first["time_s"] == pytest.approx(2e-6 + 0.5 * 128 / 50e9)
    assert first["reason"]["kind"] == "result"
    assert [o["user_sharding"] for o in first["reason"]["origins"]] == ["argument 0 (%w) of @main",
                                                                         "argument 1 (%idx) of @main"]


def test_the_json_leaves_origins_out_when_asked(seed):
    assert all("origins" not in c["reason"] for c in seed.to_json(origins=False)["collectives"])


def test_validate_names_what_breaks_the_schema(seed):
    data = seed.to_json()
    del data["per_device"]["peak_bytes"]
    data["collectives"][0]["bytes_sent"] = -1
    data["collectives"][1]["kind"] = "all_dance"
    assert validate(data) == [
        "$.per_device: missing 'peak_bytes'",
        "$.collectives[0].bytes_sent: -1 < 0",
        "$.collectives[1].kind: 'all_dance' is not one of " + str(SCHEMA["properties"]["collectives"]["items"]
                                                               ["properties"]["kind"]["enum"]),
    ]


@pytest.mark.parametrize("width", [40, 60, 100])
def test_the_text_fits_the_width(seed, width):
    text = seed.text(width)
    assert max(len(line) for line in text.splitlines()) <= width
    assert text.startswith("cost of seed.mlir on tpu-v5e (4 devices,")


def test_the_text_draws_live_bytes_per_op(seed):
    lines = seed.text(100).splitlines()
    start = lines.index("live bytes along @main, per device (op index, op, line):")
    rows = lines[start + 1:start + 6]
    assert [r.split()[1] for r in rows] == ["sdy.all_gather", "stablehlo.gather", "sdy.all_to_all",
                                            "stablehlo.negate", "func.return"]
    bars = [r.count("█") for r in rows]
    assert bars[2] == bars[3] == max(bars) > bars[0] > 0   # the all-to-all and the negate hold the peak


def test_the_html_draws_memory_and_communication(seed):
    page = seed._repr_html_()
    assert page.count("<svg class='memory'") == 1 and page.count("<svg class='communication'") == 1
    assert "peak 776 B at op 2: sdy.all_to_all (line 3)" in page
    assert "&quot;x&quot;" in page and '"x"' not in page.replace("'", "")   # every text escaped
    assert "<script" not in page


def test_a_long_function_is_drawn_per_run_of_ops():
    report = cost(shardy_py.parse(open("examples/transformer_stack.mlir").read(), "t.mlir"))
    lines = report.text(100, top=1, origins=False).splitlines()
    start = lines.index("live bytes along @main, per device (op index, op, line):")
    rows = [line for line in lines[start + 1:] if line.startswith("  ")]
    assert 20 <= len([r for r in rows if " max at " in r]) <= 32

"""``-sdy-convert-global-to-local`` against the C++ Shardy in jaxlib 0.12, byte for byte: function
by function over Shardy's test inputs for the pass (transforms/export/test/convert_global_to_local/),
with the options of each file's RUN lines and with ``enable-rgv3`` both ways (jaxlib 0.12 defaults
it to true where the test files' Shardy defaults to false, so the option is always passed to it).
Functions jaxlib fails on must fail on ours too.

Where the program reads the device id, jaxlib 0.12 and ours use ``stablehlo.partition_id`` /
``replica_id`` (ui32) as it is to index i32 offset tables, where the test files' Shardy converts the
id to i64 and builds i64 tables (the FileCheck lines of sdy_constant.mlir, replica_id.mlir,
stablehlo_iota.mlir ... want ``stablehlo.convert %pid : (tensor<ui32>) -> tensor<i64>``): jaxlib
wins, those files are pinned in tests/test_conformance_pins_jaxlib012.py.

jaxlib 0.12 is older than the test files in one respect: with ``enable-rgv3`` it writes mesh-axes
replica groups even over sub-axes (``#stablehlo.axis_ref<name = "y", sub_axis_info = (1)2>``), where
the test files' Shardy writes device-id groups when an axis is a sub-axis (``hasSubAxis``; sdy_all_reduce.mlir's
``V3-SAME{LITERAL}: replica_groups = dense<[[0, 2], [1, 3], [4, 6], [5, 7]]>`` for
``{"y":(1)2}``).  Such functions are counted as ``older``, and checked to use device ids."""
from __future__ import annotations

import re
from collections import Counter

import pytest
from cpp_oracle import FAILED, ours
from test_passes_explicit_reshards_cpp import TESTS, Jaxlib, per_function

import shardy_py

pytest.importorskip("jax", reason="the oracle is the C++ Shardy in jaxlib (pip install 'jax==0.12.0.1')")

FOLDER = "convert_global_to_local"
PASS = "sdy-convert-global-to-local"


@pytest.fixture(scope="module")
def jaxlib():
    worker = Jaxlib()
    yield worker
    worker.close()


def option_sets(text: str) -> list[dict[str, str]]:
    """The options of the file's RUN lines, each with enable-rgv3 false and true."""
    out = []
    for line in text.splitlines():
        m = re.match(r"// RUN: .*-sdy-convert-global-to-local(?:=['\"]([^'\"]*)['\"])?", line)
        if not m:
            continue
        options = dict(item.split("=") for item in (m.group(1) or "").split())
        for rgv3 in ("false", "true"):
            out.append({**options, "enable-rgv3": rgv3})
    return out


def flag_and_pipeline(options: dict[str, str]) -> tuple[str, str]:
    text = " ".join(f"{k}={v}" for k, v in sorted(options.items()))
    return f"{PASS}={text}", f"builtin.module({PASS}{{{text}}})"


def files() -> list[str]:
    folder = TESTS / FOLDER
    return sorted(p.name for p in folder.glob("*.mlir")) if folder.exists() else ["(absent)"]


@pytest.mark.parametrize("name", files())
def test_convert_global_to_local_matches_jaxlib_on_shardys_tests(name, jaxlib):
    path = TESTS / FOLDER / name
    if not path.exists():
        pytest.skip("Shardy's pass tests live in /work/shared/conformance (SHARDY_CONFORMANCE)")
    text = path.read_text()
    counts = Counter()
    for options in option_sets(text):
        flag, pipeline = flag_and_pipeline(options)
        for piece in (p for chunk in text.split("// -----") for p in per_function(chunk)):
            theirs = jaxlib.run(piece, pipeline)
            if theirs in ("crashed", "unread"):
                counts[theirs] += 1
                continue
            assert str(shardy_py.parse(piece)) == jaxlib.run(piece, "builtin.module()")
            mine = ours(piece, flag)
            if "sub_axis_info" in theirs:
                assert "sub_axis_info" not in mine and "dense<" in mine, mine
                counts["older"] += 1
                continue
            assert mine == theirs, (flag, piece)
            counts["same" if theirs != FAILED else "both failed"] += 1
    assert counts["same"] + counts["both failed"] + counts["older"] >= 1, counts

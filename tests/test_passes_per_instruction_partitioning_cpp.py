"""``-sdy-per-instruction-partitioning`` against jaxlib 0.12, byte for byte, chunk by chunk over
Shardy's test inputs for the pass (per_instruction_partitioning*.mlir) with the filters of their
RUN lines and with no filter (every sharded op).

jaxlib 0.12's pass is older than the test files' for ops with shardings that do not divide their
sizes (``HEAD_WINS``): it pads inside the manual computation (slice, iota/compare/select masks and
a pad in the device code) and runs convert-global-to-local with its own default ``enable-rgv3``,
where the test files want the operands padded outside and the results sliced outside
(``CHECK: stablehlo.pad ... -> tensor<6x32xf32>`` before ``sdy.manual_computation``) and device-id
replica groups (``replica_groups = dense<[[0, 1]]>``).  We follow the test files."""
from __future__ import annotations

import re

import pytest
from cpp_oracle import ours
from test_passes_explicit_reshards_cpp import TESTS, Jaxlib

import shardy_py

pytest.importorskip("jax", reason="the oracle is the C++ Shardy in jaxlib (pip install 'jax==0.12.0.1')")

FILES = ["per_instruction_partitioning.mlir", "per_instruction_partitioning_range.mlir"]
PASS = "sdy-per-instruction-partitioning"
HEAD_WINS = {"selective_indivisible_dot", "selective_indivisible_reshard"}


@pytest.fixture(scope="module")
def jaxlib():
    worker = Jaxlib()
    yield worker
    worker.close()


def filters(text: str) -> list[str]:
    """The filter of each RUN line, and no filter."""
    return [*re.findall(r'filter=(.*?)" \|', text), ""]


@pytest.mark.parametrize("name", FILES)
def test_per_instruction_partitioning_matches_jaxlib(name, jaxlib):
    path = TESTS / name
    if not path.exists():
        pytest.skip("Shardy's pass tests live in /work/shared/conformance (SHARDY_CONFORMANCE)")
    text = path.read_text()
    compared = 0
    for keep in filters(text):
        flag = f"{PASS}=filter={keep}" if keep else PASS
        pipeline = f"builtin.module({PASS}{{filter={keep}}})" if keep else f"builtin.module({PASS})"
        for chunk in text.split("// -----"):
            theirs = jaxlib.run(chunk, pipeline)
            assert theirs not in ("crashed", "unread")
            assert str(shardy_py.parse(chunk)) == jaxlib.run(chunk, "builtin.module()")
            mine = ours(chunk, flag)
            if any(f"@{name}(" in chunk for name in HEAD_WINS):
                assert mine != theirs and "replica_group_mesh_axes" not in mine
                continue
            assert mine == theirs, (keep, chunk)
            compared += 1
    assert compared >= 4

"""``shardy_py.cost`` against XLA (jax 0.12, 8 fake CPU devices), a short run of
``benchmarks/cost_vs_xla.py``: argument and result bytes equal ``memory_analysis()``'s (XLA's CPU
output of several results also counts an 8-byte tuple index table per result: pinned here), the
sdy collectives equal those the C++ Shardy inserts in XLA's own ``after_propagation`` dump, the
compiled HLO's collectives are the same or differ in the classified ways, and on the seed scenario
XLA orders the priority variants as we do."""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("jax", reason="the oracle is XLA in jax 0.12 (pip install 'jax==0.12.0.1')")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import cost_vs_xla  # noqa: E402
from jaxlib_worker import JaxlibWorker  # noqa: E402

PROGRAMS = ["data/top_k", "data/integer_ops", "data/softmax_sharded", "data/shard_map_psum", "data/mlp_grad",
            "data/io_callback_sharded", "mlp_megatron", "embedding_lookup", "attention_heads", "conv_spatial",
            "scan_rnn", "mixed_dtypes", "bool_and_fp8", "padding_uneven"]


@pytest.fixture(scope="module")
def results():
    rows = cost_vs_xla.run_worker(tempfile.mkdtemp(prefix="cost_xla_"), "--only", ",".join(PROGRAMS))
    worker = JaxlibWorker()
    try:
        return {r["name"]: r for r in (cost_vs_xla.compare_program(row, worker) for row in rows)}
    finally:
        worker.close()


def test_every_program_compiled(results):
    assert sorted(results) == sorted(PROGRAMS) and not [r for r in results.values() if "error" in r]


@pytest.mark.parametrize("name", PROGRAMS)
def test_argument_and_result_bytes_are_xlas(results, name):
    r = results[name]
    assert r["arguments"][0] == r["arguments"][1]
    ours, with_table, xla = r["outputs"]
    assert with_table == xla


def test_several_results_add_xlas_tuple_table(results):
    # top_k: values and indices, 4x3 each (48 B + 48 B), plus 2 x 8 B; integer_ops: six 3-element
    # i32 results (72 B) plus 6 x 8 B; io_callback_sharded: a token and a tensor, 256 B plus 2 x 8 B
    assert [results[n]["outputs"] for n in ("data/top_k", "data/integer_ops", "data/io_callback_sharded")] == [
        [96, 112, 112], [72, 120, 120], [256, 272, 272]]


@pytest.mark.parametrize("name", [n for n in PROGRAMS if n not in ("data/top_k", "data/integer_ops")])
def test_sdy_collectives_are_the_c_plus_pluss_on_xlas_propagated_module(results, name):
    sdy = results[name]["sdy"]
    assert sdy["equal"], (sdy["ours_list"], sdy["xla_list"])


@pytest.mark.parametrize(("name", "verdict"), [
    ("data/softmax_sharded", "equal"),
    ("mlp_megatron", "equal"),
    ("attention_heads", "equal"),
    ("scan_rnn", "equal"),
    ("data/shard_map_psum", "equal"),
    ("data/mlp_grad", "combined by XLA (fewer ops, same bytes)"),
    ("conv_spatial", "XLA adds collective-permutes (halo exchange, device reorder); XLA's partitioner moves more "
                     "bytes"),
    ("data/io_callback_sharded", "a reshard between meshes (XLA gathers to and from the one device); XLA's "
                                 "partitioner moves fewer bytes"),
])
def test_compiled_collectives_are_the_same_or_differ_as_classified(results, name, verdict):
    assert results[name]["hlo"]["class"] == verdict


def test_the_seed_variants_are_ordered_alike_and_suggest_picks_the_cheaper():
    seed = cost_vs_xla.seed(tempfile.mkdtemp(prefix="cost_xla_seed_"))
    assert seed["ours_order"] == seed["xla_order"] == ["seed/none", "seed/p0-weights", "seed/p0-indices"]
    assert seed["seed/p0-weights"]["ours_bytes"] < seed["seed/p0-indices"]["ours_bytes"]
    assert seed["seed/p0-weights"]["xla_bytes"] < seed["seed/p0-indices"]["xla_bytes"]
    assert seed["suggest"]["best"] == "argument 0 (%arg0) of @main first"

"""``-sdy-export-pipeline`` against jaxlib 0.12's: the options it takes (every name jaxlib's pipeline
parser accepts), the passes and pass options it expands to for each combination of the options
that shape it (jaxlib's ``PassManager.parse`` prints the expansion), and modules run through it,
among them one whose collectives ``sdy-optimize-collectives`` rewrites inside the pipeline."""
from __future__ import annotations

import itertools
import re

import pytest
from jaxlib_worker import shared_worker

import shardy_py
from shardy_py.passes.export.export_pipeline import EXPORT_OPTIONS, PARTITIONER_STAGES, export_pipeline_passes
from shardy_py.passes.manager import PassError, PassManager
from shardy_py.passes.registry import lookup

jax = pytest.importorskip("jax", reason="the oracle is jaxlib 0.12 (pip install 'jax==0.12.0.1')")

from jax._src.interpreters import mlir as jax_mlir  # noqa: E402
from jax._src.lib.mlir import passmanager  # noqa: E402


@pytest.fixture(scope="module")
def context():
    return jax_mlir.make_ir_context()


def jaxlib_steps(context, options: str) -> list[tuple[str, dict[str, str]]]:
    """jaxlib's expansion of the pipeline: (pass, {option: printed value}), module dumps left out."""
    with context:
        text = str(passmanager.PassManager.parse(f"builtin.module(sdy-export-pipeline{{{options}}})"))
    body = text[len("builtin.module("):-1]
    steps = []
    for m in re.finditer(r"(?:func\.func\()?([\w.-]+)(\{(?:[^{}]|\{[^{}]*\})*\})?\)?", body):
        name, opts = m.group(1), m.group(2) or "{}"
        if not name or name == "sdy-save-module":
            continue
        values = dict(re.findall(r"([\w-]+)=(\{[^{}]*\}|\S*)", opts[1:-1]))
        steps.append((name, {k: v.strip("{}") for k, v in values.items()}))
    return steps


def _printed(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def compare(context, options: dict) -> None:
    flag = " ".join(f"{k.replace('_', '-')}={_printed(v)}" for k, v in options.items())
    theirs = jaxlib_steps(context, flag)
    mine = export_pipeline_passes(**options)
    assert [n for n, _ in mine] == [n for n, _ in theirs], flag
    for (name, set_here), (_, printed) in zip(mine, theirs, strict=True):
        cls = lookup(name)
        if cls is None:  # not ported yet: only the name is compared
            continue
        declared = {o.name: o for o in cls.options}
        for option, value in printed.items():
            assert option in declared, (flag, name, option, value)
            ours = set_here.get(option.replace("-", "_"), declared[option].default)
            assert _printed(ours) == value, (flag, name, option)


def test_every_option_jaxlib_takes_is_an_option_here(context):
    names = [o.name for o in EXPORT_OPTIONS]
    with context:
        for name, option in zip(names, EXPORT_OPTIONS, strict=True):
            if name in ("enable-per-instruction-partitioning", "partitioner-stage"):
                continue  # jaxlib aborts on the first without the last stage; the second takes stage names
            passmanager.PassManager.parse(f"builtin.module(sdy-export-pipeline{{{name}={_printed(option.default)}}})")
        with pytest.raises(Exception, match="failed to add"):
            passmanager.PassManager.parse("builtin.module(sdy-export-pipeline{no-such-option=1})")


@pytest.mark.parametrize("stage", PARTITIONER_STAGES)
def test_the_steps_of_each_partitioner_stage_are_jaxlibs(context, stage):
    for explicit, cmv1, mark, rng in itertools.product([False, True], repeat=4):
        compare(context, {"partitioner_stage": stage, "enable_insert_explicit_collectives": explicit,
                          "remove_all_gather_reduce_scatter_for_cmv1": cmv1,
                          "mark_partial_result_with_unreduced_axes": mark, "rng_bit_generator_unsafe": rng})


@pytest.mark.parametrize("options", [
    {}, {"replica_count": 2, "partition_count": 4, "partitioner_stage": "convert-global-to-local"},
    {"avoid_export_for_partitioning": True, "partitioner_stage": "pad-for-divisibility"},
    {"dump_sharding_origins": True, "keep_sharding_rules": True, "inline_meshes": False,
     "partitioner_stage": "convert-global-to-local"},
    {"dump_propagation_edges": True, "update_non_divisible_input_output_shardings": False},
    {"enable_per_instruction_partitioning": True, "partitioner_stage": "convert-global-to-local",
     "per_instruction_partitioning_filter": "dot", "replica_count": 2},
    {"enable_per_instruction_partitioning": True, "partitioner_stage": "convert-global-to-local",
     "rng_bit_generator_unsafe": True},
    {"avoid_reshards_on_calls": True, "enable_insert_explicit_collectives": True},
])
def test_the_other_options_shape_the_steps_as_in_jaxlib(context, options):
    compare(context, options)


def test_per_instruction_partitioning_needs_the_last_stage():
    """jaxlib 0.12 aborts (``Check failed: options.partitionerStage == kConvertGlobalToLocal``) on any
    other stage but the default; here it is an error of the pipeline."""
    module = shardy_py.parse("func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
                             "  return %arg0 : tensor<8xf32>\n}")
    with pytest.raises(PassError) as info:
        PassManager.parse(["-sdy-export-pipeline=enable-per-instruction-partitioning=true "
                           "partitioner-stage=pad-for-divisibility"]).run(module)
    assert "needs partitioner-stage=convert-global-to-local" in info.value.diagnostics[0].message


#: A reshard of [{x, y}, {}] to [{y}, {x}]: reshard-to-collectives makes a permute and an all-to-all,
#: which jaxlib 0.12's pipeline then optimises into reshapes around all-to-alls.
OPTIMISED_IN_THE_PIPELINE = """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {"x"}]>]>} : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
"""


@pytest.mark.parametrize("options", ["enable-insert-explicit-collectives=true",
                                     "enable-insert-explicit-collectives=true inline-meshes=false"])
def test_the_pipeline_optimises_collectives_as_jaxlib(options):
    answer = shared_worker().call("module", text=OPTIMISED_IN_THE_PIPELINE,
                                  pipeline=f"builtin.module(sdy-export-pipeline{{{options}}})")
    assert answer["ok"], answer
    module = shardy_py.parse(OPTIMISED_IN_THE_PIPELINE)
    PassManager.parse([f"-sdy-export-pipeline={options}"]).run(module)
    assert str(module) == answer["pretty"]
    assert "stablehlo.reshape" in answer["pretty"] and "sdy.collective_permute" not in answer["pretty"]

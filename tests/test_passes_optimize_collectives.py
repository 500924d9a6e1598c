# ruff: noqa: E501  (expected MLIR text is printed on one line, however long; it must be exact)
"""``-sdy-optimize-collectives``: the test files' Shardy has no such pass, jaxlib 0.12 has it, so
jaxlib is the oracle.  tests/data/optimize_collectives/chains.mlir holds one function per case
(the cases of Shardy's later test files, written anew, and the ones jaxlib showed beyond them);
each is compared with jaxlib byte for byte, and modules drawn around permute + all-to-all chains
too.  The unit tests below pin each behaviour with jaxlib's output."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from collective_chains import permute_chains
from cpp_oracle import cpp_or_unread
from cpp_oracle import ours as run_ours
from hypothesis import HealthCheck, given, settings

import shardy_py
from shardy_py.passes.manager import PassError, PassManager
from shardy_py.verify import verify

DATA = Path(__file__).parent / "data" / "optimize_collectives" / "chains.mlir"
PIPELINE = "builtin.module(func.func(sdy-optimize-collectives))"


def functions() -> dict[str, str]:
    """Each function of the data file as a module of its own (with all the meshes)."""
    text = DATA.read_text()
    meshes = "\n".join(line for line in text.splitlines() if line.startswith("sdy.mesh"))
    return {m.group(1): meshes + "\n" + m.group(0) for m in re.finditer(r"(?ms)^func\.func @(\w+).*?^}\n", text)}


def ours(text: str, debug: bool = False) -> str:
    """Our module after the pass (with locations when ``debug``)."""
    if not debug:
        return run_ours(text, "sdy-optimize-collectives")
    module = shardy_py.parse(text)
    PassManager.parse(["-sdy-optimize-collectives"]).run(module)
    return shardy_py.print_module(module, debug_info=True)


def body(text: str) -> list[str]:
    """The op lines of the one function of a printed module."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if "func.func" in line)
    return [line.strip() for line in lines[start + 1:] if line.startswith("    ")]


def test_a_permute_and_its_all_to_alls_become_reshapes_around_all_to_alls_on_split_dimensions():
    assert body(ours(functions()["swap_then_scatter_both"])) == [
        '%0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@m2, [{"p"}, {"q"}, {}, {}, {}]>]>} : (tensor<32x4x4xf32>) -> tensor<2x2x8x4x4xf32>',
        '%1 = sdy.all_to_all [{"p"}: 0->3] %0 out_sharding=<@m2, [{}, {"q"}, {}, {"p"}, {}]> : tensor<2x2x8x4x4xf32>',
        '%2 = sdy.all_to_all [{"q"}: 1->4] %1 out_sharding=<@m2, [{}, {}, {}, {"p"}, {"q"}]> : tensor<2x2x8x4x4xf32>',
        '%3 = stablehlo.reshape %2 {sdy.sharding = #sdy.sharding_per_value<[<@m2, [{}, {"p"}, {"q"}]>]>} : (tensor<2x2x8x4x4xf32>) -> tensor<32x4x4xf32>',
        "return %3 : tensor<32x4x4xf32>"]


def test_an_axis_left_behind_moves_to_its_place_by_an_all_to_all_of_its_own():
    assert body(ours(functions()["left_behind_axis_moved"]))[2] == (
        '%2 = sdy.all_to_all [{"q"}: 1->0] %1 out_sharding=<@m2, [{"q"}, {}, {}, {"p"}]> : tensor<2x2x4x4xf32>')


def test_placing_an_axis_first_moves_the_axis_in_its_place():
    """``r`` belongs on the first new dimension, where ``p`` is: ``p`` moves to its own place first."""
    assert body(ours(functions()["left_behind_rotation"]))[2:4] == [
        '%2 = sdy.all_to_all [{"p"}: 0->1] %1 out_sharding=<@m3, [{}, {"p"}, {"r"}, {}, {}, {"q"}]> : tensor<2x2x2x2x4x4xf32>',
        '%3 = sdy.all_to_all [{"r"}: 2->0] %2 out_sharding=<@m3, [{"r"}, {"p"}, {}, {}, {}, {"q"}]> : tensor<2x2x2x2x4x4xf32>']


def test_left_behind_axes_swapping_places_leave_the_chain_alone():
    text = functions()["left_behind_swap_stays"]
    assert body(ours(text)) == body(str(shardy_py.parse(text)))


def test_the_chain_stops_at_an_all_to_all_out_of_another_dimension():
    assert body(ours(functions()["chain_stops_at_other_source"]))[3:5] == [
        '%3 = stablehlo.reshape %2 {sdy.sharding = #sdy.sharding_per_value<[<@m3, [{"q"}, {"r"}, {"p"}]>]>} : (tensor<2x2x2x8x8xf32>) -> tensor<8x8x8xf32>',
        '%4 = sdy.all_to_all [{"r"}: 1->0] %3 out_sharding=<@m3, [{"q", "r"}, {}, {"p"}]> : tensor<8x8x8xf32>']


def test_new_shardings_say_sum_for_max_unreduced_axes_as_the_cpp_builds_them():
    lines = body(ours(functions()["unreduced_max"]))
    assert 'unreduced={"r"}>]>} : (tensor<16x8xf32>) -> tensor<2x2x4x8xf32>' in lines[0]
    assert lines[3].startswith('%3 = stablehlo.reshape %2 {sdy.sharding = #sdy.sharding_per_value<[<@m3, [{"q"}, {"p"}], unreduced=max{"r"}>]>}')


def test_new_ops_are_inserted_at_the_permute_with_its_location():
    printed = ours(functions()["inserted_where_the_permute_was"], debug=True)
    lines = body(printed)
    assert [line.split(" ")[2] for line in lines[:6]] == [
        "stablehlo.reshape", "sdy.all_to_all", "sdy.all_to_all", "stablehlo.reshape", "stablehlo.negate",
        "stablehlo.abs"]
    assert all(line.endswith('loc("the_permute")') for line in lines[:4])  # as jaxlib 0.12 prints them


def test_an_all_to_all_moving_two_axes_of_the_split_dimension_fails_the_verifier_after_the_pass():
    """Both axes get a parameter with the same target: "overlapping source/target dimensions"."""
    text = """sdy.mesh @m3 = <["p"=2, "q"=2, "r"=2]>
func.func @f(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"p", "q", "r"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m3, [{"q", "r", "p"}, {}]> : tensor<16x8xf32>
  %1 = sdy.all_to_all [{"p"}: 0->1] %0 out_sharding=<@m3, [{"q", "r"}, {"p"}]> : tensor<16x8xf32>
  %2 = sdy.all_to_all [{"q", "r"}: 0->1] %1 out_sharding=<@m3, [{}, {"p", "q", "r"}]> : tensor<16x8xf32>
  return %2 : tensor<16x8xf32>
}"""
    module = shardy_py.parse(text)
    with pytest.raises(PassError) as info:
        PassManager.parse(["-sdy-optimize-collectives"]).run(module)
    assert info.value.diagnostics[0].line == 3  # the permute's location
    assert "all_to_all" in info.value.diagnostics[0].message


def test_the_pass_runs_on_functions_from_the_command_line(run_main):
    done = run_main("opt", str(DATA), "--pass-pipeline=builtin.module(func.func(sdy-optimize-collectives))")
    assert done.returncode == 0, done.stderr
    kept = [n for n in functions() if n.endswith(("_stays", "_permute"))]
    assert done.stdout.count("sdy.collective_permute") == len(kept)  # each of those keeps one permute


# -- against jaxlib 0.12 ----------------------------------------------------------------------

def jaxlib(text: str) -> str | None:
    """jaxlib's module after the pass (see ``cpp_or_unread``)."""
    return cpp_or_unread(text, PIPELINE)


@pytest.mark.parametrize("name", sorted(functions()))
def test_each_case_is_jaxlibs(name):
    text = functions()[name]
    theirs = jaxlib(text)
    assert theirs is not None, "jaxlib reads every case"
    assert ours(text) == theirs
    assert ("sdy.collective_permute" in theirs) == name.endswith(("_stays", "_permute")), \
        "the case names say whether jaxlib rewrites the chain"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(permute_chains())
def test_drawn_chains_are_jaxlibs(text):
    theirs = jaxlib(text)
    module = shardy_py.parse(text)
    rejected = [d for d in verify(module) if d.severity == "error"]
    if theirs is None:
        assert rejected, "jaxlib rejects the module: so must verify"
        return
    assert not rejected, rejected[0].message
    assert ours(text) == theirs

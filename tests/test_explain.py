# ruff: noqa: E501  (MLIR inputs and expected explanations are written one line per line, however long)
"""``shardy_py.propagate`` and ``shardy_py.explain``, on the scenario priorities were asked for
(an embedding lookup whose weights and runtime indices are sharded along the same mesh axis):
without priorities and with p0 on either side the result shardings are the C++ pipeline's (jaxlib)
and differ, and the explanation names the priority that decided."""
from __future__ import annotations

import warnings

import pytest
from cpp_oracle import cpp

import shardy_py
from shardy_py import passes
from shardy_py.explanation import ExplainError, explain, find_value
from shardy_py.passes.manager import PassManager
from shardy_py.passes.propagation.propagation_pipeline import PipelineStepSkipped


def embedding(weights_priority: str = "", indices_priority: str = "") -> str:
    """Weights [32, 16] sharded on their embedding dimension, indices [8, 1] on their batch
    dimension, both along "x"; the lookup's result [8, 16] can take "x" on one dimension only."""
    return f"""sdy.mesh @mesh = <["x"=4]>
func.func @main(%w: tensor<32x16xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{}}, {{"x"}}{weights_priority}]>}}, %idx: tensor<8x1xi32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}{indices_priority}, {{}}]>}}) -> tensor<8x16xf32> {{
  %0 = "stablehlo.gather"(%w, %idx) {{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>, indices_are_sorted = false}} : (tensor<32x16xf32>, tensor<8x1xi32>) -> tensor<8x16xf32>
  %1 = stablehlo.negate %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}}
"""


#: (weights priority, indices priority) -> the lookup's result sharding.
SEED = {
    ("", ""): '#sdy.sharding<@mesh, [{}, {"x"}]>',
    ("p0", "p1"): '#sdy.sharding<@mesh, [{}, {"x"}]>',
    ("p1", "p0"): '#sdy.sharding<@mesh, [{"x"}, {}]>',
}


def _propagated(text: str, **options) -> shardy_py.Module:
    with warnings.catch_warnings():
        warnings.simplefilter("error", PipelineStepSkipped)  # every step of the pipeline is run
        return shardy_py.propagate(shardy_py.parse(text, "seed.mlir"), **options)


def _gather(module: shardy_py.Module):
    return next(op for op in module.walk() if op.name == "stablehlo.gather")


@pytest.mark.parametrize(("priorities", "expected"), list(SEED.items()), ids=["none", "p0-weights", "p0-indices"])
def test_seed_lookup_sharding_is_the_pipelines(priorities, expected):
    """The whole propagated module is jaxlib's sdy-propagation-pipeline output; the lookup's result
    takes "x" where the deciding sharding puts it."""
    text = embedding(*priorities)
    module = _propagated(text)
    assert str(module) == cpp(text, "builtin.module(sdy-propagation-pipeline)")
    assert str(_gather(module).attributes["sdy.sharding"].shardings[0]) == expected


@pytest.mark.parametrize("priorities", list(SEED), ids=["none", "p0-weights", "p0-indices"])
def test_seed_user_priority_pass_is_jaxlibs(priorities):
    """The user-priority pass alone also gives jaxlib's module."""
    text = embedding(*priorities)
    module = shardy_py.parse(text)
    PassManager.parse(["-sdy-user-priority-propagate"]).run(module)
    assert str(module) == cpp(text, "builtin.module(sdy-user-priority-propagate)")


def test_seed_priorities_decide_the_dimension():
    """p0 on the indices moves "x" from the embedding dimension to the batch dimension."""
    weights_first = _gather(_propagated(embedding("p0", "p1"))).attributes["sdy.sharding"].shardings[0]
    indices_first = _gather(_propagated(embedding("p1", "p0"))).attributes["sdy.sharding"].shardings[0]
    assert weights_first != indices_first


EXPLAINED = {
    ("", ""): """%0 (stablehlo.gather) at seed.mlir:3:3
  sharding: #sdy.sharding<@mesh, [{}, {"x"}]>
  dimension 0: not sharded
  dimension 1, axis "x": from argument 0 (%w) of @main, dimension 1, no priority (p0) at seed.mlir:2:17
      step 0: stablehlo.gather at seed.mlir:3:3, operand 0 -> result 0 (from argument 0 (%w) of @main)
  kept away:
    axis "x" of operand 1 of stablehlo.gather at seed.mlir:3:3 (argument 1 (%idx) of @main), dimension 0 (its own sharding, no priority (p0)), could shard dimension 0; kept away (used): "x" already shards dimension 1 of this value, from argument 0 (%w) of @main; neither has a priority (both count as p0), so priority did not decide: the propagation strategy's conflict resolution did
""",
    ("p0", "p1"): """%0 (stablehlo.gather) at seed.mlir:3:3
  sharding: #sdy.sharding<@mesh, [{}, {"x"}]>
  dimension 0: not sharded
  dimension 1, axis "x": from argument 0 (%w) of @main, dimension 1, priority p0 at seed.mlir:2:17
      step 0: stablehlo.gather at seed.mlir:3:3, operand 0 -> result 0 (from argument 0 (%w) of @main)
  kept away:
    axis "x" of operand 1 of stablehlo.gather at seed.mlir:3:3 (argument 1 (%idx) of @main), dimension 0 (its own sharding, priority p1), could shard dimension 0; kept away (used): "x" already shards dimension 1 of this value, from argument 0 (%w) of @main; priority decided: "x" there has p0, propagated before "x" here with p1 (a lower number goes first)
""",
    ("p1", "p0"): """%0 (stablehlo.gather) at seed.mlir:3:3
  sharding: #sdy.sharding<@mesh, [{"x"}, {}]>
  dimension 0, axis "x": from argument 1 (%idx) of @main, dimension 0, priority p0 at seed.mlir:2:93
      step 0: stablehlo.gather at seed.mlir:3:3, operand 1 -> result 0 (from argument 1 (%idx) of @main)
  dimension 1: not sharded
  kept away:
    axis "x" of operand 0 of stablehlo.gather at seed.mlir:3:3 (argument 0 (%w) of @main), dimension 1 (its own sharding, priority p1), could shard dimension 1; kept away (used): "x" already shards dimension 0 of this value, from argument 1 (%idx) of @main; priority decided: "x" there has p0, propagated before "x" here with p1 (a lower number goes first)
""",
}


@pytest.mark.parametrize(("priorities", "expected"), list(EXPLAINED.items()), ids=["none", "p0-weights", "p0-indices"])
def test_seed_explain_names_the_deciding_priority(priorities, expected):
    module = _propagated(embedding(*priorities), debug_sharding_origins=True, debug_propagation_edge_sharding=True)
    assert str(explain(module, "%0", source_name="seed.mlir")) == expected


def test_explain_follows_the_ops_back_to_the_user_sharding():
    """The function result's "x" travelled gather -> negate -> the result, latest step first; its
    unsharded dimension 1 is explained where the result's chain leads (the gather, two ops back)."""
    module = _propagated(embedding("p1", "p0"), debug_sharding_origins=True, debug_propagation_edge_sharding=True)
    assert str(explain(module, "result 0", source_name="seed.mlir")) == """result 0 of @main at seed.mlir:5:3
  sharding: #sdy.sharding<@mesh, [{"x"}, {}]>
  dimension 0, axis "x": from argument 1 (%idx) of @main, dimension 0, priority p0 at seed.mlir:2:93
      step 2: @main results at seed.mlir:2:1, operand 0 -> the function result (from %1 (stablehlo.negate))
      step 1: stablehlo.negate at seed.mlir:4:3, operand 0 -> result 0 (from %0 (stablehlo.gather))
      step 0: stablehlo.gather at seed.mlir:3:3, operand 1 -> result 0 (from argument 1 (%idx) of @main)
  dimension 1: not sharded
  kept away:
    axis "x" of operand 0 of stablehlo.gather at seed.mlir:3:3 (argument 0 (%w) of @main), dimension 1 (its own sharding, priority p1), could shard dimension 1 of %0 (stablehlo.gather), where the chain of the result leads; kept away (used): "x" already shards dimension 0 of %0 (stablehlo.gather), from argument 1 (%idx) of @main; priority decided: "x" there has p0, propagated before "x" here with p1 (a lower number goes first)
"""  # noqa: E501


def test_explain_names_a_sharding_constraint():
    """Applying the constraint (step 0, recorded by -sdy-apply-sharding-constraints) gave %0 its
    axes, and propagation carried them back to the argument; the constraint (a reshard after export,
    keeping its name) is the origin, found at its line."""
    text = """sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.abs %x : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {"b"}]> : tensor<8x8xf32>
  %2 = stablehlo.negate %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}
"""
    module = _propagated(text, debug_sharding_origins=True, debug_propagation_edge_sharding=True)
    out = str(explain(module, "%x", source_name="c.mlir"))
    assert out == """argument 0 (%x) of @main at c.mlir:2:17
  sharding: #sdy.sharding<@mesh, [{"a"}, {"b"}]>
  dimension 0, axis "a": from the sharding constraint constraint_0, dimension 0, no priority (p0) at c.mlir:4:3
      step 1: stablehlo.abs at c.mlir:3:3, result 0 -> operand 0 (from %0 (stablehlo.abs))
      step 0: sdy.reshard at c.mlir:4:3, result 0 -> operand 0 (from result 0 of sdy.reshard)
  dimension 1, axis "b": from the sharding constraint constraint_0, dimension 1, no priority (p0) at c.mlir:4:3
      step 1: stablehlo.abs at c.mlir:3:3, result 0 -> operand 0 (from %0 (stablehlo.abs))
      step 0: sdy.reshard at c.mlir:4:3, result 0 -> operand 0 (from result 0 of sdy.reshard)
"""


def test_explain_html_is_a_table_with_escaped_text():
    module = _propagated(embedding("p1", "p0"), debug_sharding_origins=True, debug_propagation_edge_sharding=True)
    page = explain(module, "%0")._repr_html_()
    assert page.startswith("<div class='shardy-explain'><p><b>%0 (stablehlo.gather)</b>")
    assert "<th>dimension</th><th>axis</th><th>from</th>" in page
    assert "&quot;x&quot;" in page and '"x"' not in page.replace("class='shardy-explain'", "")
    assert "<p>Kept away:</p><ul><li>axis &quot;x&quot; of operand 0 of stablehlo.gather" in page


def test_propagate_leaves_its_input_alone():
    module = shardy_py.parse(embedding("p1", "p0"))
    before = str(module)
    result = _propagated(before)
    assert str(module) == before and result is not module and str(result) != before


def test_explain_tracks_origins_itself_after_a_plain_propagate():
    """The Python API explains as the command line does: no debug options to pass by hand."""
    tracked = _propagated(embedding(), debug_sharding_origins=True, debug_propagation_edge_sharding=True)
    plain = _propagated(embedding())
    assert "debug" not in str(plain) and "sharding_origins" not in str(plain)  # propagate's output stays clean
    assert str(explain(plain, "%0")) == str(explain(tracked, "%0"))
    arg = plain.funcs["main"].regions[0].blocks[0].arguments[1]
    assert str(explain(plain, arg)) == str(explain(tracked, tracked.funcs["main"].regions[0].blocks[0].arguments[1]))


def test_explain_of_a_module_propagate_did_not_make_says_how_to_track_origins():
    module = shardy_py.parse(embedding(), "seed.mlir")
    passes.run(module, "sdy-propagation-pipeline")
    assert str(explain(module, "%0")).splitlines()[2] == (
        "  note: no sdy.sharding_origins recorded for this value: propagate with debug_sharding_origins=True "
        "(and debug_propagation_edge_sharding=True for the ops it travelled through)")


@pytest.mark.parametrize(("spec", "message"), [
    ("%9", "no value %9 in @main"),
    ("result 3", "@main has 1 result(s); there is no result 3"),
    ("@other:%0", "no function @other in the module"),
    ("w", "cannot read value 'w': write %name, result N, or @func:%name"),
])
def test_unknown_values_are_clear_errors(spec, message):
    module = shardy_py.parse(embedding())
    with pytest.raises(ExplainError) as err:
        find_value(module, spec)
    assert str(err.value) == message


def test_values_are_found_by_written_name_printed_argument_name_and_result():
    module = shardy_py.parse(embedding())
    func = module.ops[1]
    args = func.regions[0].blocks[0].arguments
    assert find_value(module, "%idx").value is args[1]
    assert find_value(module, "%arg1").value is args[1]
    assert find_value(module, "@main:%w").value is args[0]
    node = find_value(module, "result 0")
    assert node.func is func and node.result == 0


def test_explain_refuses_a_value_of_another_module():
    a, b = shardy_py.parse(embedding()), shardy_py.parse(embedding())
    with pytest.raises(ExplainError, match="is not a value of this module"):
        explain(a, b.ops[1].regions[0].blocks[0].arguments[0])


# -- the command line ----------------------------------------------------------------------------

def _cli(tmp_path, capsys, text: str, *flags: str) -> tuple[int, str, str]:
    from shardy_py.cli import main

    path = tmp_path / "seed.mlir"
    path.write_text(text)
    code = main(["propagate", str(path), *flags])
    out, err = capsys.readouterr()
    return code, out, err.replace(str(path), "seed.mlir")


def test_cli_prints_the_propagated_module(tmp_path, capsys):
    code, out, err = _cli(tmp_path, capsys, embedding("p1", "p0"))
    assert (code, err) == (0, "")
    assert out == str(_propagated(embedding("p1", "p0")))


def test_cli_explains_values(tmp_path, capsys):
    code, out, err = _cli(tmp_path, capsys, embedding("p1", "p0"), "--explain", "%0")
    assert (code, err) == (0, "")
    assert out == EXPLAINED[("p1", "p0")].replace("seed.mlir", str(tmp_path / "seed.mlir"))


def test_cli_unknown_value_is_a_usage_error(tmp_path, capsys):
    assert _cli(tmp_path, capsys, embedding(), "--explain", "%9") == (
        2, "", "shardy-py propagate: --explain: no value %9 in @main\n")


def test_cli_parse_error_is_located(tmp_path, capsys):
    code, out, err = _cli(tmp_path, capsys, 'sdy.mesh @mesh = <["x"=4]>\nfunc.func @main(%a: tensor<4xf32>) {\n')
    assert (code, out) == (1, "")
    assert err.startswith("seed.mlir:2:37: error: ")  # where jaxlib 0.12 reports it: after the last token


def test_cli_pass_failure_is_reported_not_raised(tmp_path, capsys):
    text = 'sdy.mesh @mesh = <["x"=4]>\nfunc.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {\n  %0 = stablehlo.negate %a : tensor<?xf32>\n  return %0 : tensor<?xf32>\n}\n'
    code, out, err = _cli(tmp_path, capsys, text)
    assert (code, out) == (1, "")
    assert "error: Shardy propagation only supports ranked tensors with a static shape" in err


def test_cli_unreadable_file(capsys):
    from shardy_py.cli import main

    assert main(["propagate", "/nonexistent/x.mlir"]) == 2
    assert capsys.readouterr().err.startswith("shardy-py propagate: cannot read /nonexistent/x.mlir")


def test_cli_show_draws_the_propagated_shardings(tmp_path, capsys):
    code, out, err = _cli(tmp_path, capsys, embedding("p1", "p0"), "--show")
    assert (code, err) == (0, "")
    assert out.startswith('%w: tensor<32x16xf32>  (argument 0 of @main)\n  #sdy.sharding<@mesh, [{}, {"x"}]>\n')


RENUMBERED = """sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<8xf32>
  %7 = stablehlo.add %a, %c : tensor<8xf32>
  %9 = stablehlo.negate %7 : tensor<8xf32>
  return %9 : tensor<8xf32>
}
"""


def test_python_explain_reads_names_as_the_module_prints_them():
    result = _propagated(RENUMBERED)
    printed = str(result)
    assert "%2 = stablehlo.negate %1" in printed  # the names a notebook shows
    assert explain(result, "%2").label == explain(result, "%9", names="written").label == "%9 (stablehlo.negate)"
    assert explain(result, "%1").label == "%7 (stablehlo.add)"


def test_a_name_no_printed_value_has_is_read_as_written():
    result = _propagated(RENUMBERED)
    assert explain(result, "%7").label == explain(result, "%1").label == "%7 (stablehlo.add)"

"""``compare`` (reports side by side, variants of one module's user shardings) and ``suggest`` (a
bounded, deterministic search over user priorities and, when asked, mesh axes of unannotated
arguments), on the seed scenario and small modules."""
from __future__ import annotations

import pytest
from test_explain import embedding

import shardy_py
from shardy_py.cost import apply_variant, compare, compare_variants, cost, suggest
from shardy_py.cost.variants import VariantError


def _seed(*priorities):
    return shardy_py.parse(embedding(*priorities), "seed.mlir")


def test_compare_ranks_by_time_then_bytes_then_peak():
    c = compare(_seed("p1", "p0"), _seed("p0", "p1"), labels=["indices first", "weights first"])
    assert (c.cheapest, c.ranking()) == (1, [1, 0])
    assert [r.bytes_sent for r in c.reports] == [120, 24]
    assert c.verdict() == ("cheapest: weights first: 24 B sent per device, ~2 us, peak 776 B; against "
                           "indices first (120 B, ~4 us)")


def test_compare_takes_reports_and_another_objective():
    reports = [cost(_seed("p1", "p0")), cost(_seed("p0", "p1"))]
    c = compare(*reports, labels=["a", "b"], objective="peak")
    assert c.reports == reports and c.cheapest == 1   # equal peaks: the time decides
    assert c.to_json()["order"] == ["peak_bytes", "time_s", "bytes_sent"]


def test_compare_needs_two_modules():
    with pytest.raises(ValueError, match="compare needs two modules or more"):
        compare(_seed())


def test_variants_are_copies_with_the_changes():
    module = _seed()
    label, variant = apply_variant(module, "w first: %w=first")
    assert label == "w first" and str(module) == str(_seed())
    args = variant.funcs["main"].regions[0].blocks[0].arguments
    assert [str(a.attributes["sdy.sharding"]) for a in args] == [
        '#sdy.sharding<@mesh, [{}, {"x"}p0]>', '#sdy.sharding<@mesh, [{"x"}p1, {}]>']


@pytest.mark.parametrize(("spec", "sharding"), [
    ("%idx=[x, None]", '#sdy.sharding<@mesh, [{"x"}, {}]>'),
    ("%idx=[x:p2, ?]", '#sdy.sharding<@mesh, [{"x"}p2, {?}]>'),
    ("%idx=@mesh[None, None]", '#sdy.sharding<@mesh, [{}, {}]>'),
    ("%idx=p3", '#sdy.sharding<@mesh, [{"x"}p3, {}]>'),
    ("%idx=none", '#sdy.sharding<@mesh, [{"x"}, {}]>'),
])
def test_variant_values(spec, sharding):
    _, variant = apply_variant(_seed("", "p1"), spec)
    assert str(variant.funcs["main"].regions[0].blocks[0].arguments[1].attributes["sdy.sharding"]) == sharding


def test_a_variant_reaches_constraints_and_function_results():
    module = shardy_py.parse('''sdy.mesh @m = <["x"=4]>
func.func @main(%a: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) {
  %0 = sdy.sharding_constraint %a <@m, [{}, {"x"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
''')
    _, variant = apply_variant(module, "%0=[x, None]; result 0=p2")
    text = str(variant)
    assert 'sdy.sharding_constraint %arg0 <@m, [{"x"}, {}]>' in text and '[{"x"}p2, {}]' in text


@pytest.mark.parametrize(("spec", "message"), [
    ("", "the variant changes nothing: give at least one TARGET=VALUE"),
    ("%w=maybe", "'maybe' is not p0.., none, first or a PartitionSpec like [x, None]"),
    ("w=p0", "'w' is not a value: write %name, @func:%name or result N"),
    ("%w=[x y]", "'x y' is not None, ?, an axis or (axis, ...), optionally with :pN"),
])
def test_bad_variants_say_what_is_wrong(spec, message):
    with pytest.raises(VariantError) as e:
        apply_variant(_seed(), spec)
    assert str(e.value) == message


def test_compare_variants_puts_the_module_as_written_first():
    c = compare_variants(_seed(), ["%w=first", "%idx=first"])
    assert c.labels == ["as written", "%w=first", "%idx=first"]
    assert [r.bytes_sent for r in c.reports] == [24, 24, 120]


def test_suggest_finds_the_cheaper_priority_of_the_seed():
    s = suggest(_seed("p1", "p0"))
    assert s.best.label == "argument 0 (%w) of @main first"
    assert s.best.report.bytes_sent == 24
    assert [(c.label, c.report.bytes_sent) for c in s.candidates] == [
        ("argument 0 (%w) of @main first", 24),
        ("argument 0 (%w) of @main first; then argument 1 (%idx) of @main", 24),
        ("as written", 120),
        ("argument 1 (%idx) of @main first", 120)]
    # the four candidates give two priority orders (propagated once each) and two results
    assert (s.propagations, s.costings) == (2, 2)


def test_suggest_is_deterministic_and_bounded():
    module = shardy_py.parse(open("examples/mlp.mlir").read())
    runs = [suggest(module, max_candidates=3) for _ in range(2)]
    assert [c.label for c in runs[0].candidates] == [c.label for c in runs[1].candidates]
    assert len(runs[0].candidates) == 3


def test_suggest_can_shard_unannotated_arguments():
    """Nothing is sharded as written: each axis on each dimension of each argument is tried, the
    winner shards everything (propagation carries it to the other argument and the result)."""
    module = shardy_py.parse('''sdy.mesh @m = <["x"=4]>
func.func @main(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.add %a, %b : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
''')
    s = suggest(module, axes=True, objective="peak")
    # 8x16 f32: 512 B whole, 128 B split four ways; the two arguments and the sum live at the add
    assert [(c.label, c.report.peak_bytes) for c in s.candidates] == [
        ("argument 0 dimension 0 along x", 384), ("argument 0 dimension 1 along x", 384),
        ("argument 1 dimension 0 along x", 384), ("argument 1 dimension 1 along x", 384),
        ("argument 0 dimension 0 along x; argument 1 dimension 0 along x", 384),
        ("argument 0 dimension 0 along x; argument 1 dimension 1 along x", 512),   # a reshard's copy
        ("as written", 1536)]


def test_suggest_takes_only_known_objectives():
    with pytest.raises(ValueError, match="objective is one of time, bytes, peak, not 'speed'"):
        suggest(_seed(), objective="speed")


def test_a_comparison_and_a_suggestion_draw_themselves():
    c = compare_variants(_seed(), ["%w=first", "%idx=first"])
    page = c._repr_html_()
    assert page.count("<svg class='memory'") == 3 and "<th>as written (cheapest)</th>" in page
    s = suggest(_seed("p1", "p0"), max_candidates=2)
    page = s._repr_html_()
    assert "<td>1</td><td>argument 0 (%w) of @main first</td>" in page and "<svg class='communication'" in page


def test_a_suggestion_as_json():
    data = suggest(_seed("p1", "p0"), max_candidates=2).to_json()
    assert (data["schema"], data["max_candidates"], [c["label"] for c in data["candidates"]]) == (
        "shardy_py.cost.suggest/1", 2, ["argument 0 (%w) of @main first", "as written"])
    assert data["candidates"][0]["user_shardings"] == [
        {"label": "argument 0 (%w) of @main", "sharding": '#sdy.sharding<@mesh, [{}, {"x"}p0]>'},
        {"label": "argument 1 (%idx) of @main", "sharding": '#sdy.sharding<@mesh, [{"x"}p1, {}]>'}]
    assert data["best"]["per_device"]["bytes_sent"] == 24

"""Properties of ``shardy_py.strategies``: what it draws is valid, canonical-printable and varied,
and every ``invalid_*`` draw is rejected at the line it names."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import shardy_py
from shardy_py import strategies as sst
from shardy_py.ir.attrs import MeshAttr, OpShardingRuleAttr, TensorShardingAttr
from shardy_py.verify import verify as verify_module

settings.register_profile("shardy-strategies", derandomize=True, database=None, deadline=None,
                          suppress_health_check=list(HealthCheck))
BASE = settings.get_profile("shardy-strategies")


def wrap_sharding(mesh: MeshAttr, s: TensorShardingAttr, dims: tuple[int, ...]) -> str:
    """A module with ``mesh`` as ``@m`` and a func arg of shape ``dims`` carrying ``s``."""
    t = "tensor<" + "".join(f"{d}x" for d in dims) + "f32>"
    return (f"sdy.mesh @m = {str(mesh)[len('#sdy.mesh'):]}\n"
            f"func.func @main(%arg0: {t} {{sdy.sharding = {s}}}) -> {t} {{\n  return %arg0 : {t}\n}}\n")


@settings(BASE, max_examples=300)
@given(module=sst.modules())
def test_print_parse_idempotent(module: shardy_py.Module) -> None:
    printed = str(module)
    assert str(shardy_py.parse(printed)) == printed


@settings(BASE, max_examples=300)
@given(module=sst.modules())
def test_drawn_modules_verify_clean(module: shardy_py.Module) -> None:
    assert verify_module(module) == [], module.source


@settings(BASE, max_examples=300)
@given(bad=sst.invalid_modules())
def test_invalid_modules_rejected_at_line(bad: sst.InvalidModule) -> None:
    try:
        diags = verify_module(shardy_py.parse(bad.text))
    except shardy_py.ParseError as e:
        assert e.line == bad.line, (bad.rule, str(e))
        return
    assert diags, f"{bad.rule} not detected:\n{bad.text}"
    assert diags[0].line == bad.line, (bad.rule, [str(d) for d in diags])


@pytest.mark.parametrize("rule", sst.INVALID_RULES)
def test_each_invalid_rule_rejected(rule: str) -> None:
    @settings(BASE, max_examples=5)
    @given(bad=sst.invalid_modules(rules=[rule]))
    def check(bad: sst.InvalidModule) -> None:
        assert bad.rule == rule
        test_invalid_modules_rejected_at_line.hypothesis.inner_test(bad)

    check()


@settings(BASE, max_examples=200)
@given(data=st.data())
def test_tensor_shardings_valid_for_mesh(data: st.DataObject) -> None:
    mesh = data.draw(sst.meshes())
    dims = tuple(data.draw(st.lists(st.sampled_from([1, 2, 6, 8]), max_size=3)))
    s = data.draw(sst.tensor_shardings(mesh, len(dims), mesh_ref="m"))
    assert verify_module(shardy_py.parse(wrap_sharding(mesh, s, dims))) == []
    assert shardy_py.parse_attribute(str(s)) == s


@settings(BASE, max_examples=200)
@given(data=st.data())
def test_axis_refs_and_dimension_shardings(data: st.DataObject) -> None:
    mesh = data.draw(sst.meshes(min_axes=1))
    ref = data.draw(sst.axis_refs(mesh))
    assert mesh.axis_size(ref.name) is not None
    dim = data.draw(sst.dimension_shardings(mesh))
    s = TensorShardingAttr("m", (dim,))
    assert verify_module(shardy_py.parse(wrap_sharding(mesh, s, (8,)))) == []


@settings(BASE, max_examples=200)
@given(data=st.data())
def test_op_sharding_rules_valid(data: st.DataObject) -> None:
    ins = data.draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
    outs = data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=2))
    rule = data.draw(sst.op_sharding_rules(ins, outs))
    assert isinstance(rule, OpShardingRuleAttr)
    assert shardy_py.parse_attribute(str(rule)) == rule

    def ty(r: int) -> str:
        return "tensor<" + "4x" * r + "f32>"

    args = ", ".join(f"%arg{i}: {ty(r)}" for i, r in enumerate(ins))
    res = ", ".join(ty(r) for r in outs)
    ops = ", ".join(f"%arg{i}" for i in range(len(ins)))
    text = (f"func.func @main({args}) -> ({res}) {{\n"
            f"  %0:{len(outs)} = stablehlo.custom_call @f({ops}) {{sdy.sharding_rule = {rule}}} : "
            f"({', '.join(ty(r) for r in ins)}) -> ({res})\n"
            f"  return {', '.join(f'%0#{i}' for i in range(len(outs)))} : {res}\n}}\n")
    assert verify_module(shardy_py.parse(text)) == [], text


#: Substrings that must each show up in some of the drawn modules.
FEATURES = (
    "sdy.manual_computation", "sdy.named_computation", "sdy.sharding_constraint", "sdy.reshard",
    "sdy.all_gather", "sdy.all_slice", "sdy.all_reduce", "sdy.reduce_scatter", "sdy.all_to_all",
    "sdy.collective_permute", "sdy.replicated_to_unreduced", "sdy.sharded_to_unreduced",
    "sdy.sharding_rule", "#sdy.sharding_per_value", "sdy.propagation_barrier", "sdy.sharding_group",
    "device_ids=", ":(", "?}", "}p", "replicated={",
    "unreduced={", "mesh<[", 'manual_axes={"', "@\"", "\\22", "%0:2",
)


def test_drawn_modules_are_diverse() -> None:
    texts: list[str] = []

    @settings(BASE, max_examples=400)
    @given(text=sst.module_texts())
    def collect(text: str) -> None:
        texts.append(text)

    collect()
    assert len(set(texts)) >= 0.85 * len(texts), "drawn modules repeat"  # hypothesis starts with a few small ones
    joined = "\n".join(texts)
    missing = [f for f in FEATURES if f not in joined]
    assert not missing, f"never drawn: {missing}"
    # no feature dominates: each op kind appears in well under all modules
    assert sum("sdy.manual_computation" in t for t in texts) < 0.9 * len(texts)

"""Each sdy attribute: parse -> exact canonical text, field values, syntax errors, uniquing."""
from __future__ import annotations

import pytest

import shardy_py
from shardy_py import (
    AllToAllParamListAttr,
    AxisRefAttr,
    AxisRefListAttr,
    DimensionShardingAttr,
    ListOfAxisRefListsAttr,
    ManualAxesAttr,
    MeshAttr,
    MeshAxisAttr,
    OpShardingRuleAttr,
    ParseError,
    PropagationEdgesAttr,
    SubAxisInfoAttr,
    TensorShardingAttr,
    TensorShardingPerValueAttr,
    parse_attribute,
)


def canon(text: str) -> str:
    return str(parse_attribute(text))


def factor_names(n: int) -> list[str]:
    """i, j, ..., z, z_1, z_2, ... (the names Shardy gives factors)."""
    return [chr(ord("i") + k) if k < 18 else f"z_{k - 17}" for k in range(n)]


# ---- meshes -----------------------------------------------------------------------------------------------


def test_mesh_empty():
    m = parse_attribute("#sdy.mesh<[]>")
    assert isinstance(m, MeshAttr)
    assert str(m) == "#sdy.mesh<[]>"
    assert m.is_empty and m.axes == () and m.device_ids == ()


def test_mesh_maximal():
    m = parse_attribute("#sdy.mesh<[], device_ids=[3]>")
    assert str(m) == "#sdy.mesh<[], device_ids=[3]>"
    assert m.is_maximal and m.device_ids == (3,)


def test_mesh_axes_are_respaced():
    assert canon('#sdy.mesh< [ "a" = 2 ,"b"=4 ] >') == '#sdy.mesh<["a"=2, "b"=4]>'


def test_mesh_fields():
    m = parse_attribute('#sdy.mesh<["a"=2, "b"=4]>')
    assert m.axes == (MeshAxisAttr("a", 2), MeshAxisAttr("b", 4))
    assert m.axis_size("b") == 4 and m.total_size == 8


def test_mesh_explicit_device_ids_kept():
    assert canon('#sdy.mesh<["a"=2,"b"=2],device_ids=[3,2,1,0]>') == \
        '#sdy.mesh<["a"=2, "b"=2], device_ids=[3, 2, 1, 0]>'


def test_mesh_iota_device_ids_dropped():
    m = parse_attribute('#sdy.mesh<["a"=2, "b"=2], device_ids=[0, 1, 2, 3]>')
    assert str(m) == '#sdy.mesh<["a"=2, "b"=2]>'
    assert m.device_ids == ()
    assert m == parse_attribute('#sdy.mesh<["a"=2, "b"=2]>')


# ---- tensor shardings -------------------------------------------------------------------------------------


def test_sharding_mesh_ref():
    s = parse_attribute('#sdy.sharding<@m, [{"a"}, {}]>')
    assert isinstance(s, TensorShardingAttr)
    assert str(s) == '#sdy.sharding<@m, [{"a"}, {}]>'
    assert s.mesh_or_ref == "m" and s.mesh_name == "m" and s.rank == 2
    assert s.dim_shardings[0] == DimensionShardingAttr((AxisRefAttr("a"),), is_closed=True, priority=None)


def test_sharding_quoted_mesh_ref():
    s = parse_attribute('#sdy.sharding<@"m-1", [{"a"}]>')
    assert str(s) == '#sdy.sharding<@"m-1", [{"a"}]>'
    assert s.mesh_name == "m-1"


def test_sharding_inline_mesh():
    s = parse_attribute('#sdy.sharding<mesh<["a"=2]>, [{"a"}]>')
    assert str(s) == '#sdy.sharding<mesh<["a"=2]>, [{"a"}]>'
    assert s.mesh_or_ref == MeshAttr((MeshAxisAttr("a", 2),)) and s.mesh_name is None


def test_sharding_inline_maximal_mesh():
    assert canon("#sdy.sharding<mesh<[], device_ids=[3]>, []>") == "#sdy.sharding<mesh<[], device_ids=[3]>, []>"


def test_sharding_rank_zero():
    assert canon("#sdy.sharding<@m, []>") == "#sdy.sharding<@m, []>"


def test_sharding_open_dims():
    s = parse_attribute('#sdy.sharding<@m,[{?},{"a",?}]>')
    assert str(s) == '#sdy.sharding<@m, [{?}, {"a", ?}]>'
    assert [d.is_open for d in s.dim_shardings] == [True, True]
    assert s.dim_shardings[1].axes == (AxisRefAttr("a"),)


def test_sharding_priorities():
    s = parse_attribute('#sdy.sharding<@m, [{"a"}p1, {?}p0, {"b", ?}p3, {}]>')
    assert str(s) == '#sdy.sharding<@m, [{"a"}p1, {?}p0, {"b", ?}p3, {}]>'
    assert [d.priority for d in s.dim_shardings] == [1, 0, 3, None]


def test_sharding_priority_field():
    assert parse_attribute('#sdy.sharding<@m, [{"a"}p1]>').dim_shardings[0].priority == 1


def test_sharding_sub_axes():
    s = parse_attribute('#sdy.sharding<@m, [{"x":(2)4, "y"}]>')
    assert str(s) == '#sdy.sharding<@m, [{"x":(2)4, "y"}]>'
    assert s.dim_shardings[0].axes[0] == AxisRefAttr("x", SubAxisInfoAttr(pre_size=2, size=4))
    assert s.dim_shardings[0].axes[1].sub_axis_info is None


def test_sharding_sub_axes_respaced():
    assert canon('#sdy.sharding<@m, [{"x" : ( 1 ) 2, "x":(2)2}]>') == '#sdy.sharding<@m, [{"x":(1)2, "x":(2)2}]>'


def test_sharding_replicated():
    s = parse_attribute('#sdy.sharding<@m, [{}], replicated={"b", "c":(1)2}>')
    assert str(s) == '#sdy.sharding<@m, [{}], replicated={"b", "c":(1)2}>'
    assert s.replicated_axes == (AxisRefAttr("b"), AxisRefAttr("c", SubAxisInfoAttr(1, 2)))


def test_sharding_unreduced_default_sum():
    s = parse_attribute('#sdy.sharding<@m, [{}], unreduced={"b"}>')
    assert str(s) == '#sdy.sharding<@m, [{}], unreduced={"b"}>'
    assert s.unreduced_axes == (AxisRefAttr("b"),) and s.reduction == "sum"


def test_sharding_unreduced_explicit_sum_prints_without_kind():
    assert canon('#sdy.sharding<@m, [{}], unreduced=sum{"b"}>') == '#sdy.sharding<@m, [{}], unreduced={"b"}>'


@pytest.mark.parametrize("kind", ["max", "min"])
def test_sharding_unreduced_max_min(kind):
    s = parse_attribute(f'#sdy.sharding<@m, [{{}}], unreduced={kind}{{"b"}}>')
    assert str(s) == f'#sdy.sharding<@m, [{{}}], unreduced={kind}{{"b"}}>'
    assert s.reduction == kind


def test_sharding_replicated_printed_before_unreduced():
    s = parse_attribute('#sdy.sharding<@m, [{"a"}], unreduced={"b"}, replicated={"c"}>')
    assert str(s) == '#sdy.sharding<@m, [{"a"}], replicated={"c"}, unreduced={"b"}>'


def test_sharding_replicated_and_unreduced_max_order():
    assert canon('#sdy.sharding<@m, [], unreduced=max{"c"}, replicated={"a", "b"}>') == \
        '#sdy.sharding<@m, [], replicated={"a", "b"}, unreduced=max{"c"}>'


def test_sharding_string_escape_quote():
    s = parse_attribute(r'#sdy.sharding<@m, [{"a\22b"}]>')
    assert s.dim_shardings[0].axes[0].name == 'a"b'
    assert str(s) == r'#sdy.sharding<@m, [{"a\22b"}]>'


def test_sharding_string_escape_backslash_and_newline():
    assert parse_attribute(r'#sdy.sharding<@m, [{"a\5Cb"}]>').dim_shardings[0].axes[0].name == "a\\b"
    assert canon(r'#sdy.sharding<@m, [{"a\5Cb"}]>') == r'#sdy.sharding<@m, [{"a\\b"}]>'
    assert canon(r'#sdy.sharding<@m, [{"\n"}]>') == r'#sdy.sharding<@m, [{"\0A"}]>'


def test_sharding_non_ascii_axis_name_is_hex_escaped():
    s = parse_attribute('#sdy.sharding<@m, [{"é"}]>')
    assert s.dim_shardings[0].axes[0].name == "é"
    assert str(s) == r'#sdy.sharding<@m, [{"\C3\A9"}]>'


def test_sharding_respaced_over_lines():
    text = '#sdy.sharding<@m ,\n   [ { "a" , ? } p2 ,\n {} ] ,  replicated = { "b" } >'
    assert canon(text) == '#sdy.sharding<@m, [{"a", ?}p2, {}], replicated={"b"}>'


# ---- sharding per value -----------------------------------------------------------------------------------


def test_sharding_per_value():
    a = parse_attribute('#sdy.sharding_per_value<[<@m, [{"a"}]>, <@m, []>]>')
    assert isinstance(a, TensorShardingPerValueAttr)
    assert str(a) == '#sdy.sharding_per_value<[<@m, [{"a"}]>, <@m, []>]>'
    assert len(a.shardings) == 2 and a.shardings[1].rank == 0


def test_sharding_per_value_empty():
    assert canon("#sdy.sharding_per_value<[]>") == "#sdy.sharding_per_value<[]>"


def test_sharding_per_value_full_form_elements():
    assert canon('#sdy.sharding_per_value<[#sdy.sharding<@m, [{"a"}]>]>') == \
        '#sdy.sharding_per_value<[<@m, [{"a"}]>]>'


# ---- op sharding rules ------------------------------------------------------------------------------------


def test_rule_matmul_with_reduction():
    r = parse_attribute("#sdy.op_sharding_rule<([i, j], [j, k])->([i, k]) {i=8, j=16, k=8} reduction={j}>")
    assert isinstance(r, OpShardingRuleAttr)
    assert str(r) == "#sdy.op_sharding_rule<([i, j], [j, k])->([i, k]) {i=8, j=16, k=8} reduction={j}>"
    assert r.factor_sizes == (8, 16, 8) and r.reduction_factors == (1,)
    assert [m.factor_indices for m in r.operand_mappings[1].dim_mappings] == [(1,), (2,)]


def test_rule_compound_factor():
    r = parse_attribute("#sdy.op_sharding_rule<([ij])->([i, j]) {i=2, j=4}>")
    assert str(r) == "#sdy.op_sharding_rule<([ij])->([i, j]) {i=2, j=4}>"
    assert r.operand_mappings[0].dim_mappings[0].factor_indices == (0, 1)


def test_rule_respaced():
    assert canon("#sdy.op_sharding_rule< ( [i,j] ) -> ( [j,i] ) { i = 2 , j = 4 } >") == \
        "#sdy.op_sharding_rule<([i, j])->([j, i]) {i=2, j=4}>"


def test_rule_zz_1():
    names = factor_names(20)
    out = names[:17] + ["zz_1", "z_2"]
    sizes = ", ".join(f"{n}=2" for n in names)
    text = f"#sdy.op_sharding_rule<([{', '.join(names)}])->([{', '.join(out)}]) {{{sizes}}}>"
    r = parse_attribute(text)
    assert str(r) == text
    assert r.result_mappings[0].dim_mappings[17].factor_indices == (17, 18)


def test_rule_z_8z_9z_10():
    names = factor_names(28)
    out = names[:25] + ["z_8z_9z_10"]
    sizes = ", ".join(f"{n}=2" for n in names)
    text = f"#sdy.op_sharding_rule<([{', '.join(names)}])->([{', '.join(out)}]) {{{sizes}}}>"
    r = parse_attribute(text)
    assert str(r) == text
    assert r.result_mappings[0].dim_mappings[25].factor_indices == (25, 26, 27)


def test_rule_factor_size_beyond_int32():
    r = parse_attribute("#sdy.op_sharding_rule<([i])->([i]) {i=8589934592}, custom>")
    assert str(r) == "#sdy.op_sharding_rule<([i])->([i]) {i=8589934592}, custom>"
    assert r.factor_sizes == (8589934592,) and r.is_custom_rule


def test_rule_special_factor_lists():
    text = ("#sdy.op_sharding_rule<([i, j, k, l])->([i, j, k, l]) {i=2, j=2, k=2, l=2} "
            "reduction={i} need_replication={j} permutation={k} blocked_propagation={l}>")
    r = parse_attribute(text)
    assert str(r) == text
    assert (r.reduction_factors, r.need_replication_factors, r.permutation_factors,
            r.blocked_propagation_factors) == ((0,), (1,), (2,), (3,))


def test_rule_empty_special_factor_list_is_dropped():
    assert canon("#sdy.op_sharding_rule<([i, j])->([i]) {i=4, j=2} reduction={}>") == \
        "#sdy.op_sharding_rule<([i, j])->([i]) {i=4, j=2}>"


def test_rule_custom():
    r = parse_attribute("#sdy.op_sharding_rule<([i, j])->([i, j]) {i=16, j=32}, custom>")
    assert str(r) == "#sdy.op_sharding_rule<([i, j])->([i, j]) {i=16, j=32}, custom>"
    assert r.is_custom_rule


def test_rule_scalar_tensors():
    assert canon("#sdy.op_sharding_rule<([], [])->([]) {}>") == "#sdy.op_sharding_rule<([], [])->([])>"


# ---- generic #sdy<...> attributes -------------------------------------------------------------------------


def test_manual_axes():
    a = parse_attribute('#sdy<manual_axes{"a","b"}>')
    assert isinstance(a, ManualAxesAttr)
    assert str(a) == '#sdy<manual_axes{"a", "b"}>'
    assert a.axes == ("a", "b")


def test_manual_axes_empty():
    assert canon("#sdy<manual_axes{}>") == "#sdy<manual_axes{}>"


def test_axis_ref_list():
    a = parse_attribute('#sdy<axis_ref_list{"a", "b":(1)2}>')
    assert isinstance(a, AxisRefListAttr)
    assert str(a) == '#sdy<axis_ref_list{"a", "b":(1)2}>'
    assert a.value == (AxisRefAttr("a"), AxisRefAttr("b", SubAxisInfoAttr(1, 2)))


def test_list_of_axis_ref_lists():
    a = parse_attribute('#sdy<list_of_axis_ref_lists[{"a"}, {}]>')
    assert isinstance(a, ListOfAxisRefListsAttr)
    assert str(a) == '#sdy<list_of_axis_ref_lists[{"a"}, {}]>'
    assert [len(x.value) for x in a.value] == [1, 0]


def test_all_to_all_param_list():
    a = parse_attribute('#sdy<all_to_all_param_list[{"a","b"}:1->0, {"c"}: 0->1]>')
    assert isinstance(a, AllToAllParamListAttr)
    assert str(a) == '#sdy<all_to_all_param_list[{"a", "b"}: 1->0, {"c"}: 0->1]>'
    assert (a.value[0].src_dim, a.value[0].tgt_dim) == (1, 0)


# ---- propagation edges ------------------------------------------------------------------------------------


def test_propagation_edges():
    text = ('#sdy.propagation_edges<[{step-0 = [{"a" = operand-0 -> [result-0]}]}, '
            '{step-1 = [{"b" = result-1 -> [operand-0, result-0]}]}]>')
    e = parse_attribute(text)
    assert isinstance(e, PropagationEdgesAttr)
    assert str(e) == text
    step = e.value[1]
    assert step.step_index == 1
    assert step.axis_entries[0].source.type == "result" and step.axis_entries[0].source.index == 1
    assert [(t.type, t.index) for t in step.axis_entries[0].targets] == [("operand", 0), ("result", 0)]


def test_propagation_edges_negative_step():
    e = parse_attribute('#sdy.propagation_edges<[{step--3 = [{"b" = result-1 -> [operand-0]}]}]>')
    assert str(e) == '#sdy.propagation_edges<[{step--3 = [{"b" = result-1 -> [operand-0]}]}]>'
    assert e.value[0].step_index == -3


# ---- uniquing ---------------------------------------------------------------------------------------------


def test_same_text_gives_same_object():
    text = '#sdy.sharding<@m, [{"a"}p1, {?}]>'
    assert parse_attribute(text) is parse_attribute(text)


def test_same_text_in_a_module_gives_same_object():
    m = shardy_py.parse('sdy.mesh @m = <["a"=2]>\n'
                        'func.func @f(%a: tensor<2xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}]>},'
                        ' %b: tensor<2xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}]>}) {\n  return\n}\n')
    a, b = m.funcs["f"].regions[0].block.arguments
    assert a.attributes["sdy.sharding"] is b.attributes["sdy.sharding"]


def test_attributes_are_hashable_values():
    a = parse_attribute('#sdy.sharding<@m, [{"a"}]>')
    assert a == TensorShardingAttr("m", (DimensionShardingAttr((AxisRefAttr("a"),)),))
    assert hash(a) == hash(TensorShardingAttr("m", (DimensionShardingAttr((AxisRefAttr("a"),)),)))
    assert len({a, parse_attribute('#sdy.sharding<@m,[{"a"}]>')}) == 1


# ---- syntax errors ----------------------------------------------------------------------------------------


def error_of(text: str) -> ParseError:
    with pytest.raises(ParseError) as info:
        parse_attribute(text)
    return info.value


def at(text: str, e: ParseError) -> str:
    """The source text starting at the error's column (line 1)."""
    return text.splitlines()[e.line - 1][e.column - 1:]


def test_error_priority_leading_zero():
    text = '#sdy.sharding<@m, [{"a"}p01]>'
    e = error_of(text)
    assert (e.line, e.column) == (1, 25)
    assert at(text, e).startswith("p01")
    assert "leading zeros" in e.message


def test_error_priority_not_a_number():
    text = '#sdy.sharding<@m, [{"a"}px]>'
    e = error_of(text)
    assert at(text, e).startswith("px")


def test_error_axis_after_open_marker():
    text = '#sdy.sharding<@m, [{?, "a"}]>'
    e = error_of(text)
    assert (e.line, e.column) == (1, 22)
    assert at(text, e).startswith(', "a"')


def test_error_empty_replicated():
    text = '#sdy.sharding<@m, [{}], replicated={}>'
    e = error_of(text)
    assert (e.line, e.column) == (1, 37)
    assert at(text, e).startswith("}")


def test_error_factor_size_beyond_int64():
    text = "#sdy.op_sharding_rule<([i])->([i]) {i=99999999999999999999}>"
    e = error_of(text)
    assert at(text, e).startswith("99999999999999999999")


def test_error_factor_sizes_out_of_order():
    text = "#sdy.op_sharding_rule<([i, j])->([i, j]) {j=2, i=2}>"
    e = error_of(text)
    assert at(text, e).startswith("j=2")


def test_error_column_counts_leading_whitespace():
    text = '   #sdy.sharding<@m, [{"a"}p01]>'
    e = error_of(text)
    assert (e.line, e.column) == (1, 28)


def test_error_on_second_line():
    text = '#sdy.sharding<@m,\n  [{"a"}p01]>'
    e = error_of(text)
    assert (e.line, e.column) == (2, 9)


def test_error_unknown_mnemonic_points_at_start():
    e = error_of("#sdy.foo<[]>")
    assert (e.line, e.column) == (1, 1)


def test_error_unknown_mnemonic_message_names_it():
    e = error_of("#sdy.foo<[]>")
    assert "foo" in e.message and "anon_" not in e.message


@pytest.mark.xfail(strict=True, reason="a repeated 'replicated=' is reported at column 1, not at the repeat")
def test_error_repeated_replicated_points_at_repeat():
    text = '#sdy.sharding<@m, [{"a"}], replicated={"b"}, replicated={"c"}>'
    e = error_of(text)
    assert at(text, e).startswith('replicated={"c"}')


def test_error_in_module_has_absolute_line_and_column():
    text = ('sdy.mesh @m = <["a"=2]>\n'
            'func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}p01]>}) {\n'
            '  return\n}\n')
    with pytest.raises(ParseError) as info:
        shardy_py.parse(text)
    e = info.value
    assert e.line == 2
    assert text.splitlines()[1][e.column - 1:].startswith("p01")


@pytest.mark.parametrize("text,message", [
    ('#sdy.sharding_per_value<[@mesh, [{}]>]>', "1:26: expected '#sdy.sharding' or '<' or ']', got '@mesh'"),
    ('#sdy.op_sharding_rule<([i]) ([i]) {i=2}>', "1:29: expected '->', got '('"),
])
def test_syntax_error_names_the_literal_the_grammar_expects(text, message):
    """Never the parser generator's name for an unnamed terminal (``__ANON_1``)."""
    with pytest.raises(Exception) as e:
        shardy_py.parse_attribute(text)
    assert str(e.value) == message

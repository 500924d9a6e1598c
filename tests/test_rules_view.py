"""The readable view of an op sharding rule (``shardy_py.show.rule_view``): text and HTML."""
from __future__ import annotations

from html.parser import HTMLParser

import pytest

import shardy_py
from shardy_py.ir.attrs import DimMappingAttr, OpShardingRuleAttr, TensorMappingAttr
from shardy_py.show.rule_view import RuleView, describe, factor_kind, is_blocked

DOT = "#sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=16, k=4} reduction={k}>"
RESHAPE = ("#sdy.op_sharding_rule<([ij, k])->([i, jk]) {i=2, j=4, k=3} need_replication={k} "
           "blocked_propagation={i}, custom>")
MODULE = """func.func @main(%arg0: tensor<8x4xf32>, %arg1: tensor<4x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] \
: (tensor<8x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
"""

#: ``describe`` of the dot_general of ``MODULE`` (also what ``python -m shardy_py rules`` prints for it).
DOT_WITH_OP = """\
sharding rule of stablehlo.dot_general at line 2
#sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=16, k=4} reduction={k}>
  tensor     value  type              dims
  operand 0  %arg0  tensor<8x4xf32>   [i, k]
  operand 1  %arg1  tensor<4x16xf32>  [k, j]
  result 0   %0     tensor<8x16xf32>  [i, j]
  factor  size  kind          dimensions
  i          8  pass-through  operand 0 dim 0, result 0 dim 0
  j         16  pass-through  operand 1 dim 1, result 0 dim 1
  k          4  reduction     operand 0 dim 1, operand 1 dim 0
  custom rule: no"""


def rule(text: str) -> OpShardingRuleAttr:
    return shardy_py.parse_attribute(text)


def dot_op() -> shardy_py.Operation:
    return next(op for op in shardy_py.parse(MODULE).op.walk() if op.name == "stablehlo.dot_general")


def test_describe_without_op_lists_tensors_and_factors():
    assert describe(rule(DOT)) == """\
#sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=16, k=4} reduction={k}>
  tensor     dims
  operand 0  [i, k]
  operand 1  [k, j]
  result 0   [i, j]
  factor  size  kind          dimensions
  i          8  pass-through  operand 0 dim 0, result 0 dim 0
  j         16  pass-through  operand 1 dim 1, result 0 dim 1
  k          4  reduction     operand 0 dim 1, operand 1 dim 0
  custom rule: no"""


def test_describe_with_op_names_values_and_types_and_says_where():
    assert describe(rule(DOT), dot_op()) == DOT_WITH_OP


def test_dimension_of_several_factors_says_which_part_each_factor_is():
    text = describe(rule(RESHAPE))
    assert "  j          4  pass-through                        operand 0 dim 0 (factor 2 of 2), " \
           "result 0 dim 1 (factor 1 of 2)" in text.splitlines()


def test_blocked_propagation_is_shown_with_the_kind():
    lines = describe(rule(RESHAPE)).splitlines()
    assert lines[5] == ("  i          2  pass-through + blocked propagation  "
                        "operand 0 dim 0 (factor 1 of 2), result 0 dim 0")


def test_need_replication_and_custom_rule():
    lines = describe(rule(RESHAPE)).splitlines()
    assert lines[7] == ("  k          3  need-replication                    "
                        "operand 0 dim 1, result 0 dim 1 (factor 2 of 2)")
    assert lines[-1] == "  custom rule: yes"


def test_permutation_factor():
    r = rule("#sdy.op_sharding_rule<([i])->([i]) {i=6} permutation={i}>")
    assert describe(r).splitlines()[5] == "  i          6  permutation  operand 0 dim 0, result 0 dim 0"


def test_scalar_operand_has_no_dims():
    r = rule("#sdy.op_sharding_rule<([])->([i, j]) {i=16, j=256}>")
    assert describe(r).splitlines()[:3] == [
        "#sdy.op_sharding_rule<([])->([i, j]) {i=16, j=256}>", "  tensor     dims", "  operand 0  []"]


def test_factor_in_no_tensor_says_so():
    r = OpShardingRuleAttr((4, 2), [TensorMappingAttr([DimMappingAttr([0])])],
                           [TensorMappingAttr([DimMappingAttr([0])])])
    assert describe(r).splitlines()[-2] == "  j          2  pass-through  no dimension"


def test_factor_kind_and_blocked_queries():
    r = rule(RESHAPE)
    assert [factor_kind(r, k) for k in range(3)] == ["pass-through", "pass-through", "need-replication"]
    assert [is_blocked(r, k) for k in range(3)] == [True, False, False]
    assert factor_kind(rule(DOT), 2) == "reduction"


def test_rule_view_str_is_describe_and_repr_is_the_rule():
    v = RuleView(rule(DOT), dot_op())
    assert str(v) == describe(rule(DOT), dot_op())
    assert repr(v) == f"RuleView({DOT})"


def test_rule_view_refuses_other_attributes():
    with pytest.raises(TypeError, match="RuleView needs an OpShardingRuleAttr, not TensorShardingAttr"):
        RuleView(shardy_py.parse_attribute('#sdy.sharding<@m, [{"a"}]>'))


class _Cells(HTMLParser):
    """The text of every ``<td>``/``<th>`` cell of an HTML fragment, row by row."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.depth = 0

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.rows[-1].append("")
            self.depth += 1

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.rows[-1][-1] += data


def test_html_tables_hold_the_same_cells_as_the_text():
    cells = _Cells()
    cells.feed(RuleView(rule(DOT), dot_op())._repr_html_())
    assert cells.rows == [
        ["tensor", "value", "type", "dims"],
        ["operand 0", "%arg0", "tensor<8x4xf32>", "[i, k]"],
        ["operand 1", "%arg1", "tensor<4x16xf32>", "[k, j]"],
        ["result 0", "%0", "tensor<8x16xf32>", "[i, j]"],
        ["factor", "size", "kind", "dimensions"],
        ["i", "8", "pass-through", "operand 0 dim 0, result 0 dim 0"],
        ["j", "16", "pass-through", "operand 1 dim 1, result 0 dim 1"],
        ["k", "4", "reduction", "operand 0 dim 1, operand 1 dim 0"],
    ]


def test_html_escapes_types_and_the_rule():
    html = RuleView(rule(DOT), dot_op())._repr_html_()
    assert "tensor&lt;8x4xf32&gt;" in html
    assert "-&gt;" in html
    assert "tensor<8x4" not in html and ")->(" not in html


def test_html_gives_each_factor_one_colour_in_both_tables():
    html = RuleView(rule(DOT))._repr_html_()
    spans = [part.split(">", 1) for part in html.split("<span ")[1:]]
    k_spans = [style for style, rest in spans if rest.startswith("k<") and "background" in style]
    assert len(k_spans) == 3  # operand 0 dim 1, operand 1 dim 0, the factor table
    assert len(set(k_spans)) == 1


def test_html_says_custom_rule():
    assert "custom rule: yes" in RuleView(rule(RESHAPE))._repr_html_()


def test_rule_with_more_tensors_than_the_op_shows_question_marks():
    op = shardy_py.parse("func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
                         "  %0 = stablehlo.negate %arg0 : tensor<8xf32>\n"
                         "  return %0 : tensor<8xf32>\n}\n").op
    negate = next(o for o in op.walk() if o.name == "stablehlo.negate")
    lines = describe(rule("#sdy.op_sharding_rule<([i], [i])->([i]) {i=8}>"), negate).splitlines()
    assert lines[2:6] == ["  tensor     value  type           dims",
                          "  operand 0  %arg0  tensor<8xf32>  [i]",
                          "  operand 1  ?      ?              [i]",
                          "  result 0   %0     tensor<8xf32>  [i]"]


def test_factor_without_a_size_shows_a_question_mark():
    r = OpShardingRuleAttr((4,), [TensorMappingAttr([DimMappingAttr([0, 1])])],
                           [TensorMappingAttr([DimMappingAttr([0, 1])])])
    assert describe(r).splitlines()[-2] == ("  j          ?  pass-through  "
                                            "operand 0 dim 0 (factor 2 of 2), result 0 dim 0 (factor 2 of 2)")

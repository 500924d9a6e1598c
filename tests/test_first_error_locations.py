"""A location cut short fails where MLIR's location parser first fails (issue 26, ``syntax.locations``).

``parse_module`` keeps a location as the text of its balanced ``loc(...)`` group, so a ``loc(callsite(#loc1``
or a ``#loc5 = loc("f.py":3:4 to`` cut at a line's end was reported where the bracket balancing failed (the
end of the input, lines below).  MLIR reads the location's grammar token by token on into the next lines and
stops at the first token it does not take: the next definition's ``#loc6`` where a callsite wants its 'at',
the next op's name where a location instance is due.  An alias definition's value cut short reads on into
the next definition the same way.  Each case is a cut line of the differential run's kind
(benchmarks/differential_structure.py with --jax-programs), reduced; the messages, lines and columns are
jaxlib 0.12's, and the last tests ask jaxlib itself.
"""
from __future__ import annotations

import pytest
from first_error_helpers import case_table_tests

import shardy_py

#: A function whose add has the trailing location ``{loc}``, cut before the return's line.
_OP = ("func.func @f(%a: tensor<f32>) -> tensor<f32> {{\n  %0 = stablehlo.add %a, %a : tensor<f32> {loc}\n"
       "  return %0 : tensor<f32>\n}}\n")
#: A function with its location aliases after it, the first one's value ``{value}``, cut before the second.
_ALIASES = ('func.func @f(%a: tensor<f32>) -> tensor<f32> {{\n  return %a : tensor<f32>\n}} loc(#loc)\n'
            '#loc = loc("a")\n#loc2 = {value}\n#loc3 = loc("x")\n')

#: name -> (text, jaxlib 0.12's line, column and message, which are ours too).
CASES = {
    # -- an op's trailing location
    "callsite_without_its_closing_paren": (
        _OP.format(loc='loc(callsite("a" at "b"'), 2, 66, "expected ')' in callsite location"),
    "alias_location_without_its_closing_paren": (
        _OP.format(loc="loc(#loc1") + '#loc1 = loc("x")\n', 2, 52, "expected ')' in location"),
    "fused_location_cut_after_its_bracket": (
        _OP.format(loc="loc(fused["), 2, 53, "expected location instance"),
    "callsite_naming_an_alias_defined_after_the_op": (
        _OP.format(loc='loc(callsite(#loc1 at "b"))') + '#loc1 = loc("x")\n', 2, 61,
        "undefined symbol alias id 'loc1'"),
    "file_line_without_its_closing_paren": (
        _OP.format(loc='loc("a":3'), 2, 52, "expected ')' in location"),
    # -- argument locations: a name whose child location is cut
    "function_argument_name_location_cut_after_its_paren": (
        'func.func @f(%a: tensor<f32> loc("x"(\n  return %a : tensor<f32>\n}\n', 1, 38,
        "expected location instance"),
    "block_argument_name_location_cut_after_its_paren": (
        'func.func @f(%a: tensor<f32>) -> tensor<f32> {\n  %0 = "stablehlo.add"(%a, %a) ({\n'
        '  ^bb0(%b: tensor<f32> loc("x"(\n    stablehlo.return %b : tensor<f32>\n'
        "  }) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n  return %0 : tensor<f32>\n}\n", 3, 32,
        "expected location instance"),
    # -- a dialect's attribute where a location instance is due (none is a location): MLIR reads it, then
    #    stops at the token after it; a '#name' without a dot is an alias, whatever follows it
    "dialect_attribute_as_an_op_location": (
        _OP.format(loc="loc(#foo.bar)"), 2, 55, "expected location attribute, but got#foo.bar"),
    "dialect_attribute_with_a_body_inside_a_callsite": (
        _OP.format(loc='loc(callsite(#foo.bar<"a"> at "x":1:2))'), 2, 70,
        'expected location attribute, but got#foo.bar<"a">'),
    "module_location_cut_after_its_paren_reads_the_next_aliases_name": (
        "module {\n} loc(\n#loc = loc(unknown)\n", 3, 5, "expected ')' in location"),
    "function_location_cut_after_its_paren_reads_the_next_aliases_name": (
        "func.func @f() {\n  return\n} loc(\n#loc = loc(unknown)\n", 4, 5, "expected ')' in location"),
    "alias_name_followed_by_a_dialect_body": (
        _OP.format(loc='loc(#foo<"a">)'), 2, 51, "expected ')' in location"),
    # -- location aliases (attributes: 'inline' locations), cut before the next definition
    "unknown_cut_short": (_ALIASES.format(value="loc(unk"), 5, 13, "expected location instance"),
    "callsite_cut_before_its_at": (
        _ALIASES.format(value="loc(callsite(#loc"), 5, 26, "expected 'at' in callsite location"),
    "name_without_its_closing_paren": (_ALIASES.format(value='loc("a"'), 5, 16, "expected ')' in inline location"),
    "name_child_alias_cut_inside_its_name": (
        _ALIASES.format(value='loc("a"(#l'), 5, 19, "undefined symbol alias id 'l'"),
    "name_child_without_its_closing_paren": (
        _ALIASES.format(value='loc("a"(#loc'), 5, 21, "expected ')' after child location of NameLoc"),
    "file_range_cut_after_to": (
        _ALIASES.format(value='loc("a":1:2 to'), 5, 23, "expected either integer or `:` post `to` in FileLineColRange"),
    "file_range_cut_after_its_colon": (
        _ALIASES.format(value='loc("a":1:2 to :'), 5, 25, "expected integer column number in FileLineColRange"),
    "fused_metadata_without_its_angle": (
        _ALIASES.format(value='loc(fused<"m"'), 5, 22, "expected '>' after fused location metadata"),
    "fused_list_running_into_the_next_definition": (
        _ALIASES.format(value="loc(fused[#loc, "), 6, 6, "undefined symbol alias id 'loc3'"),
    # -- an alias definition's value cut short, or text after it
    "alias_value_missing_reads_the_next_alias": (_ALIASES.format(value=""), 6, 6, "undefined symbol alias id 'loc3'"),
    "a_word_after_an_alias_is_an_unknown_custom_op": (
        '#loc1 = loc("a")\nmodul {\n}\n', 2, 1, "custom op 'modul' is unknown (tried 'builtin.modul' as well)"),
}

#: Locations of every kind, whole (a nested alias defined before the op or the definition that uses it).
_WHOLE = ('#loc0 = loc("z")\nfunc.func @f(%a: tensor<f32> loc("a"("f.py":1:2))) -> tensor<f32> {\n'
          '  %0 = stablehlo.add %a, %a : tensor<f32> loc(fused<"m">["a", #loc0, unknown])\n'
          "  return %0 : tensor<f32> loc(#loc2)\n} loc(#loc1)\n"
          '#loc1 = loc("f.py":3:4 to 5:6)\n#loc2 = loc(callsite(#loc1 at "g.py":7:8 to :9))\n')


(test_first_error_is_where_mlir_stops, test_fast_paths_off_give_the_same_first_error,
 test_jaxlib_stops_at_the_same_place) = case_table_tests(CASES)


def test_whole_locations_of_every_kind_are_no_error() -> None:
    assert shardy_py.verify(shardy_py.parse(_WHOLE)) == []


def test_jaxlib_accepts_whole_locations_of_every_kind() -> None:
    pytest.importorskip("jax", reason="the oracle is MLIR in jaxlib 0.12 (pip install 'jax==0.12.0.1')")
    from jaxlib_worker import shared_worker

    answer = shared_worker().call("module", text=_WHOLE, pretty=False)
    assert answer["ok"], answer

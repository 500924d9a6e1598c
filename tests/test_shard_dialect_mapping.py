"""How each piece maps between the shard/mesh dialect and sdy, with exact texts both ways."""
from __future__ import annotations

import shardy_py
from shardy_py.interop.shard_dialect import convert, to_sdy, to_shard

SDY = '''sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x16xf32>) \
-> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, tensor<8x16xf32>) {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : \
tensor<8x16xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"x"}]> {tag = "keep"} : tensor<8x16xf32>
  %2:2 = "two"(%1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {?}]>, <@mesh, [{"y"}, {}]>]>} : \
(tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  return %2#0, %2#1 : tensor<8x16xf32>, tensor<8x16xf32>
}
'''

# Made by printing the module this conversion gave before value names followed MLIR: the shard ops'
# getAsmResultNames (%sharding, %sharding_annotated, with _N on a conflict), other values numbered.
SHARD = '''module {
  shard.grid @mesh(shape = 2x4) {shardy_py.axis_names = ["x", "y"]}
  func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
    %sharding = shard.sharding @mesh split_axes = [[0]] : !shard.sharding
    %sharding_annotated = shard.shard %arg0 to %sharding : tensor<8x16xf32>
    %0 = stablehlo.add %sharding_annotated, %arg1 : tensor<8x16xf32>
    %sharding_0 = shard.sharding @mesh split_axes = [[0, 1]] : !shard.sharding
    %sharding_annotated_1 = shard.shard %0 to %sharding_0 : tensor<8x16xf32>
    %sharding_2 = shard.sharding @mesh split_axes = [[], [0]] : !shard.sharding
    %sharding_annotated_3 = shard.shard %sharding_annotated_1 to %sharding_2 annotate_for_users {tag = "keep"} : \
tensor<8x16xf32>
    %1:2 = "two"(%sharding_annotated_3) : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
    %sharding_4 = shard.sharding @mesh split_axes = [[1]] : !shard.sharding
    %sharding_annotated_5 = shard.shard %1#1 to %sharding_4 : tensor<8x16xf32>
    %sharding_6 = shard.sharding @mesh split_axes = [[], [1]] : !shard.sharding
    %sharding_annotated_7 = shard.shard %1#0 to %sharding_6 annotate_for_users {shardy_py.func_result} : \
tensor<8x16xf32>
    return %sharding_annotated_7, %sharding_annotated_5 : tensor<8x16xf32>, tensor<8x16xf32>
  }
}
'''


def test_every_kind_of_sdy_sharding_becomes_shard_ops():
    assert str(to_shard(shardy_py.parse(SDY))) == SHARD


def test_and_comes_back_as_the_same_sdy():
    assert str(to_sdy(shardy_py.parse(SHARD))) == str(shardy_py.parse(SDY))


def test_converted_module_verifies():
    assert shardy_py.verify(to_sdy(shardy_py.parse(SHARD))) == []


def test_grid_without_axis_names_gets_numbered_axes():
    m = to_sdy(shardy_py.parse("shard.grid @g(shape = 2x3x4)"))
    assert str(m.meshes["g"]) == '#sdy.mesh<["axis_0"=2, "axis_1"=3, "axis_2"=4]>'


def test_numbered_axes_need_no_axis_names_attribute():
    m = to_shard(shardy_py.parse('sdy.mesh @g = <["axis_0"=2, "axis_1"=3]>'))
    assert str(m) == "module {\n  shard.grid @g(shape = 2x3)\n}\n"


def test_axis_names_with_escapes_survive():
    sdy = 'sdy.mesh @g = <["q\\22t"=2, "tab\\09"=3]>'
    shard = to_shard(shardy_py.parse(sdy))
    assert str(shard) == 'module {\n  shard.grid @g(shape = 2x3) {shardy_py.axis_names = ["q\\22t", "tab\\09"]}\n}\n'
    assert to_sdy(shard).meshes["g"].axis_names == ('q"t', "tab\t")


def test_quoted_grid_symbols():
    m = to_sdy(shardy_py.parse('shard.grid @"my grid"(shape = 2)'))
    assert str(m) == 'module {\n  sdy.mesh @"my grid" = <["axis_0"=2]>\n}\n'


def test_other_attributes_of_meshes_and_grids_are_kept():
    m = to_shard(shardy_py.parse('sdy.mesh @g = <["axis_0"=2]> {note = "n"}'))
    assert str(m) == 'module {\n  shard.grid @g(shape = 2) {note = "n"}\n}\n'
    assert str(to_sdy(m)) == 'module {\n  sdy.mesh @g = <["axis_0"=2]> {note = "n"}\n}\n'


def test_mesh_spelling():
    sdy = ('sdy.mesh @m = <["x"=2, "y"=2]>\n'
           "func.func @f(%arg0: tensor<4xf32>) {\n"
           '  %0 = sdy.sharding_constraint %arg0 <@m, [{"y"}], unreduced=max{"x"}> : tensor<4xf32>\n'
           "  return\n"
           "}\n")
    assert str(convert(shardy_py.parse(sdy), "shard", "mesh")) == (
        "module {\n"
        '  mesh.mesh @m(shape = 2x2) {shardy_py.axis_names = ["x", "y"]}\n'
        "  func.func @f(%arg0: tensor<4xf32>) {\n"
        "    %sharding = mesh.sharding @m split_axes = [[1]] partial = max [0] : !mesh.sharding\n"
        "    %sharding_annotated = mesh.shard %arg0 to %sharding annotate_for_users : tensor<4xf32>\n"
        "    return\n"
        "  }\n"
        "}\n")


def test_equal_shardings_share_one_sharding_op_in_a_block():
    sdy = ('sdy.mesh @m = <["axis_0"=2]>\n'
           "func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) {\n"
           '  %0 = sdy.sharding_constraint %arg0 <@m, [{"axis_0"}]> : tensor<4xf32>\n'
           '  %1 = sdy.sharding_constraint %arg1 <@m, [{"axis_0"}]> : tensor<4xf32>\n'
           "  return\n"
           "}\n")
    assert str(to_shard(shardy_py.parse(sdy))).count("= shard.sharding @m") == 1


def test_unused_sharding_op_is_dropped():
    shard = ("shard.grid @g(shape = 2)\n"
             "func.func @f() {\n"
             "  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding\n"
             "  return\n"
             "}\n")
    assert "sharding" not in str(to_sdy(shardy_py.parse(shard)))


def test_result_annotation_of_an_op_result_shards_the_op():
    shard = ("shard.grid @g(shape = 2)\n"
             "func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
             "  %0 = stablehlo.abs %arg0 : tensor<4xf32>\n"
             "  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding\n"
             "  %1 = shard.shard %0 to %s : tensor<4xf32>\n"
             "  %2 = stablehlo.negate %1 : tensor<4xf32>\n"
             "  return %2 : tensor<4xf32>\n"
             "}\n")
    assert str(to_sdy(shardy_py.parse(shard))) == (
        "module {\n"
        '  sdy.mesh @g = <["axis_0"=2]>\n'
        "  func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
        '    %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@g, [{"axis_0"}]>]>} : tensor<4xf32>\n'
        "    %1 = stablehlo.negate %0 : tensor<4xf32>\n"
        "    return %1 : tensor<4xf32>\n"
        "  }\n"
        "}\n")


def test_result_annotation_of_one_result_leaves_the_others_open():
    shard = ("shard.grid @g(shape = 2)\n"
             "func.func @f(%arg0: tensor<4xf32>) {\n"
             '  %0:2 = "split"(%arg0) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<2x2xf32>)\n'
             "  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding\n"
             "  %1 = shard.shard %0#1 to %s : tensor<2x2xf32>\n"
             "  return\n"
             "}\n")
    op = to_sdy(shardy_py.parse(shard)).funcs["f"].regions[0].blocks[0].ops[0]
    assert str(op.attributes["sdy.sharding"]) == \
        '#sdy.sharding_per_value<[<@g, [{?}]>, <@g, [{}, {"axis_0"}]>]>'


def test_shard_ops_in_nested_regions_convert():
    shard = ("shard.grid @g(shape = 2)\n"
             "func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
             '  %r = "wrap"(%arg0) ({\n'
             "    %s = shard.sharding @g split_axes = [[0]] : !shard.sharding\n"
             "    %0 = shard.shard %arg0 to %s annotate_for_users : tensor<4xf32>\n"
             '    "yield"(%0) : (tensor<4xf32>) -> ()\n'
             "  }) : (tensor<4xf32>) -> tensor<4xf32>\n"
             "  return %r : tensor<4xf32>\n"
             "}\n")
    # jaxlib numbers the nested region after the op holding it (%0 is "wrap")
    assert '%1 = sdy.sharding_constraint %arg0 <@g, [{"axis_0"}]> : tensor<4xf32>' in \
        str(to_sdy(shardy_py.parse(shard)))


def test_both_spellings_convert_in_one_module():
    text = ("mesh.mesh @old(shape = 2)\nshard.grid @new(shape = 4)\n")
    assert list(to_sdy(shardy_py.parse(text)).meshes) == ["old", "new"]


def test_input_module_is_not_changed():
    m = shardy_py.parse(SDY)
    before = str(m)
    to_shard(m)
    assert str(m) == before


def test_errors_point_into_the_original_text_of_an_edited_module():
    m = shardy_py.parse("shard.grid @g(shape = ?)")
    m.ops[0].attributes["note"] = shardy_py.OpaqueAttr('"x"')  # printed text no longer the source
    try:
        to_sdy(m)
    except ValueError as e:
        assert (e.line, e.column) == (1, 23)  # the '?' of the text the grid was parsed from
    else:
        raise AssertionError("a dynamic grid size must not convert")

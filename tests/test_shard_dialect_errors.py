"""What has no counterpart is a located ConversionError listing every problem, never dropped."""
from __future__ import annotations

import pytest

import shardy_py
from shardy_py.errors import ParseError
from shardy_py.interop.shard_dialect import ConversionError, to_sdy, to_shard


def at(text: str, line: int, token: str, nth: int = 1) -> tuple[int, int]:
    """(line, column) of the ``nth`` ``token`` on 1-based ``line`` of ``text``."""
    src = text.splitlines()[line - 1]
    col = -1
    for _ in range(nth):
        col = src.index(token, col + 1)
    return line, col + 1


def problems(convert, text: str, *args) -> list[tuple[int, int, str]]:
    with pytest.raises(ConversionError) as e:
        convert(shardy_py.parse(text), *args)
    return [(p.line, p.column, p.message) for p in e.value.problems]


def shard_func(sharding: str, shard: str = "%0 = shard.shard %arg0 to %s : tensor<8x8xf32>",
               grid: str = "shard.grid @g(shape = 2x4)") -> str:
    return (f"{grid}\n"
            "func.func @f(%arg0: tensor<8x8xf32>) {\n"
            f"  %s = {sharding} : !shard.sharding\n"
            f"  {shard}\n"
            "  return\n"
            "}\n")


# ---- shard -> sdy -------------------------------------------------------------------------------

def test_halo_sizes_have_no_sdy_counterpart():
    text = shard_func("shard.sharding @g split_axes = [[0]] halo_sizes = [1, 2]")
    assert problems(to_sdy, text) == [
        (*at(text, 3, "halo_sizes"), "halo sizes have no sdy counterpart (sdy shards never overlap)")]


def test_sharded_dims_offsets_have_no_sdy_counterpart():
    text = shard_func("shard.sharding @g split_axes = [[0]] sharded_dims_offsets = [0, 3, 8]")
    assert problems(to_sdy, text) == [
        (*at(text, 3, "sharded_dims_offsets"),
         "sharded_dims_offsets have no sdy counterpart (sdy shards are even, padded at the end)")]


def test_dynamic_grid_size_has_no_sdy_counterpart():
    text = shard_func("shard.sharding @g split_axes = [[0]]", grid="shard.grid @g(shape = 2x?)")
    assert problems(to_sdy, text) == [
        (*at(text, 1, "?"), "grid @g axis 1 has size ?; sdy meshes need static sizes of at least 1")]


def test_partial_type_sdy_cannot_reduce_with():
    text = shard_func("mesh.sharding @g split_axes = [[0]] partial = product [1]",
                      "%0 = mesh.shard %arg0 to %s : tensor<8x8xf32>", "mesh.mesh @g(shape = 2x4)")
    assert problems(to_sdy, text) == [
        (*at(text, 3, "product"),
         "partial type 'product' has no sdy counterpart (sdy unreduced axes reduce with sum, max, min)")]


def parse_error(text: str) -> tuple[int, int, str]:
    """The shard ops are declared (``dialects.shard``): bad syntax is a located parse error."""
    with pytest.raises(ParseError) as e:
        shardy_py.parse(text)
    return e.value.line, e.value.column, e.value.message


def test_unknown_partial_type_is_named():
    text = shard_func("mesh.sharding @g split_axes = [[0]] partial = mean [1]",
                      "%0 = mesh.shard %arg0 to %s : tensor<8x8xf32>", "mesh.mesh @g(shape = 2x4)")
    assert parse_error(text) == (
        *at(text, 3, "mean"),
         "'mesh.sharding': unknown partial type 'mean'; expected one of sum, max, min, product, average, "
         "bitwise_and, bitwise_or, bitwise_xor, generic")


def test_grid_axis_out_of_range():
    text = shard_func("shard.sharding @g split_axes = [[2]]")
    assert problems(to_sdy, text) == [
        (*at(text, 3, "2"), "grid axis 2 is out of range: @g has 2 axes")]


def test_grid_axis_used_twice():
    text = shard_func("shard.sharding @g split_axes = [[0], [1, 0]]")
    assert problems(to_sdy, text) == [
        (*at(text, 3, "0"), "grid axis 0 is used more than once in the sharding")]


def test_sharding_of_more_dimensions_than_the_tensor_has():
    text = shard_func("shard.sharding @g split_axes = [[], [], [0]]")
    assert problems(to_sdy, text) == [
        (*at(text, 4, ":"), "the sharding splits dimension 2 of a rank-2 tensor")]


def test_trailing_empty_split_axes_beyond_the_rank_are_fine():
    m = to_sdy(shardy_py.parse(shard_func("shard.sharding @g split_axes = [[0], [], []]")))
    assert str(m.funcs["f"].regions[0].blocks[0].arguments[0].attributes["sdy.sharding"]) == \
        '#sdy.sharding<@g, [{"axis_0"}, {}]>'


def test_sharding_used_by_another_shard_op():
    text = shard_func("shard.sharding @g split_axes = [[0]]",
                      "%0:2 = shard.shard_shape dims = [8, 8] sharding = %s device = [3] : index, index")
    assert problems(to_sdy, text) == [
        (4, 3, "'shard.shard_shape' has no sdy counterpart (only the grid, sharding and shard ops convert)")]


def test_other_shard_ops_have_no_sdy_counterpart():
    text = shard_func("shard.sharding @g split_axes = [[0]]",
                      "%0 = shard.all_gather %arg0 on @g grid_axes = [1] gather_axis = 1 "
                      ": tensor<8x8xf32> -> tensor<8x32xf32>")
    assert problems(to_sdy, text) == [
        (4, 3, "'shard.all_gather' has no sdy counterpart (only the grid, sharding and shard ops convert)")]


def test_sharding_on_an_undefined_grid():
    text = shard_func("shard.sharding @nowhere split_axes = [[0]]")
    assert problems(to_sdy, text) == [
        (*at(text, 3, "@nowhere"), "'shard.sharding' refers to @nowhere, which is not a grid of this module")]


def test_sharding_that_is_not_a_sharding_op():
    text = ("shard.grid @g(shape = 2)\n"
            "func.func @f(%arg0: tensor<8xf32>, %s: !shard.sharding) {\n"
            "  %0 = shard.shard %arg0 to %s annotate_for_users : tensor<8xf32>\n"
            "  return\n"
            "}\n")
    assert problems(to_sdy, text) == [
        (*at(text, 3, "%s"), "the sharding %s is not defined by a sharding op in this function")]


def test_result_annotation_of_a_region_argument():
    text = ("shard.grid @g(shape = 2)\n"
            "func.func @f(%arg0: tensor<8xf32>) {\n"
            '  %r = "loop"(%arg0) ({\n'
            "  ^bb0(%it: tensor<8xf32>):\n"
            "    %s = shard.sharding @g split_axes = [[0]] : !shard.sharding\n"
            "    %0 = shard.shard %it to %s : tensor<8xf32>\n"
            '    "yield"(%0) : (tensor<8xf32>) -> ()\n'
            "  }) : (tensor<8xf32>) -> tensor<8xf32>\n"
            "  return\n"
            "}\n")
    assert problems(to_sdy, text) == [
        (*at(text, 6, "%it"),
         "%it is an argument of 'loop'; sdy can only shard function arguments (use annotate_for_users)")]


def test_generic_form_is_not_read():
    text = ("shard.grid @g(shape = 2)\n"
            "func.func @f(%arg0: tensor<8xf32>) {\n"
            "  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding\n"
            '  %0 = "shard.shard"(%arg0, %s) : (tensor<8xf32>, !shard.sharding) -> tensor<8xf32>\n'
            "  return\n"
            "}\n")
    assert problems(to_sdy, text) == [
        (4, 3, "'shard.shard' in generic form is not supported; write its custom syntax")]


def test_bad_split_axes_syntax_is_located():
    text = shard_func("shard.sharding @g split_axes = [0]")
    assert parse_error(text) == (
        *at(text, 3, "0"), "'shard.sharding': expected '[' starting split_axes, found '0] : !shard.sharding'")


def test_axis_names_must_match_the_grid_rank():
    text = shard_func("shard.sharding @g split_axes = [[0]]",
                      grid='shard.grid @g(shape = 2x4) {shardy_py.axis_names = ["x"]}')
    assert problems(to_sdy, text) == [
        (*at(text, 1, "shardy_py.axis_names"), "shardy_py.axis_names names 1 axes but the grid has 2")]


def test_axis_names_must_be_unique():
    text = shard_func("shard.sharding @g split_axes = [[0]]",
                      grid='shard.grid @g(shape = 2x4) {shardy_py.axis_names = ["x", "x"]}')
    assert problems(to_sdy, text) == [(*at(text, 1, "shardy_py.axis_names"),
         "shardy_py.axis_names names an axis twice")]


def test_attributes_of_a_result_annotation_have_nowhere_to_go():
    text = shard_func("shard.sharding @g split_axes = [[0]]",
                      "%0 = shard.shard %arg0 to %s {tag = 1} : tensor<8x8xf32>")
    assert problems(to_sdy, text) == [
        (*at(text, 4, "{tag"), "attributes {tag} of a result annotation have no place in sdy")]


def test_unranked_tensor_cannot_be_sharded():
    text = ("shard.grid @g(shape = 2)\n"
            "func.func @f(%arg0: tensor<*xf32>) {\n"
            "  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding\n"
            "  %0 = shard.shard %arg0 to %s : tensor<*xf32>\n"
            "  return\n"
            "}\n")
    assert problems(to_sdy, text) == [(*at(text, 4, ":"),
         "'shard.shard' needs a ranked tensor type, not tensor<*xf32>")]


def test_grid_named_like_an_sdy_mesh():
    text = 'sdy.mesh @g = <["x"=2]>\n' + shard_func("shard.sharding @g split_axes = [[0]]")
    assert problems(to_sdy, text) == [(*at(text, 2, "@g"), "symbol @g is defined more than once")]


def test_every_problem_is_reported_in_source_order():
    text = ("shard.grid @g(shape = ?)\n"
            "func.func @f(%arg0: tensor<8xf32>) {\n"
            "  %s = shard.sharding @g split_axes = [[0]] halo_sizes = [1, 1] : !shard.sharding\n"
            "  %0 = shard.all_reduce %arg0 on @g : tensor<8xf32> -> tensor<8xf32>\n"
            "  return\n"
            "}\n")
    assert [p[:2] for p in problems(to_sdy, text)] == [at(text, 1, "?"), at(text, 3, "halo_sizes"), (4, 3)]


def test_error_message_counts_the_other_problems():
    text = "shard.grid @g(shape = ?)\nshard.grid @h(shape = ?)\n"
    with pytest.raises(ConversionError) as e:
        to_sdy(shardy_py.parse(text))
    assert str(e.value) == "1:23: grid @g axis 0 has size ?; sdy meshes need static sizes of at least 1 " \
                           "(and 1 more problem)"


# ---- sdy -> shard -------------------------------------------------------------------------------

def sdy_func(arg_sharding: str, mesh: str = 'sdy.mesh @m = <["x"=2, "y"=4]>') -> str:
    return (f"{mesh}\n"
            f"func.func @f(%arg0: tensor<8x8xf32> {{sdy.sharding = {arg_sharding}}}) {{\n"
            "  return\n"
            "}\n")


def test_open_dimension_has_no_shard_counterpart():
    text = sdy_func('#sdy.sharding<@m, [{"x", ?}, {}]>')
    assert problems(to_shard, text) == [
        (*at(text, 2, "?"), "dimension 0 is open ('?'); the shard dialect has only closed dimensions")]


def test_priority_has_no_shard_counterpart():
    text = sdy_func('#sdy.sharding<@m, [{"x"}p1, {}]>')
    assert problems(to_shard, text) == [
        (*at(text, 2, "}p1"), "dimension 0 has priority p1; the shard dialect has no sharding priorities")]


def test_sub_axis_has_no_shard_counterpart():
    text = sdy_func('#sdy.sharding<@m, [{"y":(1)2}, {}]>')
    assert problems(to_shard, text) == [
        (*at(text, 2, ":("), 'sub-axis "y":(1)2 has no counterpart; shard shardings use whole grid axes')]


def test_explicitly_replicated_axes_have_no_shard_counterpart():
    text = sdy_func('#sdy.sharding<@m, [{"x"}, {}], replicated={"y"}>')
    assert problems(to_shard, text) == [
        (*at(text, 2, "replicated"),
         "explicitly replicated axes have no counterpart in the shard dialect (axes a sharding does not "
         "use are replicated)")]


def test_unreduced_axes_need_the_mesh_spelling():
    text = sdy_func('#sdy.sharding<@m, [{"x"}, {}], unreduced={"y"}>')
    assert problems(to_shard, text) == [
        (*at(text, 2, "unreduced"),
         "unreduced axes have no counterpart in the shard dialect, which dropped partial shardings; "
         "convert with --dialect-name mesh (partial = ...)")]
    assert "partial = sum [1]" in str(to_shard(shardy_py.parse(text), "mesh"))


def test_device_ids_have_no_grid_counterpart():
    text = sdy_func('#sdy.sharding<@m, [{"x"}, {}]>', 'sdy.mesh @m = <["x"=2], device_ids=[1, 0]>')
    assert problems(to_shard, text) == [
        (*at(text, 1, "device_ids"),
         "mesh @m lists device_ids; a shard.grid has no device order (its devices are always in iota order)")]


def test_mesh_without_axes_has_no_grid_counterpart():
    assert problems(to_shard, "sdy.mesh @empty = <[]>\n") == [
        (1, 19, "mesh @empty has no axes; a shard.grid needs at least one")]


def test_inline_mesh_has_no_grid_to_refer_to():
    text = sdy_func('#sdy.sharding<mesh<["z"=2]>, [{"z"}, {}]>')
    assert problems(to_shard, text) == [
        (*at(text, 2, "mesh<"),
         "a sharding with an inline mesh has no shard.grid to refer to; define the mesh with sdy.mesh")]


def test_sdy_ops_other_than_constraints_have_no_shard_counterpart():
    text = ('sdy.mesh @m = <["x"=2]>\n'
            "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
            '  %0 = sdy.reshard %arg0 <@m, [{"x"}]> : tensor<8xf32>\n'
            "  return %0 : tensor<8xf32>\n"
            "}\n")
    assert problems(to_shard, text) == [(3, 3, "'sdy.reshard' has no shard-dialect counterpart")]


def test_sharding_rules_have_no_shard_counterpart():
    text = ('sdy.mesh @m = <["x"=2]>\n'
            "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
            "  %0 = stablehlo.abs %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>} "
            ": tensor<8xf32>\n"
            "  return %0 : tensor<8xf32>\n"
            "}\n")
    assert problems(to_shard, text) == [(*at(text, 3, "sdy.sharding_rule"),
         "attribute sdy.sharding_rule has no shard-dialect counterpart")]


def test_function_declaration_has_nowhere_to_put_shard_ops():
    text = ('sdy.mesh @m = <["x"=2]>\n'
            'func.func private @ext(tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>})\n')
    assert problems(to_shard, text) == [(*at(text, 2, "sdy.sharding"),
         "@ext has no body to hold shard ops for its shardings")]


def test_fully_open_sharding_alone_is_an_open_dimension():
    text = ('sdy.mesh @m = <["x"=2]>\n'
            "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
            "  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{?}]>]>} : tensor<8xf32>\n"
            "  return %0 : tensor<8xf32>\n"
            "}\n")
    assert problems(to_shard, text) == [
        (*at(text, 3, "?"), "dimension 0 is open ('?'); the shard dialect has only closed dimensions")]


def test_undefined_mesh_is_named():
    text = sdy_func('#sdy.sharding<@nowhere, [{}, {}]>', "")
    assert problems(to_shard, text) == [
        (*at(text, 2, "@nowhere"), "mesh @nowhere is not defined")]


def test_a_failed_conversion_leaves_the_module_unchanged():
    m = shardy_py.parse(sdy_func('#sdy.sharding<@m, [{"x", ?}, {}]>'))
    before = str(m)
    with pytest.raises(ConversionError):
        to_shard(m)
    assert str(m) == before

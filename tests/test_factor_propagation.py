"""Factor propagation strategies (``shardy_py.passes.propagation.basic_factor_propagation`` and
``aggressive_factor_propagation``) on hand-made sharding projections.

The cases follow Shardy's ``basic_factor_propagation_test.cc`` and
``aggressive_factor_propagation_test.cc``: the same projections, directions and expected
projections after one propagation step.  Factor shardings are open and non-minor-most unless said
otherwise; without a mesh (``None``) the divisibility checks are skipped, as in the C++ tests.
Each expected projection is the input with the changes listed.
"""
from __future__ import annotations

import copy

import pytest
from projection_helpers import axes, fs

from shardy_py.ir.attrs import MeshAttr, MeshAxisAttr
from shardy_py.passes.propagation.aggressive_factor_propagation import (
    AggressiveFactorPropagation,
    factor_to_source_tensor,
)
from shardy_py.passes.propagation.basic_factor_propagation import (
    BasicFactorPropagation,
    compatible_major_axes_of_two,
)
from shardy_py.passes.propagation.factor_propagation import (
    PropagationDirection,
    intersection_of_propagation_directions,
    propagate_any,
    union_of_propagation_directions,
)
from shardy_py.passes.propagation.sharding_projection import (
    FactorSharding,
    ShardingProjection,
    TensorFactorShardings,
    UpdateTensorShardings,
)

NONE, FORWARD, BACKWARD, BOTH = (PropagationDirection.NONE, PropagationDirection.FORWARD,
                                 PropagationDirection.BACKWARD, PropagationDirection.BOTH)


def f(text: str = "", closed: bool = False, overflow: str = "", minor_most: bool = False) -> FactorSharding:
    """A factor sharding, open and non-minor-most by default."""
    return fs(text, closed=closed, minor_most=minor_most, overflow=overflow)


def t(factors: dict[int, str | FactorSharding], replicated: str = "", unreduced: str = "") -> TensorFactorShardings:
    """A tensor; a factor given as text is an open non-minor-most factor sharded by those axes."""
    return TensorFactorShardings({i: f(v) if isinstance(v, str) else v for i, v in factors.items()},
                                 axes(replicated), axes(unreduced))


def propagate(strategy, projection: ShardingProjection, num_factors: int, direction=propagate_any, mesh=None,
              conservative: bool = False, factor_sizes=None) -> tuple[list[int], list[int]]:
    sizes = factor_sizes if factor_sizes is not None else [1] * num_factors
    u = strategy.propagate_factor_shardings(projection, direction, sizes, mesh, conservative)
    return u.updated_operand_indices(), u.updated_result_indices()


def basic(projection, num_factors, **kw):
    return propagate(BasicFactorPropagation(), projection, num_factors, **kw)


def aggressive(projection, num_factors, **kw):
    return propagate(AggressiveFactorPropagation(), projection, num_factors, **kw)


def changed(projection: ShardingProjection, changes: dict[tuple[str, int, int], FactorSharding | str]
            ) -> ShardingProjection:
    """A copy of ``projection`` with ``(side, tensor, factor) -> sharding`` replaced."""
    out = copy.deepcopy(projection)
    for (side, index, factor), v in changes.items():
        tensors = out.operands if side == "operand" else out.results
        tensors[index].factor_index_to_sharding[factor] = f(v) if isinstance(v, str) else v
    return out


# --- BasicFactorPropagation -----------------------------------------------------------------


def test_full_axes_conflict_only_within_the_same_factor():
    p = ShardingProjection(
        [t({0: '"a"', 3: '"h"'}), t({0: "", 2: '"g"', 3: '"i"'}), t({1: '"e"'})],
        [t({0: '"a", "b", "c"', 1: '"e", "f"'}), t({0: '"a", "b", "d"', 2: "", 3: '"i", "j"'})])
    # factor 0: ["a", "b"]; factor 1: ["e", "f"]; factor 2: ["g"]; factor 3: ["h"] vs ["i"] gives [].
    expected = changed(p, {("operand", 0, 0): '"a", "b"', ("operand", 1, 0): '"a", "b"',
                           ("operand", 2, 1): '"e", "f"', ("result", 1, 2): '"g"'})
    assert basic(p, 4) == ([0, 1, 2], [1])
    assert p == expected


def test_sub_axes_conflict_only_within_the_same_factor():
    p = ShardingProjection(
        [t({0: '"a", "b"', 1: '"c":(2)2, "d"', 4: '"j":(1)4', 5: '"k":(1)8'}),
         t({0: "", 1: '"c":(2)4', 3: '"g", "h":(1)8', 5: f('"k":(1)4', closed=True)})],
        [t({0: '"a":(1)2', 2: '"e":(2)4, "f":(4)2', 3: '"g", "h":(1)4, "i"', 5: '"k":(1)2'}),
         t({1: '"c":(2)4, "d"', 2: '"e":(2)4, "f":(4)8', 4: '"j":(2)4', 5: ""})])
    # factor 0: ["a", "b"]; factor 1: ["c":(2)2] (the operand's "c":(2)2 then "d" conflicts with "c":(2)4)
    # yet operand 1 keeps its longer "c":(2)4; factor 2: ["e":(2)4, "f":(4)8]; factor 3: ["g", "h":(1)4];
    # factor 4: [] ("j":(1)4 vs "j":(2)4); factor 5: ["k":(1)8] cut to ["k":(1)4] by the closed operand.
    expected = changed(p, {("operand", 1, 0): '"a", "b"', ("result", 0, 0): '"a", "b"',
                           ("result", 0, 2): '"e":(2)4, "f":(4)8', ("result", 0, 5): '"k":(1)4',
                           ("result", 1, 5): '"k":(1)4'})
    assert basic(p, 6) == ([1], [0, 1])
    assert p == expected


CONFLICTS_ACROSS_FACTORS = ShardingProjection(
    [t({0: '"a"', 3: '"h":(1)2, "i"'}),
     t({1: '"b"', 2: f('"f"', closed=True)}, replicated='"h":(1)2'),
     t({0: "", 4: '"j":(1)8, "k":(2)4'})],
    [t({0: '"a", "b", "c", "d"', 3: ""}, replicated='"h":(2)4, "i":(2)2'),
     t({0: '"a", "b", "c", "e"', 2: f('"f", "g"', closed=True)}),
     t({4: '"j":(1)4', 5: '"k":(1)4'})])


def test_conflicts_between_different_factors_and_replicated_axes():
    p = copy.deepcopy(CONFLICTS_ACROSS_FACTORS)
    # factor 0: ["a", "b", "c"], but "b" shards factor 1 of operand 1: ["a"].
    # factor 1: ["b"], but "b" shards factor 0: [].  factor 2: ["f", "g"], closed with ["f"]: ["f"].
    # factor 3: ["h":(1)2, "i"], result 0 replicates "i":(2)2: ["h":(1)2, "i":(1)2].
    # factor 4: ["j":(1)8, "k":(2)4], "k":(1)4 shards factor 5: ["j":(1)8].
    # factor 5: ["k":(1)4], "k":(2)4 shards factor 4: ["k":(1)2] (the tensors already have more).
    expected = changed(p, {("operand", 2, 0): '"a"', ("result", 0, 3): '"h":(1)2, "i":(1)2',
                           ("result", 2, 4): '"j":(1)8'})
    assert basic(p, 6) == ([2], [0, 2])
    assert p == expected


def test_overflow_axes_conflict_and_block_their_factor():
    p = ShardingProjection([t({0: '"a", "b"', 1: '"c"'})], [t({0: "", 1: f(overflow='"b":(1)2')})])
    expected = changed(p, {("result", 0, 0): '"a"'})
    assert basic(p, 2) == ([], [0])
    assert p == expected


MESH_3x3x3 = MeshAttr((MeshAxisAttr("a", 3), MeshAxisAttr("b", 3), MeshAxisAttr("c", 3)))


@pytest.mark.parametrize(("factor_sizes", "factor0"), [
    ([9, 4], '"a", "b"'),  # 9 is divisible by 3 * 3
    ([6, 19], '"a"'),  # 6 is divisible by 3 but not by 9
    ([4, 1], ""),  # 4 is not divisible by 3
])
def test_non_minor_most_factor_needs_divisibility_minor_most_does_not(factor_sizes, factor0):
    operand = t({0: f('"a", "b"', minor_most=True), 1: f('"c"', minor_most=True)})
    p = ShardingProjection([operand], [t({0: f(), 1: f(minor_most=True)})])
    expected = changed(p, {("result", 0, 0): f(factor0), ("result", 0, 1): f('"c"', minor_most=True)})
    assert basic(p, 2, mesh=MESH_3x3x3, factor_sizes=factor_sizes) == ([], [0])
    assert p == expected


def test_divisibility_splits_an_axis_to_the_part_that_fits():
    mesh = MeshAttr((MeshAxisAttr("a", 8),))
    p = ShardingProjection([t({0: f('"a"', minor_most=True)})], [t({0: f()})])
    assert basic(p, 1, mesh=mesh, factor_sizes=[4]) == ([], [0])
    assert p.results[0].factor_index_to_sharding[0] == f('"a":(1)4')


def test_directions_per_factor():
    def tensor(shardings: dict[int, str]) -> TensorFactorShardings:
        return t({i: shardings.get(i, "") for i in range(8)})

    p = ShardingProjection([tensor({0: '"a"', 1: '"b"', 2: '"c"', 3: '"d"'}), tensor({})],
                           [tensor({4: '"e"', 5: '"f"', 6: '"g"', 7: '"h"'}), tensor({})])
    directions = {0: BOTH, 4: BOTH, 1: FORWARD, 5: FORWARD, 2: BACKWARD, 6: BACKWARD, 3: NONE, 7: NONE}
    # BOTH spreads everywhere; FORWARD spreads operand axes ("b") only; BACKWARD result axes ("g") only.
    expected = ShardingProjection(
        [tensor({0: '"a"', 1: '"b"', 2: '"c"', 3: '"d"', 4: '"e"', 6: '"g"'}),
         tensor({0: '"a"', 1: '"b"', 4: '"e"', 6: '"g"'})],
        [tensor({0: '"a"', 1: '"b"', 4: '"e"', 5: '"f"', 6: '"g"', 7: '"h"'}),
         tensor({0: '"a"', 1: '"b"', 4: '"e"', 6: '"g"'})])
    assert basic(p, 8, direction=directions.__getitem__) == ([0, 1], [0, 1])
    assert p == expected


def test_one_direction_still_sees_conflicts_on_the_other_side():
    p = ShardingProjection([t({0: '"a", "b"', 1: "", 2: '"d"'})], [t({0: '"b"', 1: '"c", "d"', 2: ""})])
    directions = {0: FORWARD, 1: BACKWARD, 2: NONE}
    # factor 0: ["a", "b"] forward conflicts with the result's ["b"]; factor 1: ["c", "d"] backward, but
    # "d" shards factor 2 of the operand: ["c"]; factor 2 does not propagate.
    expected = changed(p, {("operand", 0, 1): '"c"'})
    assert basic(p, 3, direction=directions.__getitem__) == ([0], [])
    assert p == expected


def test_conservative_propagation_stops_at_sub_axes():
    p = ShardingProjection([t({0: '"a", "b":(1)2, "c"', 1: '"b":(2)4'})], [t({0: "", 1: ""})])
    expected = changed(p, {("result", 0, 0): '"a"'})
    assert basic(p, 2, conservative=True) == ([], [0])
    assert p == expected


def test_same_projection_without_conservative_mode_propagates_sub_axes():
    p = ShardingProjection([t({0: '"a", "b":(1)2, "c"', 1: '"b":(2)4'})], [t({0: "", 1: ""})])
    expected = changed(p, {("result", 0, 0): '"a", "b":(1)2, "c"', ("result", 0, 1): '"b":(2)4'})
    assert basic(p, 2) == ([], [0])
    assert p == expected


@pytest.mark.parametrize(("tensors", "expected"), [
    (['"a", "b"', '"a", "c"'], '"a"'),
    (['"a"', "", '"a", "b", "c"', '"a", "b", "d"'], '"a", "b"'),
    (['"a":(1)2', '"a":(1)4'], '"a":(1)4'),
    (['"a":(1)2, "b"', '"a":(1)4'], '"a":(1)2'),
])
def test_compatible_major_sharding_axes(tensors, expected):
    p = ShardingProjection([t({0: a}) for a in tensors], [])
    got = BasicFactorPropagation().get_compatible_major_sharding_axes(p, 0, BOTH, 1, None, False)
    assert got == axes(expected)


@pytest.mark.parametrize(("old", "new", "can_expand", "expected", "still_expandable"), [
    ('"a"', '"a", "b"', True, '"a", "b"', True),
    ('"a", "b"', '"a", "c"', True, '"a"', False),
    ('"a":(1)2', '"a":(1)4', True, '"a":(1)4', True),
    ('"a":(1)2, "b"', '"a":(1)4, "b"', True, '"a":(1)2', False),
    ('"a"', '"a"', False, '"a"', False),
    ('"a"', '"a", "b"', False, '"a"', False),
    ('"a", "b"', '"a"', False, '"a", "b"', False),
    ('"a":(1)2', '"a":(1)4', False, '"a":(1)2', False),
])
def test_compatible_major_axes_of_two_lists(old, new, can_expand, expected, still_expandable):
    assert compatible_major_axes_of_two(axes(old), axes(new), can_expand) == (axes(expected), still_expandable)


def test_none_direction_has_no_compatible_axes():
    p = ShardingProjection([t({0: '"a"'})], [t({0: ""})])
    assert BasicFactorPropagation().get_compatible_major_axes(p, 0, NONE) == []
    assert basic(p, 1, direction=lambda _: NONE) == ([], [])


# --- AggressiveFactorPropagation ------------------------------------------------------------


def test_aggressive_real_and_fake_conflicts():
    p = ShardingProjection(
        [t({0: '"a"', 2: '"c"', 4: '"b"', 6: '"e"', 7: "", 8: '"f"', 10: '"g"'}),
         t({1: '"a"', 2: "", 3: '"c"', 4: "", 5: '"b"', 6: "", 7: '"e"', 9: '"g"', 10: '"f"'})],
        [t({0: "", 1: "", 2: f(overflow='"d"'), 3: "", 4: f(closed=True), 5: "", 6: f(closed=True), 7: "", 8: "",
            9: ""})])
    # "a" along factor 0 or 1 is a real conflict: factor 0 wins (its source is operand 0, same sizes).
    # The other axes reach the result along the one factor that can take them.
    expected = changed(p, {("result", 0, 0): '"a"', ("result", 0, 3): '"c"', ("result", 0, 5): '"b"',
                           ("result", 0, 7): '"e"', ("result", 0, 8): '"f"', ("result", 0, 9): '"g"'})
    assert aggressive(p, 11) == ([], [0])
    assert p == expected


def test_aggressive_two_factors_that_never_share_a_tensor_both_propagate():
    p = ShardingProjection([t({0: '"a"'}), t({1: '"a"'})], [t({0: ""}), t({1: ""})])
    expected = changed(p, {("result", 0, 0): '"a"', ("result", 1, 1): '"a"'})
    assert aggressive(p, 2) == ([], [0, 1])
    assert p == expected


def test_aggressive_conflicts_between_factors_replicated_and_unreduced():
    p = copy.deepcopy(CONFLICTS_ACROSS_FACTORS)
    p.operands[0].unreduced_axes = axes('"c"')
    # Per tensor: operand 0 takes ["a", "b"] ("c" is unreduced there), operand 2 ["a", "b", "c"].
    expected = changed(p, {("operand", 0, 0): '"a", "b"', ("operand", 2, 0): '"a", "b", "c"',
                           ("result", 0, 3): '"h":(1)2, "i":(1)2', ("result", 2, 4): '"j":(1)8'})
    assert aggressive(p, 6) == ([0, 2], [0, 2])
    assert p == expected


def test_aggressive_new_axes_conflict():
    p = ShardingProjection(
        [t({0: '"a", "b", "c"', 1: "", 2: f(closed=True), 3: ""}, replicated='"d"'),
         t({0: "", 1: '"b", "a"', 2: "", 3: '"d"'}),
         t({0: f(closed=True), 1: "", 2: '"c", "a"', 3: ""})],
        [t({0: "", 1: f(closed=True), 2: "", 3: ""}),
         t({0: '"a", "b", "d"', 1: "", 2: "", 3: ""})])
    # "a" could reach result 0 along factor 0 or factor 2: factor 0 wins (source operand 0).
    expected = changed(p, {("operand", 1, 2): '"c"', ("operand", 2, 1): '"b"', ("operand", 2, 3): '"d"',
                           ("result", 0, 0): '"a", "b"', ("result", 0, 2): '"c"', ("result", 0, 3): '"d"',
                           ("result", 1, 2): '"c"'})
    assert aggressive(p, 4) == ([1, 2], [0, 1])
    assert p == expected


@pytest.mark.parametrize(("only", "winner"), [(0, 0), (1, 1), (None, 0)],
                         ids=["factor-0-only", "factor-1-only", "all-factors"])
def test_aggressive_propagates_along_the_allowed_factor(only, winner):
    sharded = {0: t({0: '"a"', 1: ""}), 1: t({0: "", 1: '"a"'})}
    p = ShardingProjection([copy.deepcopy(sharded[0]), copy.deepcopy(sharded[1])], [t({0: "", 1: ""})])
    direction = propagate_any if only is None else (lambda i: BOTH if i == only else NONE)
    assert aggressive(p, 2, direction=direction) == ([], [0])
    assert p == ShardingProjection([sharded[0], sharded[1]], [sharded[winner]])


def test_source_tensor_is_the_largest_tensor_with_a_prefix():
    p = ShardingProjection([t({0: '"a"'}), t({0: '"a"', 1: ""})], [t({0: ""})])
    assert factor_to_source_tensor(p, [2, 8], [axes('"a"'), []]) == [(1, 16), (-1, -1)]


def test_aggressive_prefers_the_factor_of_the_larger_source_tensor():
    # "a" shards factor 0 of a 2-element operand and factor 1 of a 16-element operand: factor 1 wins.
    p = ShardingProjection([t({0: '"a"'}), t({1: '"a"', 2: ""})], [t({0: "", 1: ""})])
    assert aggressive(p, 3, factor_sizes=[2, 4, 4]) == ([], [0])
    assert p.results[0] == t({0: "", 1: '"a"'})


def test_aggressive_elementwise_operand_goes_no_further_than_the_result():
    import shardy_py

    m = shardy_py.parse("""func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}""")
    add = next(o for o in m.walk() if o.name == "stablehlo.add")
    # result closed with ["x"]; operand 0 has ["x", "y"]: operand 1 gets only ["x"] for an elementwise op.
    p = ShardingProjection([t({0: '"x", "y"'}), t({0: ""})], [t({0: f('"x"', closed=True)})])
    mesh = MeshAttr((MeshAxisAttr("x", 2), MeshAxisAttr("y", 2)))
    u = AggressiveFactorPropagation().propagate_factor_shardings(p, propagate_any, [4], mesh, False, add)
    assert u == UpdateTensorShardings([False, True], [False])
    assert p.operands[1] == t({0: '"x"'})
    q = ShardingProjection([t({0: '"x", "y"'}), t({0: ""})], [t({0: f('"x"', closed=True)})])
    AggressiveFactorPropagation().propagate_factor_shardings(q, propagate_any, [4], mesh, False, None)
    assert q.operands[1] == t({0: '"x", "y"'})


# --- directions -----------------------------------------------------------------------------


@pytest.mark.parametrize(("a", "b", "union", "intersection"), [
    (NONE, FORWARD, FORWARD, NONE),
    (FORWARD, BACKWARD, BOTH, NONE),
    (BACKWARD, FORWARD, BOTH, NONE),
    (BACKWARD, BOTH, BOTH, BACKWARD),
    (FORWARD, FORWARD, FORWARD, FORWARD),
    (NONE, BOTH, BOTH, NONE),
])
def test_union_and_intersection_of_directions(a, b, union, intersection):
    assert union_of_propagation_directions(a, b) is union
    assert intersection_of_propagation_directions(a, b) is intersection

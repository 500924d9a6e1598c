// Inputs for -sdy-optimize-collectives: a collective permute of one dimension's axes followed by
// all-to-alls out of that dimension, and the cases where the pass leaves the chain alone.
// tests/test_passes_optimize_collectives.py runs every function through ours and jaxlib 0.12.

sdy.mesh @m2 = <["p"=2, "q"=2]>
sdy.mesh @m3 = <["p"=2, "q"=2, "r"=2]>
sdy.mesh @m4 = <["p"=2, "q"=2, "r"=2, "s"=2]>
sdy.mesh @mixed = <["u"=3, "v"=5, "w"=2]>
sdy.mesh @wide = <["p"=4, "q"=2]>
sdy.mesh @long = <["t"=8]>
sdy.mesh @long16 = <["t"=16]>
sdy.mesh @uneven = <["c"=4, "x"=2, "y"=2]>
sdy.mesh @m2_other_order = <["p"=2, "q"=2], device_ids=[0, 2, 1, 3]>

// Both axes leave dimension 0 for their own dimension: 32 splits into 2x2x8.
func.func @swap_then_scatter_both(%arg0: tensor<32x4x4xf32> {sdy.sharding = #sdy.sharding<@m2, [{"p", "q"}, {}, {}]>}) -> tensor<32x4x4xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m2, [{"q", "p"}, {}, {}]> : tensor<32x4x4xf32>
  %1 = sdy.all_to_all [{"p"}: 0->1] %0 out_sharding=<@m2, [{"q"}, {"p"}, {}]> : tensor<32x4x4xf32>
  %2 = sdy.all_to_all [{"q"}: 0->2] %1 out_sharding=<@m2, [{}, {"p"}, {"q"}]> : tensor<32x4x4xf32>
  return %2 : tensor<32x4x4xf32>
}

// Three axes reversed and all scattered.
func.func @reverse_three_scatter_all(%arg0: tensor<8x2x2x2xf32> {sdy.sharding = #sdy.sharding<@m3, [{"p", "q", "r"}, {}, {}, {}]>}) -> tensor<8x2x2x2xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m3, [{"r", "q", "p"}, {}, {}, {}]> : tensor<8x2x2x2xf32>
  %1 = sdy.all_to_all [{"p"}: 0->1] %0 out_sharding=<@m3, [{"r", "q"}, {"p"}, {}, {}]> : tensor<8x2x2x2xf32>
  %2 = sdy.all_to_all [{"q"}: 0->2] %1 out_sharding=<@m3, [{"r"}, {"p"}, {"q"}, {}]> : tensor<8x2x2x2xf32>
  %3 = sdy.all_to_all [{"r"}: 0->3] %2 out_sharding=<@m3, [{}, {"p"}, {"q"}, {"r"}]> : tensor<8x2x2x2xf32>
  return %3 : tensor<8x2x2x2xf32>
}

// Both axes end up in the same target dimension.
func.func @two_axes_one_target(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@m2, [{"p", "q"}, {}]>}) -> tensor<8x16xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m2, [{"q", "p"}, {}]> : tensor<8x16xf32>
  %1 = sdy.all_to_all [{"p"}: 0->1] %0 out_sharding=<@m2, [{"q"}, {"p"}]> : tensor<8x16xf32>
  %2 = sdy.all_to_all [{"q"}: 0->1] %1 out_sharding=<@m2, [{}, {"p", "q"}]> : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// The leading axis stays where it is.
func.func @leading_axis_kept(%arg0: tensor<24x8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"r", "p", "q"}, {}, {}]>}) -> tensor<24x8x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m3, [{"r", "q", "p"}, {}, {}]> : tensor<24x8x8xf32>
  %1 = sdy.all_to_all [{"p"}: 0->2] %0 out_sharding=<@m3, [{"r", "q"}, {}, {"p"}]> : tensor<24x8x8xf32>
  %2 = sdy.all_to_all [{"q"}: 0->1] %1 out_sharding=<@m3, [{"r"}, {"q"}, {"p"}]> : tensor<24x8x8xf32>
  return %2 : tensor<24x8x8xf32>
}

// The permuted dimension is the middle one; one target before it, one after.
func.func @middle_dimension(%arg0: tensor<4x12x6xf32> {sdy.sharding = #sdy.sharding<@m2, [{}, {"q", "p"}, {}]>}) -> tensor<4x12x6xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m2, [{}, {"p", "q"}, {}]> : tensor<4x12x6xf32>
  %1 = sdy.all_to_all [{"q"}: 1->2] %0 out_sharding=<@m2, [{}, {"p"}, {"q"}]> : tensor<4x12x6xf32>
  %2 = sdy.all_to_all [{"p"}: 1->0] %1 out_sharding=<@m2, [{"p"}, {}, {"q"}]> : tensor<4x12x6xf32>
  return %2 : tensor<4x12x6xf32>
}

// No residual dimension: 4 is exactly 2x2.
func.func @no_residual(%arg0: tensor<4x6x6xf32> {sdy.sharding = #sdy.sharding<@m2, [{"p", "q"}, {}, {}]>}) -> tensor<4x6x6xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m2, [{"q", "p"}, {}, {}]> : tensor<4x6x6xf32>
  %1 = sdy.all_to_all [{"p"}: 0->2] %0 out_sharding=<@m2, [{"q"}, {}, {"p"}]> : tensor<4x6x6xf32>
  %2 = sdy.all_to_all [{"q"}: 0->1] %1 out_sharding=<@m2, [{}, {"q"}, {"p"}]> : tensor<4x6x6xf32>
  return %2 : tensor<4x6x6xf32>
}

// A sub-axis and a full axis.
func.func @sub_axis_and_axis(%arg0: tensor<32x4x4xf32> {sdy.sharding = #sdy.sharding<@wide, [{"p":(1)2, "q"}, {}, {}]>}) -> tensor<32x4x4xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@wide, [{"q", "p":(1)2}, {}, {}]> : tensor<32x4x4xf32>
  %1 = sdy.all_to_all [{"p":(1)2}: 0->1] %0 out_sharding=<@wide, [{"q"}, {"p":(1)2}, {}]> : tensor<32x4x4xf32>
  %2 = sdy.all_to_all [{"q"}: 0->2] %1 out_sharding=<@wide, [{}, {"p":(1)2}, {"q"}]> : tensor<32x4x4xf32>
  return %2 : tensor<32x4x4xf32>
}

// The permute splits "t":(1)4 into two sub-axes; the input's axis is cut the same way.
func.func @permute_splits_a_sub_axis(%arg0: tensor<32x4x4xf32> {sdy.sharding = #sdy.sharding<@long, [{"t":(1)4}, {}, {}]>}) -> tensor<32x4x4xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@long, [{"t":(2)2, "t":(1)2}, {}, {}]> : tensor<32x4x4xf32>
  %1 = sdy.all_to_all [{"t":(1)2}: 0->1] %0 out_sharding=<@long, [{"t":(2)2}, {"t":(1)2}, {}]> : tensor<32x4x4xf32>
  %2 = sdy.all_to_all [{"t":(2)2}: 0->2] %1 out_sharding=<@long, [{}, {"t":(1)2}, {"t":(2)2}]> : tensor<32x4x4xf32>
  return %2 : tensor<32x4x4xf32>
}

// Sizes 3, 5 and 2, with a residual of 2.
func.func @mixed_sizes(%arg0: tensor<60x15x6xf32> {sdy.sharding = #sdy.sharding<@mixed, [{"w", "u", "v"}, {}, {}]>}) -> tensor<60x15x6xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mixed, [{"w", "v", "u"}, {}, {}]> : tensor<60x15x6xf32>
  %1 = sdy.all_to_all [{"u"}: 0->2] %0 out_sharding=<@mixed, [{"w", "v"}, {}, {"u"}]> : tensor<60x15x6xf32>
  %2 = sdy.all_to_all [{"v"}: 0->1] %1 out_sharding=<@mixed, [{"w"}, {"v"}, {"u"}]> : tensor<60x15x6xf32>
  return %2 : tensor<60x15x6xf32>
}

// The target dimension already has an axis.
func.func @target_already_sharded(%arg0: tensor<8x8x4xf32> {sdy.sharding = #sdy.sharding<@m3, [{"p", "q"}, {"r"}, {}]>}) -> tensor<8x8x4xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m3, [{"q", "p"}, {"r"}, {}]> : tensor<8x8x4xf32>
  %1 = sdy.all_to_all [{"p"}: 0->1] %0 out_sharding=<@m3, [{"q"}, {"r", "p"}, {}]> : tensor<8x8x4xf32>
  %2 = sdy.all_to_all [{"q"}: 0->2] %1 out_sharding=<@m3, [{}, {"r", "p"}, {"q"}]> : tensor<8x8x4xf32>
  return %2 : tensor<8x8x4xf32>
}

// The chain stops at the all-to-all out of another dimension, which then reads the reshape back.
func.func @chain_stops_at_other_source(%arg0: tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"p", "q"}, {"r"}, {}]>}) -> tensor<8x8x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m3, [{"q", "p"}, {"r"}, {}]> : tensor<8x8x8xf32>
  %1 = sdy.all_to_all [{"p"}: 0->2] %0 out_sharding=<@m3, [{"q"}, {"r"}, {"p"}]> : tensor<8x8x8xf32>
  %2 = sdy.all_to_all [{"r"}: 1->0] %1 out_sharding=<@m3, [{"q", "r"}, {}, {"p"}]> : tensor<8x8x8xf32>
  return %2 : tensor<8x8x8xf32>
}

// The chain stops at an all-to-all with two users; the one after it stays.
func.func @chain_stops_at_two_users(%arg0: tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"p", "q", "r"}, {}, {}]>}) -> (tensor<8x8x8xf32>, tensor<8x8x8xf32>) {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m3, [{"r", "q", "p"}, {}, {}]> : tensor<8x8x8xf32>
  %1 = sdy.all_to_all [{"p"}: 0->1] %0 out_sharding=<@m3, [{"r", "q"}, {"p"}, {}]> : tensor<8x8x8xf32>
  %2 = sdy.all_to_all [{"q"}: 0->2] %1 out_sharding=<@m3, [{"r"}, {"p"}, {"q"}]> : tensor<8x8x8xf32>
  %3 = sdy.all_to_all [{"r"}: 0->2] %2 out_sharding=<@m3, [{}, {"p"}, {"q", "r"}]> : tensor<8x8x8xf32>
  return %3, %2 : tensor<8x8x8xf32>, tensor<8x8x8xf32>
}

// An axis the all-to-alls leave behind is moved to its place by an all-to-all of its own.
func.func @left_behind_axis_moved(%arg0: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@m2, [{"p", "q"}, {}]>}) -> tensor<16x4xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m2, [{"q", "p"}, {}]> : tensor<16x4xf32>
  %1 = sdy.all_to_all [{"p"}: 0->1] %0 out_sharding=<@m2, [{"q"}, {"p"}]> : tensor<16x4xf32>
  return %1 : tensor<16x4xf32>
}

// Two left-behind axes: the one that belongs first moves first.
func.func @left_behind_in_target_order(%arg0: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@m4, [{"p", "q", "r", "s"}, {}]>}) -> tensor<16x4xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m4, [{"s", "r", "p", "q"}, {}]> : tensor<16x4xf32>
  %1 = sdy.all_to_all [{"q"}: 0->1] %0 out_sharding=<@m4, [{"s", "r", "p"}, {"q"}]> : tensor<16x4xf32>
  %2 = sdy.all_to_all [{"p"}: 0->1] %1 out_sharding=<@m4, [{"s", "r"}, {"q", "p"}]> : tensor<16x4xf32>
  return %2 : tensor<16x4xf32>
}

// Placing an axis first moves the axis sitting in its place (a rotation).
func.func @left_behind_rotation(%arg0: tensor<16x4x4xf32> {sdy.sharding = #sdy.sharding<@m3, [{"p", "q", "r"}, {}, {}]>}) -> tensor<16x4x4xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m3, [{"r", "p", "q"}, {}, {}]> : tensor<16x4x4xf32>
  %1 = sdy.all_to_all [{"q"}: 0->2] %0 out_sharding=<@m3, [{"r", "p"}, {}, {"q"}]> : tensor<16x4x4xf32>
  return %1 : tensor<16x4x4xf32>
}

// Two left-behind axes swapping places cannot be placed: the chain stays.
func.func @left_behind_swap_stays(%arg0: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@m3, [{"p", "q", "r"}, {}]>}) -> tensor<16x4xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m3, [{"q", "p", "r"}, {}]> : tensor<16x4xf32>
  %1 = sdy.all_to_all [{"r"}: 0->1] %0 out_sharding=<@m3, [{"q", "p"}, {"r"}]> : tensor<16x4xf32>
  return %1 : tensor<16x4xf32>
}

// The axis left behind (size 2) moves into the dimension of the axis of size 4 that left.
func.func @axis_moves_into_a_larger_dimension(%arg0: tensor<32x4xf32> {sdy.sharding = #sdy.sharding<@wide, [{"p", "q"}, {}]>}) -> tensor<32x4xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@wide, [{"q", "p"}, {}]> : tensor<32x4xf32>
  %1 = sdy.all_to_all [{"p"}: 0->1] %0 out_sharding=<@wide, [{"q"}, {"p"}]> : tensor<32x4xf32>
  return %1 : tensor<32x4xf32>
}

// Two axes left behind on dimensions of sizes 4 and 2 do not reshape back to the same layout.
func.func @layout_differs_stays(%arg0: tensor<32x8xf32> {sdy.sharding = #sdy.sharding<@uneven, [{"c", "x", "y"}, {}]>}) -> tensor<32x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@uneven, [{"x", "y", "c"}, {}]> : tensor<32x8xf32>
  %1 = sdy.all_to_all [{"c"}: 0->1] %0 out_sharding=<@uneven, [{"x", "y"}, {"c"}]> : tensor<32x8xf32>
  return %1 : tensor<32x8xf32>
}

// A permute that keeps the order changes nothing: no split dimension.
func.func @identity_permute_stays(%arg0: tensor<16x4x4xf32> {sdy.sharding = #sdy.sharding<@m2, [{"p", "q"}, {}, {}]>}) -> tensor<16x4x4xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m2, [{"p", "q"}, {}, {}]> : tensor<16x4x4xf32>
  %1 = sdy.all_to_all [{"q"}: 0->2] %0 out_sharding=<@m2, [{"p"}, {}, {"q"}]> : tensor<16x4x4xf32>
  %2 = sdy.all_to_all [{"p"}: 0->1] %1 out_sharding=<@m2, [{}, {"p"}, {"q"}]> : tensor<16x4x4xf32>
  return %2 : tensor<16x4x4xf32>
}

// The permute reorders two dimensions.
func.func @two_dimensions_permuted_stays(%arg0: tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@m4, [{"p", "q"}, {"r", "s"}, {}]>}) -> tensor<8x8x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m4, [{"q", "p"}, {"s", "r"}, {}]> : tensor<8x8x8xf32>
  %1 = sdy.all_to_all [{"p"}: 0->2] %0 out_sharding=<@m4, [{"q"}, {"s", "r"}, {"p"}]> : tensor<8x8x8xf32>
  return %1 : tensor<8x8x8xf32>
}

// The permute brings in an axis the input did not have.
func.func @permute_changes_the_axes_stays(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"p", "q"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m3, [{"r", "p"}, {}]> : tensor<8x8xf32>
  %1 = sdy.all_to_all [{"p"}: 0->1] %0 out_sharding=<@m3, [{"r"}, {"p"}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// 6 is not divisible by 2x2.
func.func @not_divisible_stays(%arg0: tensor<6x8x8xf32> {sdy.sharding = #sdy.sharding<@m2, [{"p", "q"}, {}, {}]>}) -> tensor<6x8x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m2, [{"q", "p"}, {}, {}]> : tensor<6x8x8xf32>
  %1 = sdy.all_to_all [{"p"}: 0->2] %0 out_sharding=<@m2, [{"q"}, {}, {"p"}]> : tensor<6x8x8xf32>
  %2 = sdy.all_to_all [{"q"}: 0->1] %1 out_sharding=<@m2, [{}, {"q"}, {"p"}]> : tensor<6x8x8xf32>
  return %2 : tensor<6x8x8xf32>
}

// A dynamic dimension.
func.func @dynamic_stays(%arg0: tensor<?x8xf32> {sdy.sharding = #sdy.sharding<@m2, [{"p", "q"}, {}]>}) -> tensor<?x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m2, [{"q", "p"}, {}]> : tensor<?x8xf32>
  %1 = sdy.all_to_all [{"p"}: 0->1] %0 out_sharding=<@m2, [{"q"}, {"p"}]> : tensor<?x8xf32>
  return %1 : tensor<?x8xf32>
}

// A scalar.
func.func @scalar_stays(%arg0: tensor<f32> {sdy.sharding = #sdy.sharding<@m2, []>}) -> tensor<f32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m2, []> : tensor<f32>
  return %0 : tensor<f32>
}

// The permute's result has two users.
func.func @permute_used_twice_stays(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m2, [{"p", "q"}, {}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m2, [{"q", "p"}, {}]> : tensor<8x8xf32>
  %1 = sdy.all_to_all [{"p"}: 0->1] %0 out_sharding=<@m2, [{"q"}, {"p"}]> : tensor<8x8xf32>
  return %1, %0 : tensor<8x8xf32>, tensor<8x8xf32>
}

// The permute moves to a mesh with another device order.
func.func @other_device_order_stays(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m2, [{"p", "q"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m2_other_order, [{"q", "p"}, {}]> : tensor<8x8xf32>
  %1 = sdy.all_to_all [{"p"}: 0->1] %0 out_sharding=<@m2_other_order, [{"q"}, {"p"}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// The permute drops a replicated axis.
func.func @replicated_axes_differ_stays(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"p", "q"}, {}], replicated={"r"}>}) -> tensor<8x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m3, [{"q", "p"}, {}]> : tensor<8x8xf32>
  %1 = sdy.all_to_all [{"p"}: 0->1] %0 out_sharding=<@m3, [{"q"}, {"p"}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// The permute opens a dimension.
func.func @open_closed_differ_stays(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m2, [{"p", "q"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m2, [{"q", "p"}, {?}]> : tensor<8x8xf32>
  %1 = sdy.all_to_all [{"p"}: 0->1] %0 out_sharding=<@m2, [{"q"}, {"p", ?}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// Open dimensions and replicated axes: the new dimensions are closed, the others keep theirs.
func.func @open_and_replicated(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"p", "q", ?}, {?}], replicated={"r"}>}) -> tensor<16x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m3, [{"q", "p", ?}, {?}], replicated={"r"}> : tensor<16x8xf32>
  %1 = sdy.all_to_all [{"p"}: 0->1] %0 out_sharding=<@m3, [{"q", ?}, {"p", ?}], replicated={"r"}> : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// Unreduced axes of kind max: the new ops' shardings say sum (as the C++ builds them), the last keeps max.
func.func @unreduced_max(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"p", "q"}, {}], unreduced=max{"r"}>}) -> tensor<16x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m3, [{"q", "p"}, {}], unreduced=max{"r"}> : tensor<16x8xf32>
  %1 = sdy.all_to_all [{"p"}: 0->1] %0 out_sharding=<@m3, [{"q"}, {"p"}], unreduced=max{"r"}> : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// New ops go where the permute was, with its location; other ops stay after them.
func.func @inserted_where_the_permute_was(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m2, [{"p", "q"}, {}]>}, %arg1: tensor<4xf32>) -> (tensor<16x8xf32>, tensor<4xf32>) {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m2, [{"q", "p"}, {}]> : tensor<16x8xf32> loc("the_permute")
  %1 = stablehlo.negate %arg1 : tensor<4xf32>
  %2 = sdy.all_to_all [{"p"}: 0->1] %0 out_sharding=<@m2, [{"q"}, {"p"}]> : tensor<16x8xf32> loc("first_a2a")
  %3 = stablehlo.abs %1 : tensor<4xf32>
  %4 = sdy.all_to_all [{"q"}: 0->1] %2 out_sharding=<@m2, [{}, {"p", "q"}]> : tensor<16x8xf32>
  return %4, %3 : tensor<16x8xf32>, tensor<4xf32>
}

// Two chains in one function; a permute without users stays (collectives are not free of effects).
func.func @two_chains_and_an_unused_permute(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m2, [{"p", "q"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m2, [{}, {"q", "p"}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m2, [{"q", "p"}, {}]> : tensor<8x8xf32>
  %1 = sdy.all_to_all [{"p"}: 0->1] %0 out_sharding=<@m2, [{"q"}, {"p"}]> : tensor<8x8xf32>
  %2 = sdy.collective_permute %arg1 out_sharding=<@m2, [{}, {"p", "q"}]> : tensor<8x8xf32>
  %3 = sdy.all_to_all [{"q"}: 1->0] %2 out_sharding=<@m2, [{"q"}, {"p"}]> : tensor<8x8xf32>
  %4 = sdy.all_to_all [{"p"}: 1->0] %3 out_sharding=<@m2, [{"q", "p"}, {}]> : tensor<8x8xf32>
  %5 = sdy.collective_permute %arg0 out_sharding=<@m2, [{"q", "p"}, {}]> : tensor<8x8xf32>
  return %1, %4 : tensor<8x8xf32>, tensor<8x8xf32>
}

// A sub-axis pair in reverse order, both scattered.
func.func @reversed_sub_axes(%arg0: tensor<16x4x4xf32> {sdy.sharding = #sdy.sharding<@long16, [{"t":(1)2, "t":(4)2}, {}, {}]>}) -> tensor<16x4x4xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@long16, [{"t":(4)2, "t":(1)2}, {}, {}]> : tensor<16x4x4xf32>
  %1 = sdy.all_to_all [{"t":(1)2}: 0->1] %0 out_sharding=<@long16, [{"t":(4)2}, {"t":(1)2}, {}]> : tensor<16x4x4xf32>
  %2 = sdy.all_to_all [{"t":(4)2}: 0->2] %1 out_sharding=<@long16, [{}, {"t":(1)2}, {"t":(4)2}]> : tensor<16x4x4xf32>
  return %2 : tensor<16x4x4xf32>
}

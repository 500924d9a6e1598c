// An embedding lookup whose weights (on their embedding dimension) and runtime indices (on their
// batch dimension) are sharded along the same axis "x": the lookup's result can take "x" on one
// dimension only, and which one the priorities decide (torch_xla's mark_sharding(..., priority=...)).
// `python -m shardy_py cost examples/embedding_lookup.mlir --variant ...` says what each choice costs.
sdy.mesh @mesh = <["x"=4]>
func.func @main(%weights: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %indices: tensor<8x1xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  %0 = "stablehlo.gather"(%weights, %indices) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> : (tensor<32x16xf32>, tensor<8x1xi32>) -> tensor<8x16xf32>
  %1 = stablehlo.negate %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

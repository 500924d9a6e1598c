module {
  sdy.mesh @grid0 = <["axis_0"=2, "axis_1"=2, "axis_2"=4]>
  func.func @grid_shard_op_fully_replicated(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@grid0, [{}, {}]>}) -> tensor<4x8xf32> {
    return %arg0 : tensor<4x8xf32>
  }
  func.func @grid_shard_op_1st_dim(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@grid0, [{"axis_0"}, {}]>}) -> tensor<4x8xf32> {
    return %arg0 : tensor<4x8xf32>
  }
  func.func @grid_shard_op_two_users(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@grid0, [{"axis_0"}, {}]>}) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
    %0 = sdy.sharding_constraint %arg0 <@grid0, [{"axis_1"}, {}]> : tensor<4x8xf32>
    %1 = sdy.sharding_constraint %arg0 <@grid0, [{"axis_2"}, {}]> : tensor<4x8xf32>
    return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
  }
}

module {
  shard.grid @grid0(shape = 2x2x4)
  func.func @grid_shard_op_fully_replicated(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %sharding = shard.sharding @grid0 split_axes = [[]] : !shard.sharding
    %sharding_annotated = shard.shard %arg0 to %sharding : tensor<4x8xf32>
    return %sharding_annotated : tensor<4x8xf32>
  }
  func.func @grid_shard_op_1st_dim(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %sharding = shard.sharding @grid0 split_axes = [[0]] : !shard.sharding
    %sharding_annotated = shard.shard %arg0 to %sharding : tensor<4x8xf32>
    return %sharding_annotated : tensor<4x8xf32>
  }
  func.func @grid_shard_op_two_users(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
    %sharding = shard.sharding @grid0 split_axes = [[0]] : !shard.sharding
    %sharding_annotated = shard.shard %arg0 to %sharding : tensor<4x8xf32>
    %sharding_0 = shard.sharding @grid0 split_axes = [[1]] : !shard.sharding
    %sharding_annotated_1 = shard.shard %sharding_annotated to %sharding_0 annotate_for_users : tensor<4x8xf32>
    %sharding_2 = shard.sharding @grid0 split_axes = [[2]] : !shard.sharding
    %sharding_annotated_3 = shard.shard %sharding_annotated to %sharding_2 annotate_for_users : tensor<4x8xf32>
    return %sharding_annotated_1, %sharding_annotated_3 : tensor<4x8xf32>, tensor<4x8xf32>
  }
}

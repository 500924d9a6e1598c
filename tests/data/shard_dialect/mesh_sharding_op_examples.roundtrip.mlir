module {
  mesh.mesh @mesh0(shape = 2x2x4)
  mesh.mesh @mesh1d_4(shape = 4)
  func.func @sharding_examples(%arg0: tensor<4x8xf32>) {
    %sharding = mesh.sharding @mesh0 split_axes = [[]] : !mesh.sharding
    %sharding_annotated = mesh.shard %arg0 to %sharding annotate_for_users : tensor<4x8xf32>
    %sharding_0 = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
    %sharding_annotated_1 = mesh.shard %arg0 to %sharding_0 annotate_for_users : tensor<4x8xf32>
    %sharding_2 = mesh.sharding @mesh0 split_axes = [[0]] partial = sum [1] : !mesh.sharding
    %sharding_annotated_3 = mesh.shard %arg0 to %sharding_2 annotate_for_users : tensor<4x8xf32>
    %sharding_4 = mesh.sharding @mesh0 split_axes = [[0]] partial = max [1] : !mesh.sharding
    %sharding_annotated_5 = mesh.shard %arg0 to %sharding_4 annotate_for_users : tensor<4x8xf32>
    "use"(%sharding_annotated, %sharding_annotated_1, %sharding_annotated_3, %sharding_annotated_5) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> ()
    return
  }
}

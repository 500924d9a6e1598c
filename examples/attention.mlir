module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<4x16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}, %arg1: tensor<32x8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg2: tensor<32x8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg3: tensor<32x8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg4: tensor<8x4x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}) -> (tensor<4x16x32xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16x32xf32>, tensor<32x8x4xf32>) -> tensor<4x16x8x4xf32>
    %1 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16x32xf32>, tensor<32x8x4xf32>) -> tensor<4x16x8x4xf32>
    %2 = stablehlo.dot_general %arg0, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16x32xf32>, tensor<32x8x4xf32>) -> tensor<4x16x8x4xf32>
    %3 = stablehlo.dot_general %0, %1, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x16x8x4xf32>, tensor<4x16x8x4xf32>) -> tensor<4x8x16x16xf32>
    %cst = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %4 = stablehlo.sqrt %cst : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<f32>) -> tensor<4x8x16x16xf32>
    %6 = stablehlo.divide %3, %5 : tensor<4x8x16x16xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_0) applies stablehlo.maximum across dimensions = [3] : (tensor<4x8x16x16xf32>, tensor<f32>) -> tensor<4x8x16xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x8x16xf32>
    %9 = stablehlo.maximum %8, %7 : tensor<4x8x16xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2] : (tensor<4x8x16xf32>) -> tensor<4x8x16x1xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2, 3] : (tensor<4x8x16x1xf32>) -> tensor<4x8x16x16xf32>
    %12 = stablehlo.subtract %6, %11 : tensor<4x8x16x16xf32>
    %13 = stablehlo.exponential %12 : tensor<4x8x16x16xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.reduce(%13 init: %cst_2) applies stablehlo.add across dimensions = [3] : (tensor<4x8x16x16xf32>, tensor<f32>) -> tensor<4x8x16xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1, 2] : (tensor<4x8x16xf32>) -> tensor<4x8x16x1xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1, 2, 3] : (tensor<4x8x16x1xf32>) -> tensor<4x8x16x16xf32>
    %17 = stablehlo.divide %13, %16 : tensor<4x8x16x16xf32>
    %18 = stablehlo.dot_general %2, %17, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x16x8x4xf32>, tensor<4x8x16x16xf32>) -> tensor<4x8x4x16xf32>
    %19 = stablehlo.transpose %18, dims = [0, 3, 1, 2] : (tensor<4x8x4x16xf32>) -> tensor<4x16x8x4xf32>
    %20 = sdy.sharding_constraint %19 <@mesh, [{"data"}, {}, {"model"}, {}]> : tensor<4x16x8x4xf32>
    %21 = stablehlo.dot_general %20, %arg4, contracting_dims = [2, 3] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x16x8x4xf32>, tensor<8x4x32xf32>) -> tensor<4x16x32xf32>
    return %21 : tensor<4x16x32xf32>
  }
}

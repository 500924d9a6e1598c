module @jit_g attributes {mhlo.cross_program_prefetches = [], mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.use_auto_spmd_partitioning = false} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<8x8xf32> {
    %0:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x", ?}, {?}]>, <@mesh, [{"x", ?}, {?}]>] out_shardings=[<@mesh, [{"x", ?}, {?}]>, <@mesh, [{"x", ?}, {?}]>] manual_axes={"x"} (%arg2: tensor<4x8xf32>, %arg3: tensor<4x8xf32>) {
      %3 = stablehlo.add %arg2, %arg3 : tensor<4x8xf32>
      %4 = sdy.sharding_constraint %3 <@mesh, [{?}, {?}]> : tensor<4x8xf32>
      %5 = stablehlo.multiply %arg2, %arg3 : tensor<4x8xf32>
      %6 = sdy.sharding_constraint %5 <@mesh, [{?}, {?}]> : tensor<4x8xf32>
      sdy.return %4, %6 : tensor<4x8xf32>, tensor<4x8xf32>
    } : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
    %1 = stablehlo.subtract %0#0, %0#1 : tensor<8x8xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
    return %2 : tensor<8x8xf32>
  }
}

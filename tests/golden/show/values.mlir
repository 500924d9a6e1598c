// Every kind of sharded value show draws (tests/test_show_values.py).
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x8xf32>)
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, tensor<8x8xf32>) {
  %0:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>]>} %arg0, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>
  %1 = sdy.reshard %0#0 <@mesh, [{}, {"x"}]> : tensor<8x8xf32>
  %2 = sdy.all_gather [{}, {"x"}] %1 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  %3 = sdy.manual_computation(%2) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg2: tensor<4x8xf32>) {
    %4 = sdy.sharding_constraint %arg2 <@mesh, [{"y"}, {}]> : tensor<4x8xf32>
    sdy.return %4 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %5 = sdy.named_computation<"g">(%3) in_shardings=[<@mesh, [{}, {"y"}]>] out_shardings=[<@mesh, [{"y"}, {}]>] (%arg3: tensor<8x8xf32>) {
    sdy.return %arg3 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %5, %0#1 : tensor<8x8xf32>, tensor<8x8xf32>
}

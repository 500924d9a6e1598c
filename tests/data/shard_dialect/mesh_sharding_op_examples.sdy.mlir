module {
  sdy.mesh @mesh0 = <["axis_0"=2, "axis_1"=2, "axis_2"=4]>
  sdy.mesh @mesh1d_4 = <["axis_0"=4]>
  func.func @sharding_examples(%arg0: tensor<4x8xf32>) {
    %0 = sdy.sharding_constraint %arg0 <@mesh0, [{}, {}]> : tensor<4x8xf32>
    %1 = sdy.sharding_constraint %arg0 <@mesh0, [{"axis_0"}, {}]> : tensor<4x8xf32>
    %2 = sdy.sharding_constraint %arg0 <@mesh0, [{"axis_0"}, {}], unreduced={"axis_1"}> : tensor<4x8xf32>
    %3 = sdy.sharding_constraint %arg0 <@mesh0, [{"axis_0"}, {}], unreduced=max{"axis_1"}> : tensor<4x8xf32>
    "use"(%0, %1, %2, %3) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> ()
    return
  }
}

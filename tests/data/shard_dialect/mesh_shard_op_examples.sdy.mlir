module {
  sdy.mesh @mesh0 = <["axis_0"=2, "axis_1"=2, "axis_2"=4]>
  func.func @only_result_annotated(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh0, [{"axis_0"}, {}]>}) {
    return
  }
  func.func @only_operand_annotated(%arg0: tensor<4x8xf32>) {
    %0 = sdy.sharding_constraint %arg0 <@mesh0, [{"axis_0"}, {}]> : tensor<4x8xf32>
    return
  }
  func.func @two_operands_annotated(%arg0: tensor<4x8xf32>, %arg1: tensor<16x8xf32>) {
    %0 = sdy.sharding_constraint %arg0 <@mesh0, [{"axis_0"}, {}]> : tensor<4x8xf32>
    %1 = sdy.sharding_constraint %arg1 <@mesh0, [{"axis_0"}, {}]> : tensor<16x8xf32>
    return
  }
  func.func @both_result_and_multi_operands_annotated(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh0, [{"axis_0"}, {}]>}) {
    %0 = sdy.sharding_constraint %arg0 <@mesh0, [{"axis_1"}, {}]> : tensor<4x8xf32>
    %1 = sdy.sharding_constraint %arg0 <@mesh0, [{"axis_2"}, {}]> : tensor<4x8xf32>
    "op0"(%0) : (tensor<4x8xf32>) -> ()
    "op1"(%1) : (tensor<4x8xf32>) -> ()
    return
  }
}

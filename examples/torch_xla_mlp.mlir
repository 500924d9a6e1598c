// What torch_xla's xm.get_stablehlo([output]) gives for a two-layer MLP (torch.nn.Linear weights are
// [out, in]) after xs.mark_sharding on a Mesh(np.arange(8), (2, 4), ("data", "model")):
// x (data, None), w1 (model, None), w2 (None, model), the hidden activation (data, model).
// Shardings are GSPMD's mhlo.sharding strings; each replication group is listed sorted, as torch_xla
// writes it. Made by hand in that shape (torch_xla is not installable with jax 0.12's Python).
module @IrToHlo.19 attributes {mhlo.cross_program_prefetches = [], mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.use_auto_spmd_partitioning = false} {
  func.func @main(%arg0: tensor<16x64xf32> {mhlo.sharding = "{devices=[2,1,4]0,1,2,3,4,5,6,7 last_tile_dim_replicate}"}, %arg1: tensor<256x64xf32> {mhlo.sharding = "{devices=[4,1,2]0,4,1,5,2,6,3,7 last_tile_dim_replicate}"}, %arg2: tensor<64x256xf32> {mhlo.sharding = "{devices=[1,4,2]0,4,1,5,2,6,3,7 last_tile_dim_replicate}"}) -> tensor<16x64xf32> {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<256x64xf32>) -> tensor<16x256xf32>
    %1 = stablehlo.custom_call @Sharding(%0) {mhlo.sharding = "{devices=[2,4]0,1,2,3,4,5,6,7}"} : (tensor<16x256xf32>) -> tensor<16x256xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<16x256xf32>
    %2 = stablehlo.maximum %1, %cst : tensor<16x256xf32>
    %3 = stablehlo.dot_general %2, %arg2, contracting_dims = [1] x [1] : (tensor<16x256xf32>, tensor<64x256xf32>) -> tensor<16x64xf32>
    return %3 : tensor<16x64xf32>
  }
}

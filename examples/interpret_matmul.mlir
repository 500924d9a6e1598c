// A small program for `python -m shardy_py interpret`: a matmul, a bias and a ReLU.
func.func @main(%x: tensor<2x3xf32>, %w: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %bias = stablehlo.constant dense<[-1.0, 0.5]> : tensor<2xf32>
  %1 = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<2xf32>) -> tensor<2x2xf32>
  %2 = stablehlo.add %0, %1 : tensor<2x2xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<2x2xf32>
  %3 = stablehlo.maximum %2, %zero : tensor<2x2xf32>
  return %3 : tensor<2x2xf32>
}

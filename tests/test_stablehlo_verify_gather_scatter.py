"""``stablehlo.scatter`` and ``stablehlo.dynamic_gather`` under ``verify``
(``dialects.stablehlo_verify_gather_scatter``): each rule on a module of one op, with the error (line and message)
jaxlib 0.12 gives for it, and valid modules both accept (gather itself: ``test_stablehlo_verify_dot_conv``)."""
from __future__ import annotations

from stablehlo_verify_oracle import rule_tests
from test_stablehlo_verify_shapes import fn


def scatter(dims: str, updates: str = "10x300", result_element: str = "f32", region_args: str = "f32") -> str:
    """A scatter of ``tensor<200x100x300xf32>`` at ``tensor<10x2xi32>`` indices (the op is on line 2)."""
    op = ('"stablehlo.scatter"(%a, %i, %u) ({\n'
          f"  ^bb0(%x: tensor<{region_args}>, %y: tensor<{region_args}>):\n"
          f"    %s = stablehlo.add %x, %y : tensor<{region_args}>\n"
          f'    "stablehlo.return"(%s) : (tensor<{region_args}>) -> ()\n'
          "  }) {scatter_dimension_numbers = #stablehlo.scatter<" + dims + ">} : "
          f"(tensor<200x100x300xf32>, tensor<10x2xi32>, tensor<{updates}xf32>) -> tensor<200x100x300x{result_element}>")
    return fn(f"%a: tensor<200x100x300xf32>, %i: tensor<10x2xi32>, %u: tensor<{updates}xf32>", op,
              f"tensor<200x100x300x{result_element}>")


_DIMS = "update_window_dims = [1], inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], " \
        "index_vector_dim = 1"


def dynamic_gather(dims: str, out: str) -> str:
    op = ('"stablehlo.dynamic_gather"(%a, %i, %s) {dimension_numbers = #stablehlo.gather<' + dims + ">} : "
          f"(tensor<2x4x9xi32>, tensor<1x5x2xi64>, tensor<3xi64>) -> tensor<{out}xi32>")
    return fn("%a: tensor<2x4x9xi32>, %i: tensor<1x5x2xi64>, %s: tensor<3xi64>", op, f"tensor<{out}xi32>")


CASES = {
    "scatter_operand_rank": (
        scatter("update_window_dims = [1], inserted_window_dims = [0, 1, 2], scatter_dims_to_operand_dims = [0, 1], "
                "index_vector_dim = 1"),
        (2, "Expects rank-of operand to match size-of('update_window_dims') + size-of('inserted_window_dims') + "
            "size-of('input_batching_dims') i.e. 4 but got 3.")),
    "scatter_window_bound": (
        scatter(_DIMS, updates="10x301"),
        (2, "expects bounds of the window dimensions of updates to not exceed the bounds of the corresponding "
            "dimensions of operand. For dimension 1, updates bound is 301, operand bound is 300.")),
    "scatter_index_vector_dim": (
        scatter(_DIMS.replace("index_vector_dim = 1", "index_vector_dim = 3")),
        (2, "Expects index_vector_dim to be in range [0, rank-of('scatter_indices')] i.e. [0, 2]. got: 3.")),
    "scatter_region_types": (
        scatter(_DIMS, region_args="i32"),
        (2, "The element-type of reduction-region's result type at index 0 is expected to be promotable from the "
            "op's corresponding init-value element-type: 'tensor<i32>' vs 'tensor<f32>'")),
    "dynamic_gather_offset_dims": (
        dynamic_gather("offset_dims = [2, 2], collapsed_slice_dims = [0], start_index_map = [0, 1], "
                       "index_vector_dim = 2", "1x5x8"),
        (2, "expects offset_dims to not repeat, got: [2, 2]")),
}

VALID = {
    "scatter": scatter(_DIMS),
    "dynamic_gather": dynamic_gather("offset_dims = [2], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], "
                                     "index_vector_dim = 2", "1x5x?"),
}


test_rule, test_valid_module_is_clean, test_jaxlib_gives_the_same_errors = rule_tests(CASES, VALID)

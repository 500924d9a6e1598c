"""Helpers shared by the rules of several op families."""
from __future__ import annotations

from collections.abc import Sequence


def is_window_passthrough_dim(padding: Sequence[int] | None, window_dims: Sequence[int] | None,
                              window_strides: Sequence[int] | None, dim: int) -> bool:
    """Whether window dimension ``dim`` maps its input one-to-one onto its output: no padding on
    either side (``padding`` is the flattened ``[lo, hi]`` pairs) and window size and stride 1
    (absent or empty lists count as all ones)."""
    if padding and (padding[2 * dim] != 0 or padding[2 * dim + 1] != 0):
        return False
    return (not window_strides or window_strides[dim] == 1) and (not window_dims or window_dims[dim] == 1)

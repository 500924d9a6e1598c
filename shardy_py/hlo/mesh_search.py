"""Meshes for a batch of GSPMD shardings: one mesh for all of them when one exists, else as few
as possible.

``fit_mesh`` tries, for a list of tiled shardings over the same N devices:

1. XLA's import: devices in iota order, each sharding a product of mesh axes
   (``analyze_tile_assignment``); the mesh is the common factorisation of their local meshes and
   has no ``device_ids``;
2. else an explicit device order, the ``lex_frame`` of the shardings (``device_order``): every
   device array is rewritten as positions in that order and analysed the same way; the mesh's
   ``device_ids`` are the frame (dropped when it is the iota).

The second step finds one mesh whenever the shardings are views of one device array through
different groupings and transposes of the same axes (torch_xla's ``Mesh`` with any partition
specs), so ``group_shardings`` only splits a batch whose shardings cannot share a mesh, greedily,
in input order.
"""
from __future__ import annotations

from collections.abc import Sequence

import attrs
import numpy as np

from shardy_py.hlo.device_order import check_devices, lex_frame, relabel
from shardy_py.hlo.errors import UnsupportedShardingError
from shardy_py.hlo.factorization import SubDim, analyze_tile_assignment, common_mesh_sizes
from shardy_py.hlo.sharding import HloSharding

Analysis = tuple[list[SubDim], list[int]]


@attrs.frozen
class MeshFit:
    """A mesh for some shardings: axis sizes (major to minor), the device order (None: iota) and,
    per sharding, its analysis in that device order (``analyze_tile_assignment``)."""

    sizes: list[int]
    device_ids: np.ndarray | None
    analyses: list[Analysis]


def _analyses(shardings: Sequence[HloSharding]) -> tuple[list[int], list[Analysis]] | None:
    analyses = []
    for h in shardings:
        found = analyze_tile_assignment(h.assignment)
        if found is None:
            return None
        analyses.append(found)
    sizes = common_mesh_sizes([local for _, local in analyses])
    return None if sizes is None else (sizes, analyses)


def fit_mesh(shardings: Sequence[HloSharding]) -> MeshFit | None:
    """One mesh for all ``shardings`` (tiled, non-tuple), or None when there is none.

    Raises ``UnsupportedShardingError`` when a device list is not a permutation of ``0..N-1``."""
    n = shardings[0].num_devices
    if any(h.num_devices != n for h in shardings):
        return None
    found = _analyses(shardings)
    if found is not None:
        return MeshFit(found[0], None, found[1])
    for h in shardings:
        check_devices(h, str(h) if h.num_devices <= 32 else repr(h))
    frame = lex_frame(shardings)
    position = np.empty(n, dtype=np.int64)
    position[frame] = np.arange(n, dtype=np.int64)
    found = _analyses([relabel(h, position) for h in shardings])
    if found is None:
        return None
    is_iota = bool((frame == np.arange(n)).all())
    return MeshFit(found[0], None if is_iota else frame, found[1])


def group_shardings(shardings: Sequence[HloSharding]) -> list[tuple[list[int], MeshFit]]:
    """Split ``shardings`` (tiled, non-tuple, over at least 2 devices) into groups that each share
    one mesh: the indices of each group (ascending) and its ``MeshFit`` (analyses in that order).

    One group when a single mesh fits them all; otherwise greedily, in input order, each distinct
    sharding joining the first group it fits (a sharding alone always has a mesh)."""
    distinct: list[HloSharding] = []
    index_of: dict[HloSharding, int] = {}
    which = [index_of.setdefault(h, len(index_of)) for h in shardings]
    distinct = list(index_of)
    whole = fit_mesh(distinct) if distinct else None
    if whole is not None:
        parts = [(list(range(len(distinct))), whole)]
    else:
        parts = []
        for d, h in enumerate(distinct):
            for k, (members, _) in enumerate(parts):
                fit = fit_mesh([distinct[j] for j in members] + [h])
                if fit is not None:
                    parts[k] = (members + [d], fit)
                    break
            else:
                fit = fit_mesh([h])
                if fit is None:
                    raise UnsupportedShardingError(f"cannot import {h!r}: no mesh found for it")
                parts.append(([d], fit))
    out = []
    for members, fit in parts:
        analysis_of = dict(zip(members, fit.analyses, strict=True))
        indices = [i for i, d in enumerate(which) if d in analysis_of]
        out.append((indices, attrs.evolve(fit, analyses=[analysis_of[which[i]] for i in indices])))
    return out

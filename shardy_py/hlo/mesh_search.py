"""Meshes for a batch of GSPMD shardings: one mesh for all of them when one exists, else as few
as possible.

``fit_mesh`` tries, for a list of tiled shardings over the same N devices:

1. XLA's import: devices in iota order, each sharding a product of mesh axes
   (``analyze_tile_assignment``); the mesh is the common factorisation of their local meshes and
   has no ``device_ids``;
2. else an explicit device order, the ``lex_frame`` of the shardings (``device_order``): every
   device array is rewritten as positions in that order and analysed the same way; the mesh's
   ``device_ids`` are the frame (dropped when it is the iota);
3. for a whole batch (``search=True``), else the other ``candidate_frames``: each sharding's
   device array split into primes and transposed.

In each order the mesh is XLA's common factorisation of the local meshes, or where there is
none (local meshes ``[2, 3]`` and ``[3, 2]``) the coarser one whose axes the local axes are
sub-axes of (``coarse_mesh_sizes``).

The second step finds one mesh whenever the shardings are views of one device array through
different groupings and transposes of the same axes (torch_xla's ``Mesh`` with any partition
specs), so ``group_shardings`` only splits a batch whose shardings cannot share a mesh, greedily,
in input order.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs
import numpy as np

from shardy_py.hlo.device_order import MAX_CANDIDATE_FRAMES, candidate_frames, check_devices, lex_frame, relabel
from shardy_py.hlo.errors import UnsupportedShardingError
from shardy_py.hlo.factorization import SubDim, analyze_tile_assignment, coarse_mesh_sizes, common_mesh_sizes
from shardy_py.hlo.sharding import HloSharding

Analysis = tuple[list[SubDim], list[int]]

#: The candidate search stops after frames totalling this many devices (every candidate for
#: small meshes, a few for meshes of a million devices).
MAX_SEARCH_DEVICES = 2_000_000


@attrs.frozen
class MeshFit:
    """A mesh for some shardings: axis sizes (major to minor), the device order (None: iota) and,
    per sharding, its analysis in that device order (``analyze_tile_assignment``)."""

    sizes: list[int]
    device_ids: np.ndarray | None
    analyses: list[Analysis]


def _analyses(shardings: Iterable[HloSharding]) -> tuple[list[int], list[Analysis]] | None:
    """Each sharding's analysis and the mesh they share (XLA's common factorisation, else the
    coarse one), or None when a sharding is not a product of axes in this device order."""
    analyses = []
    for h in shardings:
        found = analyze_tile_assignment(h.assignment)
        if found is None:
            return None
        analyses.append(found)
    locals_ = [local for _, local in analyses]
    sizes = common_mesh_sizes(locals_)
    if sizes is None:
        sizes = coarse_mesh_sizes(locals_)
    return None if sizes is None else (sizes, analyses)


def _fit_in_frame(shardings: Sequence[HloSharding], frame: np.ndarray) -> MeshFit | None:
    """``fit_mesh`` in one device order (``frame``: the mesh's ``device_ids``)."""
    n = frame.size
    position = np.empty(n, dtype=np.int64)
    position[frame] = np.arange(n, dtype=np.int64)
    found = _analyses(relabel(h, position) for h in shardings)
    if found is None:
        return None
    is_iota = bool((frame == np.arange(n)).all())
    return MeshFit(found[0], None if is_iota else frame, found[1])


def fit_mesh(shardings: Sequence[HloSharding], *, search: bool = False) -> MeshFit | None:
    """One mesh for all ``shardings`` (tiled, non-tuple), or None when there is none.

    Tries the devices' own order (XLA's import), then ``lex_frame``; with ``search``, then the
    ``candidate_frames`` (complete for batches with a fully tiled sharding over up to 64
    devices).  Raises ``UnsupportedShardingError`` when a device list is not a permutation of
    ``0..N-1``."""
    n = shardings[0].num_devices
    if any(h.num_devices != n for h in shardings):
        return None
    found = _analyses(shardings)
    if found is not None:
        return MeshFit(found[0], None, found[1])
    for h in shardings:
        check_devices(h, str(h) if h.num_devices <= 32 else repr(h))
    fit = _fit_in_frame(shardings, lex_frame(shardings))
    if fit is not None or not search or len(shardings) < 2:
        return fit
    limit = max(1, min(MAX_CANDIDATE_FRAMES, MAX_SEARCH_DEVICES // n))
    for frame in candidate_frames(shardings, limit):
        fit = _fit_in_frame(shardings, frame)
        if fit is not None:
            return fit
    return None


def group_shardings(shardings: Sequence[HloSharding]) -> list[tuple[list[int], MeshFit]]:
    """Split ``shardings`` (tiled, non-tuple, over at least 2 devices) into groups that each share
    one mesh: the indices of each group (ascending) and its ``MeshFit`` (analyses in that order).

    One group when a single mesh fits them all; otherwise greedily, in input order, each distinct
    sharding joining the first group it fits (a sharding alone always has a mesh)."""
    distinct: list[HloSharding] = []
    index_of: dict[HloSharding, int] = {}
    which = [index_of.setdefault(h, len(index_of)) for h in shardings]
    distinct = list(index_of)
    whole = fit_mesh(distinct, search=True) if distinct else None
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

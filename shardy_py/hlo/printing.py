"""HloSharding text out: what XLA's ``HloSharding::ToString`` prints.

An iota tile assignment prints through one ``%`` format whose template depends only on the
ranks (``devices=[%d,%d,%d]<=[%d,%d]T(%d,%d)``), so printing a V2 sharding costs one
formatting call however many devices it has.  Templates for ranks up to ``PREBUILT_RANK`` are
built at import; larger ranks are built on first use and kept (a handful at most).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from shardy_py.hlo.intlist import format_int_list

if TYPE_CHECKING:
    from shardy_py.hlo.sharding import HloSharding

#: Templates for tile and reshape ranks up to this are built at import.
PREBUILT_RANK = 8
_REPLICATE_LAST = " last_tile_dim_replicate"


def _ints(count: int) -> str:
    return ",".join(["%d"] * count)


def _iota_template(n_dims: int, n_reshape: int) -> str:
    body = "devices=[" + _ints(n_dims) + "]<=[" + _ints(n_reshape) + "]"
    return body + ("T(" + _ints(n_reshape) + ")" if n_reshape > 1 else "")


#: (tile rank, reshape rank) -> ``devices=...`` template of an iota.
_IOTA: dict[tuple[int, int], str] = {
    (d, r): _iota_template(d, r) for d in range(PREBUILT_RANK + 1) for r in range(1, PREBUILT_RANK + 1)}
#: (tile rank, reshape rank, last tile dim replicated) -> the whole ``{...}`` of a plain iota sharding.
#: ``HloSharding.__str__`` looks templates up here inline; ``plain_iota_template`` adds missing ranks.
PLAIN_IOTA_TEMPLATES: dict[tuple[int, int, bool], str] = {
    (d, r, rep): "{" + t + (_REPLICATE_LAST if rep else "") + "}"
    for (d, r), t in _IOTA.items() for rep in (False, True)}


def plain_iota_template(n_dims: int, n_reshape: int, replicate_last: bool) -> str:
    """The ``%`` template of a whole iota sharding with no subgroup types and nothing after it:
    ``{devices=[%d,%d]<=[%d,%d]T(%d,%d)}`` (`` last_tile_dim_replicate`` before the ``}`` if asked);
    its arguments are the tile dims, the reshape dims and (two or more reshape dims) the perm."""
    key = (n_dims, n_reshape, replicate_last)
    template = PLAIN_IOTA_TEMPLATES.get(key)
    if template is None:
        template = PLAIN_IOTA_TEMPLATES[key] = "{" + _iota_template(n_dims, n_reshape) + (
            _REPLICATE_LAST if replicate_last else "") + "}"
    return template


def iota_text(dims: tuple[int, ...], reshape_dims: tuple[int, ...], perm: tuple[int, ...]) -> str:
    """``devices=[4,2]<=[2,4]T(1,0)`` (no ``T(...)`` for a single reshape dim)."""
    key = (len(dims), len(reshape_dims))
    template = _IOTA.get(key)
    if template is None:
        template = _IOTA[key] = _iota_template(*key)
    return template % ((*dims, *reshape_dims, *perm) if key[1] > 1 else (*dims, *reshape_dims))


def print_hlo_sharding(h: HloSharding, v1: bool = False, include_metadata: bool = False) -> str:
    """The text XLA prints for HloSharding ``h`` (``v1=True``: device lists instead of iota forms).

    Like XLA's ``ToString()``, metadata is left out unless ``include_metadata``.
    """
    kind = h.kind
    if kind == "tuple":
        if not h.elements:
            return "{}"
        parts = [print_hlo_sharding(h.elements[0], v1, include_metadata)]
        for i, e in enumerate(h.elements[1:], start=1):
            parts.append((f", /*index={i}*/" if i % 5 == 0 else ", ") + print_hlo_sharding(e, v1, include_metadata))
        return "{" + "".join(parts) + "}"
    tail = " " + h.shard_group if h.shard_group else ""
    if h.metadata and include_metadata:
        tail += " metadata=" + h.metadata
    if kind == "maximal":
        return f"{{maximal device={h.device}{tail}}}"
    if kind != "tiled":
        return "{" + kind + tail + "}"
    ta = h.assignment
    body = ta.v1_text() if v1 else ta.text()
    if h.replicate_on_last_tile_dim:
        body += _REPLICATE_LAST
    if h.subgroup_types:
        body += " last_tile_dims={" + ", ".join(h.subgroup_types) + "}"
    return "{" + body + tail + "}"


def device_list_text(dims, devices) -> str:
    """``devices=[2,2]0,2,1,3``: the tile dims, then every device id (vectorised for big arrays)."""
    return "devices=[" + ",".join(map(str, dims)) + "]" + format_int_list(devices)

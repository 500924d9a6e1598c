"""How long a collective takes on a machine: per mesh axis, the links its devices talk over, and
the alpha-beta model of the usual collective algorithms.

Each mesh axis maps to a ``Link``: ``bandwidth`` (bytes per second, per direction, of one link),
``latency`` (seconds per algorithm step, alpha) and ``kind``:

* ``ring``: the axis's devices form a ring used in one direction;
* ``bidirectional-ring``: a ring used in both directions at once (a torus dimension);
* ``switch``: every device has a link of ``bandwidth`` into a non-blocking switch (NVSwitch, a PCIe
  switch): rings and direct exchanges both run at full speed.

A collective over several axes runs as one stage per axis, in the order the op lists its axes, each
stage over that axis's link with the data size it has at that point (``stages``).  For one stage over
``n`` devices of data ``S`` bytes per device (the size after the stage for a gather, before it for a
scatter, the whole buffer for a reduce or an all-to-all), with ``B`` the bandwidth and ``a`` the
latency:

=====================  ===================================  ================================================
collective             ring / switch                        bidirectional ring
=====================  ===================================  ================================================
all-gather             (n-1)·a + (n-1)/n·S/B                ceil((n-1)/2)·a + (n-1)/n·S/(2B)
reduce-scatter         (n-1)·a + (n-1)/n·S/B                ceil((n-1)/2)·a + (n-1)/n·S/(2B)
all-reduce             twice the reduce-scatter (reduce-scatter then all-gather)
all-to-all (ring)      (n-1)·a + (n-1)/2·S/B                floor(n/2)·a + floor(n²/4)/(2n)·S/B
all-to-all (switch)    a + (n-1)/n·S/B
collective-permute     a + S/B
=====================  ===================================  ================================================

The all-to-all on a ring counts the hops: device ``i`` sends ``S/n`` to each other device over
``d`` links (``min(d, n-d)`` both ways), so the busiest link carries ``S·(n-1)/2`` one way
(``S·floor(n²/4)/(2n)`` both ways).  These are the bandwidth-optimal algorithms of
Thakur, Rabenseifner and Gropp, "Optimization of Collective Communication Operations in MPICH"
(IJHPCA 2005), and of "How to Scale Your Model" (jax-ml.github.io/scaling-book, part 3).

Presets (``PRESETS``) carry their figures and where they come from; ``topology(name, ...)`` takes a
preset and per-axis overrides.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

KINDS = ("ring", "bidirectional-ring", "switch")


class TopologyError(ValueError):
    """An unknown preset, link kind or axis figure."""


@dataclass(frozen=True)
class Link:
    """The links of one mesh axis: ``bandwidth`` bytes/s per direction, ``latency`` seconds per
    step, ``kind`` one of ``KINDS``."""

    bandwidth: float
    latency: float
    kind: str = "bidirectional-ring"

    def __post_init__(self):
        if self.kind not in KINDS:
            raise TopologyError(f"unknown link kind {self.kind!r} (one of {', '.join(KINDS)})")
        if not (self.bandwidth > 0 and math.isfinite(self.bandwidth)):
            raise TopologyError(f"bandwidth must be a positive number of bytes per second, not {self.bandwidth}")
        if not (self.latency >= 0 and math.isfinite(self.latency)):
            raise TopologyError(f"latency must be a non-negative number of seconds, not {self.latency}")

    def as_json(self) -> dict:
        return {"bandwidth_bytes_per_s": self.bandwidth, "latency_s": self.latency, "kind": self.kind}


@dataclass(frozen=True)
class Topology:
    """A machine: the ``default`` link of every mesh axis, ``axes`` overriding it per axis name."""

    name: str
    description: str
    source: str
    default: Link
    axes: dict[str, Link] = field(default_factory=dict)

    def link(self, axis: str | None) -> Link:
        """The link of mesh axis ``axis`` (the default for other axes and for None)."""
        return self.axes.get(axis, self.default) if axis is not None else self.default

    def with_axes(self, bandwidth: dict[str, float] | None = None, latency: dict[str, float] | None = None,
                  kind: dict[str, str] | None = None) -> Topology:
        """A copy with per-axis figures replaced (axes not named keep theirs)."""
        axes = dict(self.axes)
        for name in {*(bandwidth or {}), *(latency or {}), *(kind or {})}:
            base = axes.get(name, self.default)
            axes[name] = Link((bandwidth or {}).get(name, base.bandwidth), (latency or {}).get(name, base.latency),
                              (kind or {}).get(name, base.kind))
        described = ", ".join(f"{n}: {_link_text(link)}" for n, link in sorted(axes.items()))
        return replace(self, axes=axes, name=self.name + (" (axes given)" if axes != self.axes else ""),
                       description=self.description + (f"; per axis: {described}" if described else ""))

    def as_json(self) -> dict:
        return {"name": self.name, "description": self.description, "source": self.source,
                "default": self.default.as_json(), "axes": {k: v.as_json() for k, v in sorted(self.axes.items())}}


def _link_text(link: Link) -> str:
    return f"{link.kind} {link.bandwidth / 1e9:g} GB/s, {link.latency * 1e6:g} us"


PRESETS: dict[str, Topology] = {
    "uniform": Topology(
        "uniform", "no machine in particular: every axis a bidirectional ring of 100 GB/s per direction and 1 us "
        "per step (round figures, the default when no topology is given)", "round figures (no source)",
        Link(100e9, 1e-6, "bidirectional-ring")),
    "tpu-v5e": Topology(
        "tpu-v5e", "TPU v5e slice, a 2-D torus: each mesh axis a bidirectional ring of inter-chip links of 50 GB/s "
        "per direction (400 GB/s bidirectional per chip over 4 links), 1 us per step (an assumed per-hop figure)",
        "https://cloud.google.com/tpu/docs/v5e (bidirectional ICI bandwidth per chip: 400 GBps; 2D torus)",
        Link(50e9, 1e-6, "bidirectional-ring")),
    "gpu-nvlink": Topology(
        "gpu-nvlink", "8 H100 SXM GPUs on NVLink 4 through NVSwitch: every axis a switch of 450 GB/s per direction "
        "per GPU (900 GB/s bidirectional), 3 us per step (an assumed per-message figure)",
        "https://www.nvidia.com/en-us/data-center/h100/ (NVLink: 900 GB/s per GPU)",
        Link(450e9, 3e-6, "switch")),
    "gpu-pcie": Topology(
        "gpu-pcie", "8 GPUs on PCIe 4.0 x16 without NVLink: every axis a switch of 32 GB/s per direction per GPU "
        "(16 GT/s x 16 lanes, 128b/130b), 10 us per step (an assumed figure through the host bridge)",
        "PCI Express Base Specification 4.0 (16 GT/s per lane)",
        Link(31.5e9, 10e-6, "switch")),
}
DEFAULT = "uniform"


def topology(name: str | Topology | None = None, *, bandwidth: dict[str, float] | None = None,
             latency: dict[str, float] | None = None, kind: dict[str, str] | None = None) -> Topology:
    """The preset ``name`` (``uniform`` when None; a ``Topology`` is taken as is) with per-axis
    ``bandwidth`` (bytes/s), ``latency`` (s) and ``kind`` overrides."""
    if isinstance(name, Topology):
        base = name
    else:
        key = DEFAULT if name is None else name
        if key not in PRESETS:
            raise TopologyError(f"unknown topology {key!r} (presets: {', '.join(PRESETS)})")
        base = PRESETS[key]
    if bandwidth or latency or kind:
        return base.with_axes(bandwidth, latency, kind)
    return base


# -- the alpha-beta formulas ---------------------------------------------------------------------

def _ring_steps(n: int, link: Link) -> int:
    return -(-(n - 1) // 2) if link.kind == "bidirectional-ring" else n - 1


def _ring_bandwidth(link: Link) -> float:
    return 2 * link.bandwidth if link.kind == "bidirectional-ring" else link.bandwidth


def gather_time(n: int, size: float, link: Link) -> float:
    """All-gather (or reduce-scatter) over ``n`` devices of ``size`` bytes per device (after the
    gather / before the scatter)."""
    if n <= 1:
        return 0.0
    return _ring_steps(n, link) * link.latency + (n - 1) / n * size / _ring_bandwidth(link)


def reduce_time(n: int, size: float, link: Link) -> float:
    """All-reduce of ``size`` bytes per device over ``n`` devices: a reduce-scatter and an all-gather."""
    return 2 * gather_time(n, size, link)


def all_to_all_time(n: int, size: float, link: Link) -> float:
    """All-to-all of ``size`` bytes per device over ``n`` devices."""
    if n <= 1:
        return 0.0
    if link.kind == "switch":
        return link.latency + (n - 1) / n * size / link.bandwidth
    if link.kind == "ring":
        return (n - 1) * link.latency + (n - 1) / 2 * size / link.bandwidth
    return (n // 2) * link.latency + (n * n // 4) / (2 * n) * size / link.bandwidth


def permute_time(size: float, link: Link) -> float:
    """A collective permute of ``size`` bytes per device: one message each."""
    return link.latency + size / link.bandwidth if size else 0.0


@dataclass(frozen=True)
class Stage:
    """One stage of a collective: over mesh axis ``axis`` (None: no axis known) of ``n`` devices, with
    ``size`` bytes per device as the formulas above read it, of ``step`` kind ``gather``,
    ``scatter``, ``reduce``, ``all_to_all`` or ``permute``."""

    step: str
    axis: str | None
    n: int
    size: int

    def time(self, topo: Topology) -> float:
        link = topo.link(self.axis)
        if self.step in ("gather", "scatter"):
            return gather_time(self.n, self.size, link)
        if self.step == "reduce":
            return reduce_time(self.n, self.size, link)
        if self.step == "all_to_all":
            return all_to_all_time(self.n, self.size, link)
        return permute_time(self.size, link)

    def bytes_sent(self) -> int:
        """Bytes one device sends in this stage (and receives: the algorithms are symmetric):
        a gather ``(n-1)`` chunks of ``size/n``, a scatter or an all-to-all ``(n-1)`` chunks of
        ``ceil(size/n)``, a reduce twice that, a permute the whole ``size``."""
        if self.step == "permute":
            return self.size
        if self.n <= 1:
            return 0
        chunk = -(-self.size // self.n)
        return (2 if self.step == "reduce" else 1) * (self.n - 1) * chunk


def stages_time(stages, topo: Topology) -> float:
    """The time of a collective run as ``stages`` on ``topo``."""
    return sum(s.time(topo) for s in stages)

"""Reports side by side: ``compare(a, b, ...)`` costs each module (or takes the ``CostReport``s
given) and says which is cheapest (by default by estimated communication time, then bytes sent,
then peak memory); ``compare_variants(module, specs)`` does it for variants of one module's user shardings
(``variants``), the module as written first."""
from __future__ import annotations

from dataclasses import dataclass

from shardy_py.cost.report import CostReport, cost
from shardy_py.cost.topologies import Topology
from shardy_py.ir.module import Module

COMPARE_VERSION = "shardy_py.cost.compare/1"
#: What "cheapest" means for each objective: the first of these totals that differs decides.
OBJECTIVES = {
    "time": ("time_s", "bytes_sent", "peak_bytes"),
    "bytes": ("bytes_sent", "time_s", "peak_bytes"),
    "peak": ("peak_bytes", "time_s", "bytes_sent"),
}


def report_key(report: CostReport, objective: str = "time") -> tuple:
    """The totals ``objective`` ranks ``report`` by."""
    return tuple(getattr(report, k) for k in OBJECTIVES[objective])


@dataclass
class Comparison:
    """Several ``CostReport``s of one program with their ``labels``; ``cheapest`` is the index of
    the cheapest by ``objective`` (``OBJECTIVES``; the first given on a tie)."""

    labels: list[str]
    reports: list[CostReport]
    objective: str = "time"

    def _key(self, i: int) -> tuple:
        return report_key(self.reports[i], self.objective), i

    @property
    def cheapest(self) -> int:
        return min(range(len(self.reports)), key=self._key)

    def ranking(self) -> list[int]:
        """Indices from cheapest to dearest."""
        return sorted(range(len(self.reports)), key=self._key)

    def verdict(self) -> str:
        """One sentence: which moves fewer bytes and which is faster."""
        best = self.cheapest
        r = self.reports[best]
        others = [i for i in range(len(self.reports)) if i != best]
        if all(self._key(i)[0] == self._key(best)[0] for i in others):
            return "all cost the same"
        from shardy_py.cost.render_text import format_time
        from shardy_py.show.dtypes import format_bytes

        parts = []
        for i in others:
            o = self.reports[i]
            parts.append(f"{self.labels[i]} ({format_bytes(o.bytes_sent)}, ~{format_time(o.time_s)})")
        return (f"cheapest: {self.labels[best]}: {format_bytes(r.bytes_sent)} sent per device, "
                f"~{format_time(r.time_s)}, peak {format_bytes(r.peak_bytes)}; against " + ", ".join(parts))

    def to_json(self, *, origins: bool = True) -> dict:
        return {"schema": COMPARE_VERSION, "cheapest": self.cheapest, "objective": self.objective,
                "order": list(OBJECTIVES[self.objective]),
                "ranking": self.ranking(),
                "variants": [{"label": label, "report": r.to_json(origins=origins)}
                             for label, r in zip(self.labels, self.reports, strict=True)]}

    def text(self, width: int | None = None, *, top: int | None = 5, origins: bool = True) -> str:
        from shardy_py.cost.render_compare import comparison_text

        return comparison_text(self, width=width, top=top, origins=origins)

    def __str__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        from shardy_py.cost.render_compare import comparison_html

        return comparison_html(self)


def _as_report(x, topology, label, pipeline_options) -> CostReport:
    if isinstance(x, CostReport):
        return x
    if not isinstance(x, Module):
        raise TypeError(f"compare takes Modules or CostReports, not {type(x).__name__}")
    return cost(x, topology, name=label, **pipeline_options)


def compare(*modules: Module | CostReport, topology: Topology | str | None = None, labels=None,
            objective: str = "time", **pipeline_options) -> Comparison:
    """Cost each of ``modules`` (two or more ``Module``s or ``CostReport``s) on ``topology`` and put
    them side by side; ``labels`` name them (default: their file names, else A, B, ...);
    ``objective`` (``time``, ``bytes``, ``peak``) says what cheapest means first."""
    if objective not in OBJECTIVES:
        raise ValueError(f"objective is one of {', '.join(OBJECTIVES)}, not {objective!r}")
    if len(modules) < 2:
        raise ValueError("compare needs two modules or more")
    names = list(labels) if labels is not None else [
        getattr(m, "filename", None) or getattr(m, "name", None) or chr(ord("A") + i) for i, m in enumerate(modules)]
    if len(set(names)) < len(names):
        names = [f"{chr(ord('A') + i)}: {n}" for i, n in enumerate(names)]
    reports = [_as_report(m, topology, n, pipeline_options) for m, n in zip(modules, names, strict=True)]
    return Comparison(names, reports, objective)


def compare_variants(module: Module, specs: list[str], *, topology: Topology | str | None = None,
                     include_original: bool = True, objective: str = "time", **pipeline_options) -> Comparison:
    """``compare`` of ``module`` as written (unless ``include_original`` is False) and of each
    variant spec of ``specs`` (``variants``)."""
    from shardy_py.cost.variants import apply_variant

    labels, modules = [], []
    if include_original:
        labels.append("as written")
        modules.append(module)
    for spec in specs:
        label, variant = apply_variant(module, spec)
        labels.append(label)
        modules.append(variant)
    return compare(*modules, topology=topology, labels=labels, objective=objective, **pipeline_options)

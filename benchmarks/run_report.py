"""benchmarks/run.py's report: the record of one measured module, the table, the ratios and the goals."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

MB = 1e6
GOAL_CPP_RATIO = 5.0        # our parse+verify+print within 5x of the C++'s
GOAL_XDSL_RATIO = 10.0      # xDSL parse+print at least 10x ours
GOAL_LINEARITY = 1.3        # per-op cost of the largest module within 1.3x of the smallest
GOAL_MEMORY = 10.0          # peak memory at most 10x the input size


@dataclass
class Subject:
    """One module to measure: a synthetic size or a given file, as text on disk."""

    label: str
    path: Path
    input_bytes: int
    requested_ops: int | None = None          # synthetic modules only
    ops: int | None = None
    ours: dict = field(default_factory=dict)
    cpp: dict = field(default_factory=dict)
    xdsl: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def synthetic(self) -> bool:
        return self.requested_ops is not None


# --------------------------------------------------------------------------------------------
# Reporting: the table, the ratios, the goals.
# --------------------------------------------------------------------------------------------

def _num(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def _mib(value: int | None) -> float | None:
    return None if value is None else value / MB


def phase_rows(s: Subject) -> list[list[str]]:
    """Table rows (engine, phase, s, MB/s, us/op, RSS MB, tracemalloc MB) for one subject."""
    rows = []
    ops = s.ops or 0

    def row(engine, phase, seconds, nbytes, rss=None, traced=None):
        rate = nbytes / MB / seconds if seconds else None
        per_op = seconds / ops * 1e6 if ops and seconds is not None else None
        rows.append([engine, phase, _num(seconds, ".3f"), _num(rate, ".2f"), _num(per_op, ".2f"),
                     _num(_mib(rss), ".1f"), _num(_mib(traced), ".1f")])

    def skipped(engine, info):
        s.notes.append(f"{engine}: {info['error']}" if "error" in info else f"{engine} skipped: {info['skipped']}")
        rows.append([engine, "failed, see notes" if "error" in info else "skipped, see notes", "", "", "", "", ""])

    ours, cpp, xdsl = s.ours, s.cpp, s.xdsl
    if "error" in ours:
        skipped("shardy_py", ours)
    else:
        rss, traced = ours["rss"], ours.get("tracemalloc") or {}
        row("shardy_py", "parse", ours["parse_s"], s.input_bytes, rss["parse"], traced.get("parse"))
        row("", "verify", ours["verify_s"], s.input_bytes, rss["verify"], traced.get("verify"))
        row("", "print", ours["print_s"], ours["output_bytes"], rss["print"], traced.get("print"))
        row("", "total", ours["total_s"], s.input_bytes, rss["peak"], traced.get("peak"))
        row("", "print generic", ours["print_generic_s"], ours["generic_bytes"])
    if not cpp or "error" in cpp:
        skipped("C++ Shardy", cpp or {"skipped": "jax is not installed"})
    else:
        row("C++ Shardy", "parse (+verify)", cpp["parse_s"], s.input_bytes)
        row("", "verify", cpp["verify_s"], s.input_bytes)
        row("", "print", cpp["print_s"], cpp["output_bytes"])
        row("", "total", cpp["total_s"], s.input_bytes)
        row("", "print generic", cpp["print_generic_s"], ours.get("generic_bytes", 0))
    if "parse_s" in xdsl:
        row("xDSL", "parse (generic)", xdsl["parse_s"], xdsl["input_bytes"])
        row("", "print (generic)", xdsl["print_s"], xdsl["output_bytes"])
        row("", "total", xdsl["total_s"], xdsl["input_bytes"])
    else:
        skipped("xDSL", xdsl)
    return rows


def _ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


def ratios(s: Subject, smallest: Subject | None) -> dict:
    """The goal ratios of one subject; None where a side was not measured."""
    ours, cpp, xdsl = s.ours, s.cpp, s.xdsl
    ours_pp = ours["parse_s"] + ours["print_s"] if "parse_s" in ours else None
    per_op = ours["total_s"] / s.ops if "total_s" in ours and s.ops else None
    base = smallest.ours["total_s"] / smallest.ops if smallest and "total_s" in smallest.ours else None
    traced = (ours.get("tracemalloc") or {}).get("peak")
    return {
        "ours_over_cpp": _ratio(ours.get("total_s"), cpp.get("total_s")),
        "ours_over_cpp_parse_print": _ratio(ours.get("total_s"),
                                            cpp["parse_s"] + cpp["print_s"] if "parse_s" in cpp else None),
        "xdsl_over_ours": _ratio(xdsl.get("total_s"), ours_pp),
        "generic_print_over_cpp": _ratio(ours.get("print_generic_s"), cpp.get("print_generic_s")),
        "per_op_over_smallest": _ratio(per_op, base),
        "rss_over_input": _ratio((ours.get("rss") or {}).get("peak"), s.input_bytes),
        "tracemalloc_over_input": _ratio(traced, s.input_bytes),
    }


def goals(subjects: list[Subject], table: dict[str, dict]) -> list[dict]:
    """The issue's goals, each on the module it is stated for (the largest/smallest measured)."""
    out = []

    def goal(text, subject, key, target, higher_is_better=False):
        value = table[subject.label][key]
        met = None if value is None else value >= target if higher_is_better else value <= target
        out.append({"goal": text, "module": subject.label, "measured": value,
                    "target": f"{'>=' if higher_is_better else '<='} {target:g}", "met": met})

    synth = [s for s in subjects if s.synthetic and "total_s" in s.ours]
    if synth:
        largest, smallest = max(synth, key=lambda s: s.ops), min(synth, key=lambda s: s.ops)
        with_xdsl = [s for s in synth if "total_s" in s.xdsl]
        goal("shardy_py / C++ parse+verify+print", largest, "ours_over_cpp", GOAL_CPP_RATIO)
        if with_xdsl:
            goal("xDSL / shardy_py parse+print", max(with_xdsl, key=lambda s: s.ops), "xdsl_over_ours",
                 GOAL_XDSL_RATIO, higher_is_better=True)
        if largest is not smallest:
            goal(f"shardy_py per-op cost vs {smallest.label}", largest, "per_op_over_smallest", GOAL_LINEARITY)
        goal("peak memory / input size (RSS)", largest, "rss_over_input", GOAL_MEMORY)
        goal("peak memory / input size (tracemalloc)", largest, "tracemalloc_over_input", GOAL_MEMORY)
    for s in subjects:
        if s.synthetic or "total_s" not in s.ours:
            continue
        goal("shardy_py / C++ parse+verify+print", s, "ours_over_cpp", GOAL_CPP_RATIO)
        goal("xDSL / shardy_py parse+print", s, "xdsl_over_ours", GOAL_XDSL_RATIO, higher_is_better=True)
        goal("peak memory / input size (tracemalloc)", s, "tracemalloc_over_input", GOAL_MEMORY)
    return out


def _print_table(header: list[str], rows: list[list[str]], align: str) -> None:
    """Columns sized to fit, aligned by ``align`` (one ``l`` or ``r`` per column)."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def fmt(r):
        cells = (c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(r, widths, align, strict=True))
        return "  ".join(cells).rstrip()

    print(fmt(header))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print(fmt(r))


def report(subjects: list[Subject], machine: dict) -> dict:
    """Print the table, the ratios and the goals; return everything for ``--json``."""
    print(f"\nmachine: {machine['cpus']} CPUs, load average {machine['load_before']} before and "
          f"{machine['load_after']} after the run; Python {machine['python']}; {machine['versions']}")
    rows = []
    for s in subjects:
        head = [s.label, _num(s.ops, "d"), f"{s.input_bytes / MB:.3f}"]
        for i, r in enumerate(phase_rows(s)):
            rows.append((head if i == 0 else ["", "", ""]) + r)
    print()
    _print_table(["module", "ops", "MB", "engine", "phase", "s", "MB/s", "us/op", "RSS MB", "tracemalloc MB"],
                 rows, align="lrrllrrrrr")
    print("\nMedian of the repeats; shardy_py memory: parse = peak with the module built, verify/print = extra "
          "on top, total = peak of the run.\nThe C++ parse already verifies (MLIR verifies after parsing); xDSL "
          "rates are on the generic form.")
    synth = [s for s in subjects if s.synthetic and "total_s" in s.ours]
    smallest = min(synth, key=lambda s: s.ops) if synth else None
    table = {s.label: ratios(s, smallest if s.synthetic else None) for s in subjects}
    print()
    _print_table(["module", "ours/C++ p+v+p", "ours/C++ one verify", "xDSL/ours p+p", "generic print ours/C++",
                  "per-op vs smallest", "RSS/input", "tracemalloc/input", "verifies clean", "prints back"],
                 [[s.label, *(_num(table[s.label][k], ".2f") for k in table[s.label]), _clean(s), _round_trip(s)]
                  for s in subjects], align="lrrrrrrrll")
    goal_rows = goals(subjects, table)
    print()
    if not goal_rows:
        print("goals: none measurable (shardy_py did not time any module)")
    else:
        _print_table(["goal", "module", "measured", "target", "met"],
                     [[g["goal"], g["module"], _num(g["measured"], ".2f"), g["target"],
                       "-" if g["met"] is None else "yes" if g["met"] else "NO"] for g in goal_rows], align="llrll")
    for s in subjects:
        for note in s.notes:
            print(f"note: {s.label}: {note}")
    return {"machine": machine, "goals": goal_rows,
            "modules": [{"label": s.label, "path": str(s.path) if not s.synthetic else None,
                         "requested_ops": s.requested_ops, "ops": s.ops, "input_bytes": s.input_bytes,
                         "shardy_py": s.ours, "cpp": s.cpp, "xdsl": s.xdsl, "ratios": table[s.label]}
                        for s in subjects]}


def _clean(s: Subject) -> str:
    count = s.ours.get("diagnostics")
    ours = "-" if count is None else "yes" if count == 0 else f"{count} errors"
    cpp = "-" if "verified" not in s.cpp else "yes" if s.cpp["verified"] else "no"
    return f"{ours} / {cpp}"


def _round_trip(s: Subject) -> str:
    def yn(d):
        return "-" if "round_trip" not in d else "same" if d["round_trip"] else "differs"
    return f"{yn(s.ours)} / {yn(s.cpp)}"


def problems(subjects: list[Subject]) -> list[str]:
    """What makes the run fail: parse errors, and synthetic modules that are not clean or canonical."""
    out = []
    for s in subjects:
        if "error" in s.ours:
            out.append(f"{s.label}: shardy_py: {s.ours['error']}")
            continue
        if not s.synthetic:
            continue
        if s.ours["diagnostics"]:
            out.append(f"{s.label}: the synthetic module does not verify clean: {s.ours['first_diagnostic']}")
        if not s.ours["round_trip"]:
            out.append(f"{s.label}: shardy_py does not print the synthetic module back byte-identical")
        if "error" in s.cpp:
            out.append(f"{s.label}: {s.cpp['error']}")
        elif s.cpp and not s.cpp["verified"]:
            out.append(f"{s.label}: the C++ Shardy does not verify the synthetic module: {s.cpp.get('first_error')}")
        elif s.cpp and not s.cpp["round_trip"]:
            out.append(f"{s.label}: the C++ Shardy does not print the synthetic module back byte-identical")
    return out


def versions(have_cpp: bool, have_xdsl: bool) -> str:
    """The versions of the other engines measured (or that they are absent), for the report."""
    from importlib.metadata import PackageNotFoundError, version

    parts = []
    for name, present in (("jaxlib", have_cpp), ("xdsl", have_xdsl)):
        try:
            parts.append(f"{name} {version(name)}" if present else f"{name} absent")
        except PackageNotFoundError:
            parts.append(f"{name} absent")
    return ", ".join(parts)

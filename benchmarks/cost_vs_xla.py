"""``shardy_py.cost`` against XLA (jax 0.12, 8 fake CPU devices) on JAX programs.

    python benchmarks/cost_vs_xla.py [--only NAME,...] [--json OUT] [--keep DIR]

For every program of ``cost_xla_worker.py`` (tests/data/jax_programs' and the MLPs, attentions,
embedding lookups, convolutions, scans and blocks it adds), XLA lowers and compiles it in a child
process and ``shardy_py.cost`` reads the sdy module JAX gave.  Three comparisons:

1. bytes: per-device argument and result bytes against ``compiled.memory_analysis()``'s
   ``argument_size_in_bytes`` / ``output_size_in_bytes``.  XLA's CPU output of several results (a
   token counts) is a tuple whose index table, 8 bytes per result, it counts too: ``expected outputs
   = results + 8 x results`` when there is more than one;
2. sdy collectives: XLA's own ``02.after_propagation.mlir`` dump (its Shardy pass, ``shardy-xla``)
   run through the C++ Shardy's explicit reshards and collectives (jaxlib's
   ``sdy-export-pipeline{enable-insert-explicit-collectives=true}``: XLA 0.12 itself inserts
   reshards only, ``03.after_partitioner_passes.mlir``, and lets its SPMD partitioner make the
   collectives) against ours, each as (kind, mesh axes, tensor type), as multisets (XLA's HLO round
   trip may reorder independent ops; ``same_order`` says whether the order is the same too);
3. compiled HLO: collectives per kind, count and bytes per device (the same formulas on XLA's
   shapes and replica groups), ours against ``compiled.as_text()``, each difference classified.

Then the seed scenario: the embedding lookup whose weights and indices are sharded on one axis, with
p0 on neither, the weights or the indices (compiled with ``--xla_enable_hlo_sharding_v3=false``:
XLA's V3 shardings drop priorities): which variant moves fewer bytes, ours and XLA's, and
``suggest``'s pick.  The last line on stdout is a JSON summary.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import numpy as np  # noqa: E402

import shardy_py  # noqa: E402
from shardy_py.cost.collectives import collectives, groups_to_axes  # noqa: E402
from shardy_py.cost.report import cost  # noqa: E402

WORKER = Path(__file__).resolve().parent / "cost_xla_worker.py"
FLAGS = "--xla_force_host_platform_device_count=8 --xla_dump_hlo_pass_re=shardy-xla"
CPP_PIPELINE = ("builtin.module(sdy-export-pipeline{enable-insert-explicit-collectives=true "
                "inline-meshes=false})")
#: XLA's CPU tuple index table: bytes per result when a program has several.
TUPLE_TABLE = 8


def run_worker(dump: str, *extra: str, flags: str = FLAGS) -> list[dict]:
    env = dict(os.environ, XLA_FLAGS=f"{flags} --xla_dump_to={dump}", JAX_PLATFORMS="cpu")
    out = subprocess.run([sys.executable, str(WORKER), dump, *extra], capture_output=True, text=True, env=env,
                         timeout=3600)
    if out.returncode != 0:
        raise SystemExit(f"the XLA worker failed:\n{out.stderr[-3000:]}")
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


# -- compiled HLO ---------------------------------------------------------------------------------

_HLO_BITS = {"pred": 8, "s2": 2, "u2": 2, "s4": 4, "u4": 4, "s8": 8, "u8": 8, "s16": 16, "u16": 16, "f16": 16,
             "bf16": 16, "s32": 32, "u32": 32, "f32": 32, "s64": 64, "u64": 64, "f64": 64, "c64": 64, "c128": 128,
             "f4e2m1fn": 4}
_SHAPE = re.compile(r"\b([a-z]\w*)\[([\d,]*)\]")
_LINE = re.compile(r"=\s*(\(.*?\)|\S+)\s+(all-gather|all-reduce|reduce-scatter|all-to-all|collective-permute|"
                   r"collective-broadcast)(-start)?\(")


def hlo_bytes(shape_text: str) -> int:
    """Bytes of an HLO shape (a tuple: the sum of its members)."""
    total = 0
    for dtype, dims in _SHAPE.findall(shape_text):
        bits = _HLO_BITS.get(dtype, 8)
        n = int(np.prod([int(d) for d in dims.split(",") if d])) if dims else 1
        total += -(-n * bits // 8) if bits < 8 else n * bits // 8
    return total


def _groups(line: str, mesh) -> tuple[int, tuple[str, ...] | None]:
    """``(group size, mesh axes)`` of an HLO collective's replica groups."""
    m = re.search(r"replica_groups=mesh\[([^\]]*)\]\s*\{([^}]*)\}", line)
    if m:
        sizes = {k: int(v) for k, v in re.findall(r"'([^']+)'=(\d+)", m.group(1))}
        refs = re.findall(r"'([^']+)'(?::\((\d+)\)(\d+))?", m.group(2))
        n = int(np.prod([int(sub) if sub else sizes.get(a, 1) for a, _pre, sub in refs]))
        return n, tuple(f"{a}:({pre}){sub}" if sub else a for a, pre, sub in refs)
    m = re.search(r"replica_groups=\[(\d+),(\d+)\]<=\[([\d,]+)\](?:T\(([\d,]+)\))?", line)
    if m:
        dims = [int(d) for d in m.group(3).split(",")]
        ids = np.arange(int(np.prod(dims))).reshape(dims)
        if m.group(4):
            ids = ids.transpose([int(p) for p in m.group(4).split(",")])
        groups = ids.reshape(int(m.group(1)), int(m.group(2))).tolist()
        return int(m.group(2)), groups_to_axes(groups, mesh) if mesh is not None else None
    m = re.search(r"replica_groups=\{(\{[\d,]*\}(?:,\{[\d,]*\})*)\}", line)
    if m:
        groups = [[int(x) for x in g.split(",") if x] for g in re.findall(r"\{([\d,]*)\}", m.group(1))]
        return max(len(g) for g in groups), groups_to_axes(groups, mesh) if mesh is not None else None
    m = re.search(r"source_target_pairs=\{(.*?)\}\}", line)
    if m:
        return 2, None
    return 1, None


def hlo_collectives(hlo: str, mesh) -> list[dict]:
    """Every collective of a compiled HLO text: kind, group size, axes and bytes sent per device."""
    out = []
    for line in hlo.splitlines():
        m = _LINE.search(line)
        if m is None:
            continue
        shape, kind = m.group(1), m.group(2).replace("-", "_")
        if m.group(3):  # an async start: its tuple ends with the result
            members = _SHAPE.findall(shape)
            shape = f"{members[-1][0]}[{members[-1][1]}]" if members else shape
        size = hlo_bytes(shape)
        n, axes = _groups(line, mesh)
        if kind == "all_gather":
            sent = (n - 1) * size // n
        elif kind == "reduce_scatter":
            sent = (n - 1) * size
        elif kind == "all_reduce":
            sent = 2 * (n - 1) * -(-size // n)
        elif kind == "all_to_all":
            sent = (n - 1) * -(-size // n)
        else:
            sent = size
        out.append({"kind": kind, "group_size": n, "axes": list(axes) if axes else None, "bytes": sent})
    return out


def summarise(items) -> dict:
    """kind -> [count, bytes]."""
    out: dict[str, list[int]] = {}
    for kind, sent in items:
        entry = out.setdefault(kind, [0, 0])
        entry[0] += 1
        entry[1] += sent
    return out


def classify(ours: dict, xla: dict) -> str:
    """How XLA's compiled collectives differ from ours (kind -> [count, bytes] on each side): every
    rule that holds, most specific first."""
    if ours == xla:
        return "equal"
    bytes_of = lambda s: sum(b for _, b in s.values())  # noqa: E731
    count_of = lambda s: sum(c for c, _ in s.values())  # noqa: E731
    if set(ours) == set(xla) and all(ours[k][1] == xla[k][1] for k in ours):
        return "combined by XLA (fewer ops, same bytes)" if count_of(xla) < count_of(ours) else \
            "split by XLA (more ops, same bytes)"
    labels = []
    if "reshard" in ours:
        labels.append("a reshard between meshes (XLA gathers to and from the one device)")
    if "reduce_scatter" in ours and "reduce_scatter" not in xla and "all_reduce" in xla:
        labels.append("XLA all-reduces where Shardy reduce-scatters")
    if "collective_permute" in xla and "collective_permute" not in ours:
        labels.append("XLA adds collective-permutes (halo exchange, device reorder)")
    if "all_to_all" in xla and "all_to_all" not in ours:
        labels.append("XLA uses an all-to-all")
    mine, theirs = bytes_of(ours), bytes_of(xla)
    if theirs != mine:
        labels.append(f"XLA's partitioner moves {'more' if theirs > mine else 'fewer'} bytes")
    else:
        labels.append("other kinds, same bytes")
    return "; ".join(labels)


# -- one program ----------------------------------------------------------------------------------

def _program_mesh(module):
    meshes = [m for m in module.meshes.values() if not m.is_maximal]
    return meshes[0] if meshes else None


def _sdy_signature(module) -> list[tuple]:
    return [(c.kind, tuple(c.axes), c.tensor_type) for c in collectives(module)]


def compare_program(row: dict, cpp_worker) -> dict:
    name = row["name"]
    out = {"name": name}
    if "error" in row:
        out["error"] = row["error"]
        return out
    module = shardy_py.parse(row["sdy"], name)
    report = cost(module)
    results = report.results_bytes
    n = len(report.entry_function.results) if report.entry_function is not None else row["n_outputs"]
    expected_outputs = results + (TUPLE_TABLE * n if n > 1 else 0)
    out.update(arguments=[report.arguments_bytes, row["arguments"]], outputs=[results, expected_outputs,
                                                                           row["outputs"]])
    out["bytes_equal"] = report.arguments_bytes == row["arguments"] and expected_outputs == row["outputs"]
    ours_sdy = _sdy_signature(report.module)
    out["sdy"] = {"ours": len(ours_sdy)}
    if row.get("after_propagation"):
        answer = cpp_worker.call("module", text=row["after_propagation"], pipeline=CPP_PIPELINE, verify=False)
        if answer.get("ok"):
            theirs = _sdy_signature(shardy_py.parse(answer["pretty"]))
            out["sdy"].update(xla=len(theirs), equal=sorted(theirs) == sorted(ours_sdy),
                              same_order=theirs == ours_sdy,
                              ours_list=[list(map(str, x)) for x in ours_sdy],
                              xla_list=[list(map(str, x)) for x in theirs])
        else:
            out["sdy"].update(xla=None, equal=None, error=str(answer)[:300])
    else:
        out["sdy"].update(xla=None, equal=None, note="one device: XLA runs no Shardy pass")
    mesh = _program_mesh(report.module)
    xla_items = hlo_collectives(row["hlo"], mesh)
    ours_sum = summarise((c.kind, c.bytes_sent) for c in report.collectives if c.kind != "all_slice")
    xla_sum = summarise((c["kind"], c["bytes"]) for c in xla_items)
    out["hlo"] = {"ours": ours_sum, "xla": xla_sum, "class": classify(ours_sum, xla_sum)}
    return out


def seed(dump: str) -> dict:
    """The seed scenario: ours and XLA's bytes per priority variant, and suggest's pick."""
    from shardy_py.cost.search import suggest

    rows = run_worker(dump, "--seed", flags=FLAGS + " --xla_enable_hlo_sharding_v3=false")
    out = {}
    for row in rows:
        module = shardy_py.parse(row["sdy"], row["name"])
        report = cost(module)
        xla = hlo_collectives(row["hlo"], _program_mesh(report.module))
        out[row["name"]] = {"ours_bytes": report.bytes_sent, "xla_bytes": sum(c["bytes"] for c in xla),
                            "ours": [c.kind for c in report.collectives], "xla": [c["kind"] for c in xla]}
    base = shardy_py.parse(next(r for r in rows if r["name"] == "seed/p0-indices")["sdy"], "seed")
    pick = suggest(base)
    out["suggest"] = {"best": pick.best.label, "bytes": pick.best.report.bytes_sent,
                      "candidates": [(c.label, c.report.bytes_sent) for c in pick.candidates]}
    order = lambda key: sorted((k for k in out if k.startswith("seed/")), key=lambda k: (out[k][key], k))  # noqa: E731
    out["ours_order"], out["xla_order"] = order("ours_bytes"), order("xla_bytes")
    return out


def table(results: list[dict]) -> str:
    lines = ["| program | args ours / XLA | outputs ours (+table) / XLA | sdy collectives ours / XLA | "
             "compiled collectives ours | XLA | class |", "|---|---|---|---|---|---|---|"]

    def fmt(s: dict) -> str:
        return ", ".join(f"{k} {c}x {b} B" for k, (c, b) in sorted(s.items())) or "none"

    for r in results:
        if "error" in r:
            lines.append(f"| {r['name']} | error: {r['error'][:60]} | | | | | |")
            continue
        sdy = r["sdy"]
        sdy_text = f"{sdy['ours']} / {sdy['xla']}" + (" equal" if sdy.get("equal") else
                                                       " DIFFER" if sdy.get("equal") is False else "")
        lines.append(f"| {r['name']} | {r['arguments'][0]} / {r['arguments'][1]} | {r['outputs'][0]} "
                     f"({r['outputs'][1]}) / {r['outputs'][2]} | {sdy_text} | {fmt(r['hlo']['ours'])} | "
                     f"{fmt(r['hlo']['xla'])} | {r['hlo']['class']} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default="", help="comma-separated program names")
    ap.add_argument("--json", help="write every result here")
    ap.add_argument("--keep", help="keep XLA's dumps in this directory")
    ap.add_argument("--no-seed", action="store_true", help="skip the seed scenario")
    args = ap.parse_args()
    from jaxlib_worker import JaxlibWorker

    dump = args.keep or tempfile.mkdtemp(prefix="cost_vs_xla_")
    extra = ["--only", args.only] if args.only else []
    rows = run_worker(dump, *extra)
    worker = JaxlibWorker()
    results = [compare_program(row, worker) for row in rows]
    print(table(results))
    ok = [r for r in results if "error" not in r]
    summary = {
        "programs": len(results), "errors": len(results) - len(ok),
        "bytes_equal": sum(r["bytes_equal"] for r in ok),
        "bytes_differ": [r["name"] for r in ok if not r["bytes_equal"]],
        "sdy_compared": sum(r["sdy"].get("equal") is not None for r in ok),
        "sdy_equal": sum(bool(r["sdy"].get("equal")) for r in ok),
        "sdy_differ": [r["name"] for r in ok if r["sdy"].get("equal") is False],
        "hlo_classes": Counter(r["hlo"]["class"] for r in ok),
    }
    if not args.no_seed and not args.only:
        summary["seed"] = seed(tempfile.mkdtemp(prefix="cost_vs_xla_seed_"))
        print(json.dumps(summary["seed"], indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps({"results": results, "summary": summary}, indent=1))
    print(json.dumps(summary))


if __name__ == "__main__":
    main()

"""Long differential run against the C++ Shardy in jaxlib, outside pytest.

    python benchmarks/differential_long.py --cases 100000 [--invalid-share 0.2] [--reduction-share 0.15]
        [--attribute-share 0.15] [--seed 0] [--out DIR]

Draws inputs from ``shardy_py.strategies``, runs each through jaxlib's C++ Shardy and through
shardy_py, and counts disagreements, per kind of input:

* ``valid``: ``module_texts()``; both accept and print the same text;
* ``reductions``: ``module_texts(reductions=REDUCTIONS)`` (``max``/``min`` unreduced axes,
  all-reduces and reduce-scatters, which jaxlib 0.12 knows); both accept and print the same text;
* ``invalid_modules``: ``invalid_modules()``; both reject, first error on the named line, the C++
  message is the named rule's;
* ``invalid_attributes``: ``invalid_meshes()``, ``invalid_tensor_shardings()`` and
  ``invalid_op_sharding_rules()`` in their modules; as for invalid modules.

Disagreeing inputs are written to ``--out``.  Progress lines go to stderr; the final line is a
JSON summary.  The restrictions are those of ``tests/test_differential_cpp.py``.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from test_differential_cpp import (  # noqa: E402
    CPP_MESSAGES,
    Cpp,
    first_error_line,
    first_error_message,
    ours,
)

from shardy_py import strategies as sst  # noqa: E402

KINDS = ("valid", "reductions", "invalid_modules", "invalid_attributes")


@st.composite
def invalid_attributes(draw) -> sst.InvalidAttribute:
    """One of the three attribute-level invalid draws, in its module."""
    which = draw(st.sampled_from(["mesh", "sharding", "rule"]))
    if which == "mesh":
        return draw(sst.invalid_meshes())
    if which == "sharding":
        mesh = draw(sst.meshes())
        return draw(sst.invalid_tensor_shardings(mesh, draw(st.integers(0, 3)),
                                                 mesh_ref=draw(st.sampled_from(["m", None]))))
    ins = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3))
    outs = draw(st.lists(st.integers(0, 3), min_size=1, max_size=2))
    return draw(sst.invalid_op_sharding_rules(ins, outs))


class Run:
    """Counts and disagreements of one long run."""

    def __init__(self, out: Path) -> None:
        self.cpp = Cpp()
        self.out = out
        self.stats = {"cases": 0, "disagreements": 0, **{k: 0 for k in KINDS}}

    def record(self, kind: str, text: str, detail: str) -> None:
        self.stats["disagreements"] += 1
        (self.out / f"{kind}-{self.stats['cases']}.mlir").write_text(text + "\n// " + detail.replace("\n", "\n// "))

    def count(self, kind: str) -> None:
        self.stats["cases"] += 1
        self.stats[kind] += 1

    def valid(self, text: str) -> None:
        self.count("valid")
        ok, printed = self.cpp.module(text)
        mine_ok, mine = ours(text)
        if not ok or not mine_ok or mine != printed:
            self.record("valid", text, f"cpp={ok} ours={mine_ok}\n{printed}\n---\n{mine}")

    def reductions(self, text: str) -> None:
        self.count("reductions")
        ok, printed = self.cpp.module(text)
        mine_ok, mine = ours(text)
        if not ok or not mine_ok or mine != printed:
            self.record("reductions", text, f"cpp={ok} ours={mine_ok}\n{printed}\n---\n{mine}")

    def rejected(self, kind: str, text: str, rule: str, line: int) -> None:
        self.count(kind)
        ok, message = self.cpp.module(text)
        mine_ok, mine = ours(text)
        mine_line = re.match(r"(\d+):", mine)
        agree = (not ok and not mine_ok and first_error_line(message) == line
                 and re.search(CPP_MESSAGES[rule], first_error_message(message))
                 and mine_line is not None and int(mine_line.group(1)) == line)
        if not agree:
            self.record(kind, text, f"{rule} line {line}: cpp={ok} ours={mine_ok}\n{message}\n{mine}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", type=int, default=100_000)
    ap.add_argument("--invalid-share", type=float, default=0.2)
    ap.add_argument("--reduction-share", type=float, default=0.15)
    ap.add_argument("--attribute-share", type=float, default=0.15)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--batch", type=int, default=2000, help="examples per hypothesis run")
    ap.add_argument("--out", default="/tmp/differential_long")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    run = Run(out)
    t0 = time.time()
    rnd = random.Random(args.seed)
    cfg = settings(database=None, deadline=None, phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    plans = [
        (args.reduction_share, sst.module_texts(reductions=sst.REDUCTIONS), run.reductions),
        (args.invalid_share, sst.invalid_modules(), lambda b: run.rejected("invalid_modules", b.text, b.rule, b.line)),
        (args.attribute_share, invalid_attributes(),
         lambda b: run.rejected("invalid_attributes", b.module, b.rule, b.line)),
    ]
    while run.stats["cases"] < args.cases:
        n = min(args.batch, args.cases - run.stats["cases"])
        s = rnd.getrandbits(64)
        rest = n
        for i, (share, strategy, check) in enumerate(plans):
            k = int(n * share)
            rest -= k
            if k:
                seed(s + i + 1)(settings(cfg, max_examples=k)(given(strategy)(check)))()
        if rest:
            seed(s)(settings(cfg, max_examples=rest)(given(sst.module_texts())(run.valid)))()
        el = time.time() - t0
        print(f"{run.stats} {el:.0f}s {run.stats['cases'] / el:.1f} cases/s", file=sys.stderr, flush=True)
    run.stats["seconds"] = round(time.time() - t0, 1)
    print(json.dumps(run.stats))


if __name__ == "__main__":
    main()

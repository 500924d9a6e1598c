"""Differential run of ``-sdy-populate-op-sharding-rules`` against the C++ Shardy in jaxlib 0.12.

    python benchmarks/differential_rules.py [--drawn 500] [--modules 500] [--seed 0]
        [--parts registry,corpus,programs,drawn,modules] [--out DIR]

Every input goes through jaxlib (a capped subprocess, restarted when 0.12 segfaults) and through
shardy_py, normally and with ``conservative-propagation=true``; the printed modules must be equal.

* ``registry``: Shardy's ``op_sharding_rule_registry.mlir`` and ``..._conservative.mlir``: the
  rules (one per op that gets one, in print order) equal and different, and whole modules.
* ``corpus``: every ``// -----`` chunk of the StableHLO test corpus (``$SHARDY_CONFORMANCE/stablehlo``);
  what is skipped and why is ``rules_oracle.corpus_differences``'s.
* ``programs``: the JAX programs of tests/data/jax_programs/programs.py, lowered with the installed
  jax, and those of tests/test_rules_part2_differential.py.
* ``drawn``: ``--drawn`` ops from each strategy of the tests/test_rules_drawn_*.py tests.
* ``modules``: ``--modules`` modules from ``shardy_py.strategies.module_texts()``.

Per part and mode: ``equal`` and ``different``, and inputs not compared: ``jaxlib_crashed``,
``jaxlib_rejects`` (jaxlib does not read or verify it), ``print_differs`` (our plain print is not
MLIR's, so a difference would be the printer's).  Where jaxlib's pass fails, ours must fail too
(that counts as ``equal``).  Differing inputs are written to ``--out``.  The last stdout line is
a JSON summary.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from cpp_oracle import FAILED, lower_programs, ours  # noqa: E402
from rules_oracle import corpus_differences, jaxlib_crashed, jaxlib_populate_all, populate_flag  # noqa: E402

import shardy_py  # noqa: E402

PARTS = ("registry", "corpus", "programs", "drawn", "modules")
REGISTRY = "transforms/propagation/test"
DRAWN_TESTS = ("test_rules_drawn_context", "test_rules_drawn_gather_scatter", "test_rules_drawn_misc",
               "test_rules_drawn_ops", "test_rules_drawn_pointwise", "test_rules_drawn_windows")


def compare(texts: list[str], counts: Counter, different: list[tuple[str, str]], label: str) -> None:
    """Each text through both sides, both modes, counted into ``counts``."""
    for text, want in zip(texts, jaxlib_populate_all(texts), strict=True):
        if jaxlib_crashed(want):
            counts["jaxlib_crashed"] += 1
            continue
        if "plain" not in want:
            counts["jaxlib_rejects"] += 1
            continue
        try:
            same_print = str(shardy_py.parse(text)) == want["plain"]
        except Exception:  # noqa: BLE001 - an input we cannot read is a difference to look at
            same_print = False
        if not same_print:
            counts["print_differs"] += 1
            continue
        for conservative in (False, True):
            mode = "conservative" if conservative else "normal"
            if ours(text, populate_flag(conservative)[1:]) == want.get(conservative, FAILED):
                counts[f"{mode}_equal"] += 1
            else:
                counts[f"{mode}_different"] += 1
                different.append((f"{label} {mode}", text))


def registry_part(conformance: Path, counts: Counter, different: list) -> None:
    """Shardy's rule-registry tests: rules one by one and whole modules."""
    for file, conservative in (("op_sharding_rule_registry.mlir", False),
                               ("op_sharding_rule_registry_conservative.mlir", True)):
        text = (conformance / REGISTRY / file).read_text()
        want = jaxlib_populate_all([text])[0][conservative]
        got = ours(text, populate_flag(conservative)[1:])

        def rules(module: str) -> list[str]:
            return [line.strip() for line in module.splitlines() if "sdy.sharding_rule" in line]

        pairs = list(zip(rules(want), rules(got), strict=True))
        counts[f"{file}:rules"] += len(pairs)
        counts[f"{file}:rules_equal"] += sum(a == b for a, b in pairs)
        counts[f"{file}:module_equal"] += want == got
        if want != got:
            different.append((file, text))


def drawn_texts(strategy, count: int, seed: int) -> list[str]:
    """``count`` examples of ``strategy``."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as hypothesis_seed

    out: list[str] = []

    @hypothesis_seed(seed)
    @settings(max_examples=count, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(text):
        out.append(text)

    collect()
    return out


def drawn_strategies():
    """``(test name, strategy)`` of every drawn rule test."""
    for module_name in DRAWN_TESTS:
        module = importlib.import_module(module_name)
        for name in sorted(dir(module)):
            handle = getattr(getattr(module, name), "hypothesis", None)
            if name.startswith("test_") and handle is not None:
                yield name, handle._given_kwargs["text"]


def program_texts() -> list[str]:
    """The JAX programs, lowered here."""
    texts = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in sorted(lower_programs(Path(tmp)).glob("*.mlir")):
            texts.append(path.read_text())
    import test_rules_part2_differential as part2

    texts += [part2.lower(name) for name in sorted(part2.PROGRAMS)]
    return texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--drawn", type=int, default=200, help="examples per drawn-op strategy")
    parser.add_argument("--modules", type=int, default=200, help="drawn modules")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--parts", default=",".join(PARTS))
    parser.add_argument("--out", type=Path, default=Path("differential_rules_out"))
    args = parser.parse_args()
    conformance = Path(os.environ.get("SHARDY_CONFORMANCE", ROOT.parent / "shared" / "conformance"))
    summary: dict[str, dict] = {}
    different: list[tuple[str, str]] = []
    for part in args.parts.split(","):
        counts: Counter = Counter()
        if part == "registry":
            registry_part(conformance, counts, different)
        elif part == "corpus":
            from conftest import corpus_chunks

            chunk_counts, chunk_different = corpus_differences(corpus_chunks(conformance / "stablehlo"))
            counts.update(chunk_counts)
            counts["different"] = len(chunk_different)
            different += [(f"corpus {mode}", text) for mode, text in chunk_different]
        elif part == "programs":
            compare(program_texts(), counts, different, "program")
        elif part == "drawn":
            for name, strategy in drawn_strategies():
                per_test: Counter = Counter()
                compare(drawn_texts(strategy, args.drawn, args.seed), per_test, different, name)
                print(name, dict(per_test), file=sys.stderr, flush=True)
                counts.update(per_test)
        elif part == "modules":
            from shardy_py import strategies

            compare(drawn_texts(strategies.module_texts(), args.modules, args.seed), counts, different, "module")
        else:
            parser.error(f"unknown part {part!r}")
        summary[part] = dict(counts)
        print(part, dict(counts), file=sys.stderr, flush=True)
    if different:
        args.out.mkdir(parents=True, exist_ok=True)
        for i, (label, text) in enumerate(different):
            (args.out / f"{i:04d}.mlir").write_text(f"// {label}\n{text}")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()

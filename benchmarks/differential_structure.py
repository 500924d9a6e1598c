"""Differential mutant fuzzing of parse + verify against jaxlib's MLIR parser and verifier.

    python benchmarks/differential_structure.py --cases 100000 --seed 0 --out /tmp/dstruct.jsonl
    python benchmarks/differential_structure.py --cases 2000 --jax-programs /tmp/jax_programs
    python benchmarks/differential_structure.py --cases 2000 --corpus .ci/fuzz-corpus

Seeds are real modules that jaxlib accepts: Shardy's test chunks (``$SHARDY_CONFORMANCE/ir`` and
``transforms``), StableHLO's (``$SHARDY_CONFORMANCE/stablehlo/tests``) and, with
``--jax-programs DIR``, the JAX programs of tests/data/jax_programs lowered into DIR, and with
``--corpus DIR`` the inputs of a fuzzing corpus (tests/fuzz_parse.py's) that both sides accept. Each mutant
changes one thing of a seed: deletes, duplicates or swaps a line, renames a value use, changes a
type, cuts a line, changes a number (a dimension), renames an op. Both sides judge it: jaxlib
(``ir.Module.parse``, which verifies, in a worker subprocess since jaxlib can crash) and
shardy_py (``parse`` then ``verify``). They must give the same verdict (accept/reject) and,
where both reject, the first error on the same line.

A disagreement is counted in a category: ``unregistered_dialect`` when jaxlib rejects a dialect it
does not register (we keep unknown dialects as written, by design); ``stablehlo_op_verifier`` when
a side's message, not one of MLIR's structural ones, is a StableHLO/CHLO op verifier's or type
inference's (``'stablehlo.add' op ...``, or jaxlib's message on a line of a stablehlo/chlo op: the
op-verifier work of issue 26 item 2); ``sdy_verifier`` likewise for sdy ops (the sdy rules of
jaxlib 0.12, issue 21); ``stablehlo_attribute_syntax`` when jaxlib's StableHLO/CHLO attribute parser
rejects a mnemonic or keyword (we keep those attributes as written); ``syntax_error_line`` when both
reject text that is not MLIR (a torn type, a cut line) on different lines; ``named_location`` when
both reject and jaxlib places its error at the op's own ``loc(...)`` (a JAX program's source
location), not at a line of the text; else ``structure``.
Two kinds are pinned, not counted as disagreements: ``named_location`` (jaxlib's error is placed at
the op's own ``loc(...)``, a source location of the JAX program, which is no line of the text to
compare; its message is compared instead, and those whose message is jaxlib's word for word are counted
as ``named_location_same_message`` too) and ``annotated_invalid_seed`` (a seed jaxlib 0.12 accepts that
Shardy's test file at ``SHARDY_COMMIT`` annotates ``expected-error`` on the line we reject it at: checks
newer than jaxlib 0.12's Shardy, which the conformance ``reject`` row requires; such seeds are not mutated).
``--out`` writes every disagreement (seed, mutation, text, both verdicts) as JSON lines. Exit
status 1 when any disagreement but the pinned ones, or an internal error of ours, was found.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from differential_propagation import Jaxlib as _Worker  # noqa: E402

SPLIT = re.compile(r"^// -----.*$", re.M)
_ERROR = re.compile(r'error: "-":(\d+):(\d+): (.*)')
_VALUE = re.compile(r"%[\w$.-]+(?:#\d+)?")
_TENSOR = re.compile(r"tensor<([^<>]*)>")
_NUMBER_IN_LIST = re.compile(r"(?<=[\[, ])\d+(?=[\],])")
_OP_NAME = re.compile(r"\b(stablehlo|sdy|func|chlo)\.[a-z_]+\b")
_ELEMENT_TYPES = ("f32", "i32", "f16", "bf16", "i1", "i64", "f64", "ui8")
OP_CATEGORY = "stablehlo_op_verifier"
DIALECT_CATEGORY = "unregistered_dialect"
STRUCTURE_CATEGORY = "structure"
SYNTAX_CATEGORY = "syntax_error_line"
SDY_CATEGORY = "sdy_verifier"
NAMED_LOCATION_CATEGORY = "named_location"
#: Of the ``named_location`` ones, those whose message is jaxlib's word for word (counted apart, pinned the same).
NAMED_SAME_MESSAGE = "named_location_same_message"
#: Of the mutants both reject on the same line (agreeing), those at jaxlib's column / with jaxlib's message too.
SAME_LINE_SAME_COLUMN = "same_line_same_column"
SAME_LINE_SAME_MESSAGE = "same_line_same_message"
ANNOTATED_SEED_CATEGORY = "annotated_invalid_seed"
#: Kinds that are not disagreements of ours (see the module docstring).
PINNED = frozenset({NAMED_LOCATION_CATEGORY, ANNOTATED_SEED_CATEGORY})
_EXPECTED_ERROR = re.compile(r"//\s*expected-error\s*(@[+-]\d+|@above|@below)?")
DIALECT_ATTR_CATEGORY = "stablehlo_attribute_syntax"
#: The StableHLO/CHLO dialects' own attribute and type parsers (their mnemonics and keywords), which
#: keep such attributes as written text here.
_DIALECT_ATTR_MESSAGE = re.compile(r"unknown (StableHLO|CHLO|stablehlo|chlo) (attribute|type)|expected one of: `|"
                                   r"expected '(lhs|rhs)_precision_type'")
#: MLIR's own structural messages (this script's subject): never put in another category.
_CORE_MESSAGE = re.compile(r"use of undeclared|redefinition of|expects different type than prior|does not dominate|"
                           r"defined outside the region|region entry argument|block with no terminator|"
                           r"must be the last operation|is unknown|unregistered operation|invalid result number|"
                           r"definition of SSA value|does not reference a valid|'func\.|expects parent op|"
                           r"result number not allowed|operation defines|invalid block name|empty block")
#: MLIR's messages for text that is not MLIR at all (a cut line, a torn type): both sides reject
#: it; where the first bad token is found depends on the parser's exact token order.
_SYNTAX_MESSAGE = re.compile(r"expected |unbalanced |unexpected |custom op '[^']*' (expected|is unknown \(tried)|"
                             r"undefined symbol alias|unknown (stablehlo|chlo) (type|attribute)|"
                             r"unknown (StableHLO|CHLO) attribute|dialect '.*' provided no|"
                             r"operation name .* is not|invalid|unterminated")
_OP_MESSAGE = re.compile(r"'(stablehlo|chlo)\.[\w.]+' op |^op |inferred type|requires the same|"
                         r"^'(stablehlo|chlo)\.")


# -- seeds ------------------------------------------------------------------------------------------

def chunks(path: Path) -> list[str]:
    """The ``// -----`` chunks of an .mlir file (as ``-split-input-file`` cuts them)."""
    return [c for c in SPLIT.split(path.read_text(errors="replace")) if c.strip()]


def seed_texts(conformance: Path | None, jax_programs: Path | None = None,
               corpus: Path | None = None) -> list[tuple[str, str]]:
    """(label, text) of every candidate seed, in a fixed order: conformance chunks, lowered JAX programs,
    then the inputs of a fuzzing corpus (``corpus``: every file that is UTF-8 text under 20,000
    characters; the run keeps only those both sides accept)."""
    out: list[tuple[str, str]] = []
    if conformance is not None:
        for sub in ("ir", "transforms", "stablehlo/tests"):
            root = conformance / sub
            for path in sorted(root.rglob("*.mlir")) if root.is_dir() else ():
                if "interpret" in path.parts:
                    continue
                for i, text in enumerate(chunks(path)):
                    if len(text) < 20000:
                        out.append((f"{path.relative_to(conformance)}#{i}", text))
    if jax_programs is not None and jax_programs.is_dir():
        for path in sorted(jax_programs.glob("*.mlir")):
            out.append((f"jax:{path.name}", path.read_text()))
    if corpus is not None and corpus.is_dir():
        for path in sorted(p for p in corpus.iterdir() if p.is_file()):
            try:
                text = path.read_bytes().decode()
            except UnicodeDecodeError:
                continue
            if len(text) < 20000 and "\0" not in text:
                out.append((f"corpus:{path.name}", text))
    return out


# -- mutations ---------------------------------------------------------------------------------------

def _op_lines(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if "%" in line and "=" in line and not line.lstrip().startswith("//")]


def _body_lines(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("//")]


def delete_line(text: str, rng: random.Random) -> str | None:
    lines = text.split("\n")
    cand = _op_lines(lines) or _body_lines(lines)
    if not cand:
        return None
    del lines[rng.choice(cand)]
    return "\n".join(lines)


def duplicate_line(text: str, rng: random.Random) -> str | None:
    lines = text.split("\n")
    cand = _op_lines(lines)
    if not cand:
        return None
    i = rng.choice(cand)
    lines.insert(i + 1, lines[i])
    return "\n".join(lines)


def swap_lines(text: str, rng: random.Random) -> str | None:
    lines = text.split("\n")
    cand = _body_lines(lines)
    if len(cand) < 2:
        return None
    k = rng.randrange(len(cand) - 1)
    a, b = cand[k], cand[k + 1]
    lines[a], lines[b] = lines[b], lines[a]
    return "\n".join(lines)


def cut_line(text: str, rng: random.Random) -> str | None:
    lines = text.split("\n")
    cand = _body_lines(lines)
    if not cand:
        return None
    i = rng.choice(cand)
    line = lines[i]
    lines[i] = line[:rng.randrange(len(line))]
    return "\n".join(lines)


def rename_value(text: str, rng: random.Random) -> str | None:
    uses = list(_VALUE.finditer(text))
    if not uses:
        return None
    m = rng.choice(uses)
    names = sorted({u.group() for u in uses} - {m.group()})
    new = rng.choice(names) if names and rng.random() < 0.7 else rng.choice(("%zz", "%0#1", "%arg9", "%c"))
    return text[:m.start()] + new + text[m.end():]


def change_type(text: str, rng: random.Random) -> str | None:
    types = list(_TENSOR.finditer(text))
    if not types:
        return None
    m = rng.choice(types)
    parts = m.group(1).split("x")
    choice = rng.random()
    dims = [k for k, p in enumerate(parts[:-1]) if p.isdigit()]
    if choice < 0.4 or not dims:
        parts[-1] = rng.choice([t for t in _ELEMENT_TYPES if t != parts[-1]])
    elif choice < 0.8:
        k = rng.choice(dims)
        parts[k] = str(int(parts[k]) + rng.choice((1, -1, 2)) if int(parts[k]) > 1 else 2)
    else:
        del parts[rng.choice(dims)]
    return text[:m.start()] + "tensor<" + "x".join(parts) + ">" + text[m.end():]


def change_number(text: str, rng: random.Random) -> str | None:
    nums = list(_NUMBER_IN_LIST.finditer(text))
    if not nums:
        return None
    m = rng.choice(nums)
    value = int(m.group())
    new = str(max(0, value + rng.choice((1, -1, 2, 5))))
    return text[:m.start()] + new + text[m.end():]


def rename_op(text: str, rng: random.Random) -> str | None:
    ops = list(_OP_NAME.finditer(text))
    if not ops:
        return None
    m = rng.choice(ops)
    others = sorted({o.group() for o in ops if o.group(1) == m.group(1)} - {m.group()})
    new = rng.choice(others) if others and rng.random() < 0.7 else f"{m.group(1)}.frobnicate"
    return text[:m.start()] + new + text[m.end():]


MUTATIONS = {f.__name__: f for f in (delete_line, duplicate_line, swap_lines, cut_line, rename_value,
                                     change_type, change_number, rename_op)}


def mutate(text: str, rng: random.Random) -> tuple[str, str] | None:
    """(mutation name, mutant) of ``text``, or None when the drawn mutation does not apply."""
    name = rng.choice(sorted(MUTATIONS))
    out = MUTATIONS[name](text, rng)
    return None if out is None or out == text else (name, out)


# -- the two sides --------------------------------------------------------------------------------

def jaxlib_worker() -> None:
    """Read ``{"text", "unregistered"}`` lines on stdin (``unregistered``: allow unregistered dialects, as
    ``mlir-opt -allow-unregistered-dialect``); answer ``{"ok", "line", "col", "msg"}`` lines."""
    from jax._src.interpreters import mlir as jax_mlir
    from jax._src.lib.mlir import ir

    contexts = {}
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # C++ prints to fd 1 must not mix with the answers
    for line in sys.stdin:
        request = json.loads(line)
        text, unregistered = request["text"], bool(request.get("unregistered"))
        if unregistered not in contexts:
            contexts[unregistered] = jax_mlir.make_ir_context()
            contexts[unregistered].allow_unregistered_dialects = unregistered
        ctx = contexts[unregistered]
        try:
            ir.Module.parse(text, context=ctx)
            answer = {"ok": True}
        except Exception as e:  # noqa: BLE001 (every MLIR failure is a verdict)
            m = _ERROR.search(str(e))
            diagnostics = getattr(e, "error_diagnostics", None)
            answer = ({"ok": False, "line": int(m.group(1)), "col": int(m.group(2)), "msg": m.group(3)} if m
                      else {"ok": False, "line": 0, "col": 0,  # (at a named location: its message alone)
                            "msg": diagnostics[0].message if diagnostics else str(e)[:300]})
        out.write(json.dumps(answer) + "\n")
        out.flush()


class Jaxlib(_Worker):
    """The jaxlib worker of ``jaxlib_worker`` (restarted after a crash or a timeout, which give None)."""

    def __init__(self, timeout: float = 30.0) -> None:
        super().__init__(timeout, __file__)

    def judge(self, text: str, unregistered: bool = False) -> dict | None:
        """jaxlib's verdict on ``text`` (None when it crashed or timed out)."""
        return self.ask({"text": text, "unregistered": unregistered})


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout


def ours(text: str, timeout: int = 20) -> dict:
    """shardy_py's verdict: parse, then verify; ``internal`` holds an exception that is a bug of ours."""
    import shardy_py

    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(timeout)
    try:
        module = shardy_py.parse(text)
        diags = [d for d in shardy_py.verify(module) if d.severity == "error"]
        if diags:
            return {"ok": False, "line": diags[0].line, "col": diags[0].column, "msg": diags[0].message}
        return {"ok": True}
    except shardy_py.ParseError as e:
        return {"ok": False, "line": e.line, "col": e.column, "msg": e.message}
    except _Timeout:
        return {"ok": False, "line": 0, "col": 0, "msg": "timeout", "internal": "timeout"}
    except Exception as e:  # noqa: BLE001 (a bug of ours: counted, never hidden)
        return {"ok": False, "line": 0, "col": 0, "msg": f"{type(e).__name__}: {e}", "internal": type(e).__name__}
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def category(mine: dict, theirs: dict, text: str = "") -> str | None:
    """None when the verdicts agree (same verdict; the same line where both reject), else the kind."""
    if mine.get("internal"):
        return "internal_error"
    if mine["ok"] and theirs["ok"]:
        return None
    if not mine["ok"] and not theirs["ok"] and mine["line"] == theirs["line"]:
        return None
    if not mine["ok"] and not theirs["ok"] and theirs["line"] == 0:
        return NAMED_LOCATION_CATEGORY  # (MLIR reports at the op's own loc(...), not at a line of the text)
    their_msg = theirs.get("msg", "")
    if not theirs["ok"] and ("unregistered dialect" in their_msg or "Dialect `" in their_msg):
        return DIALECT_CATEGORY
    for side in (theirs, mine):
        if not side["ok"] and not _CORE_MESSAGE.search(side["msg"]):
            if _OP_MESSAGE.search(side["msg"]) or (side is theirs and _on_op_line(text, side["line"], "stablehlo|chlo")
                                                   and not _SYNTAX_MESSAGE.match(side["msg"])):
                return OP_CATEGORY
            if side["msg"].startswith("'sdy.") or (side is theirs and _on_op_line(text, side["line"], "sdy")
                                                   and not _SYNTAX_MESSAGE.match(side["msg"])):
                return SDY_CATEGORY
    if not theirs["ok"] and _DIALECT_ATTR_MESSAGE.search(their_msg):
        return DIALECT_ATTR_CATEGORY
    if not theirs["ok"] and not mine["ok"] and _SYNTAX_MESSAGE.match(their_msg):
        return SYNTAX_CATEGORY
    return STRUCTURE_CATEGORY


def annotated_error_lines(text: str) -> set[int]:
    """The lines a test chunk's ``// expected-error`` annotations point at (``@+N``, ``@-N``, ``@above``,
    ``@below`` or the annotation's own line)."""
    out = set()
    for n, line in enumerate(text.split("\n"), start=1):
        m = _EXPECTED_ERROR.search(line)
        if m:
            at = m.group(1) or ""
            out.add(n - 1 if at == "@above" else n + 1 if at == "@below" else n + (int(at[1:]) if at else 0))
    return out


def disagreements(counts: Counter) -> int:
    """The disagreements of a run's ``counts`` that are not pinned (internal errors included)."""
    kinds = {SYNTAX_CATEGORY, STRUCTURE_CATEGORY, OP_CATEGORY, SDY_CATEGORY, DIALECT_CATEGORY, DIALECT_ATTR_CATEGORY,
             "internal_error"}
    return sum(counts[k] for k in kinds)


def _on_op_line(text: str, line: int, dialects: str) -> bool:
    lines = text.split("\n")
    return 0 < line <= len(lines) and re.search(rf"\b({dialects})\.[a-z_]+", lines[line - 1]) is not None


class Run:
    """Seeds filtered to those both sides accept, then mutants drawn round-robin over them."""

    def __init__(self, seeds: list[tuple[str, str]], jaxlib: Jaxlib) -> None:
        self.jaxlib = jaxlib
        self.counts: Counter = Counter()
        self.examples: list[dict] = []
        #: Rejections on jaxlib's line at another column or in other words (``wording``).
        self.wordings: list[dict] = []
        self.seeds: list[tuple[str, str]] = []
        for label, text in seeds:
            theirs = jaxlib.judge(text)
            if theirs is None or not theirs["ok"]:
                continue
            mine = ours(text)
            if not mine["ok"]:  # a valid module we reject: a disagreement of its own, unless annotated so
                kind = (ANNOTATED_SEED_CATEGORY if mine["line"] in annotated_error_lines(text) else
                        category(mine, theirs, text) or STRUCTURE_CATEGORY)
                self.record(label, "seed", text, mine, theirs, kind)
                continue
            self.seeds.append((label, text))

    def record(self, label: str, mutation: str, text: str, mine: dict, theirs: dict, kind: str) -> None:
        self.counts[kind] += 1
        self.examples.append({"seed": label, "mutation": mutation, "kind": kind, "ours": mine, "jaxlib": theirs,
                              "text": text})

    def wording(self, label: str, mutation: str, text: str, mine: dict, theirs: dict) -> None:
        """Count a rejection on jaxlib's line by whether its column and message are jaxlib's too; keep the
        differing ones (``--wording-out``)."""
        same_col = mine["col"] == theirs["col"]
        same_msg = mine["msg"] == theirs["msg"]
        self.counts[SAME_LINE_SAME_COLUMN] += same_col
        self.counts[SAME_LINE_SAME_MESSAGE] += same_msg
        if not (same_col and same_msg):
            self.wordings.append({"seed": label, "mutation": mutation, "ours": mine, "jaxlib": theirs, "text": text})

    def case(self, rng: random.Random) -> None:
        label, text = rng.choice(self.seeds)
        drawn = mutate(text, rng)
        if drawn is None:
            return
        name, mutant = drawn
        theirs = self.jaxlib.judge(mutant)
        if theirs is None:
            self.counts["jaxlib_crashed"] += 1
            return
        mine = ours(mutant)
        self.counts["cases"] += 1
        self.counts["both_reject" if not (mine["ok"] or theirs["ok"]) else
                    "both_accept" if mine["ok"] and theirs["ok"] else "one_rejects"] += 1
        kind = category(mine, theirs, mutant)
        if kind is None:
            self.counts["agree"] += 1
            if not mine["ok"]:  # (same line: is it the same column and message, too?)
                self.wording(label, name, mutant, mine, theirs)
        else:
            if kind == NAMED_LOCATION_CATEGORY and mine["msg"] == theirs["msg"]:
                self.counts[NAMED_SAME_MESSAGE] += 1  # (pinned all the same; the first error is the same check)
            self.record(label, name, mutant, mine, theirs, kind)


def replay(recorded: Path, out: Path | None) -> int:
    """Judge the mutants of an earlier ``--out`` file again with today's shardy_py; print how many still
    disagree, per kind, and write those to ``out``. Returns 1 when any unpinned one remains."""
    counts: Counter = Counter()
    still = []
    for line in recorded.read_text().splitlines():
        ex = json.loads(line)
        mine = ours(ex["text"])
        kind = category(mine, ex["jaxlib"], ex["text"])
        counts["replayed"] += 1
        counts[kind or "agree"] += 1
        if kind is not None:
            still.append({**ex, "kind": kind, "ours": mine})
    print(f"replayed {counts['replayed']}: {dict(sorted(counts.items()))}")
    if out:
        out.write_text("".join(json.dumps(ex) + "\n" for ex in still))
    return 1 if disagreements(counts) else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--cases", type=int, default=10000, help="mutants to judge (default 10000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--conformance", type=Path, default=Path(os.environ.get("SHARDY_CONFORMANCE", "")) or None)
    ap.add_argument("--jax-programs", type=Path, default=None, help="a directory of lowered JAX programs")
    ap.add_argument("--corpus", type=Path, default=None,
                    help="a fuzzing corpus directory (tests/fuzz_parse.py's, e.g. .ci/fuzz-corpus) whose inputs "
                         "both sides accept are seeds too")
    ap.add_argument("--out", type=Path, default=None, help="write the disagreements here (JSON lines)")
    ap.add_argument("--wording-out", type=Path, default=None,
                    help="write the rejections on jaxlib's line whose column or message differ (JSON lines)")
    ap.add_argument("--report-every", type=int, default=5000)
    ap.add_argument("--replay", type=Path, default=None,
                    help="judge again, ours only, the mutants of an earlier run's --out file (jaxlib's verdicts "
                         "as recorded there)")
    args = ap.parse_args()
    if args.worker:
        jaxlib_worker()
        return
    if args.replay:
        sys.exit(replay(args.replay, args.out))
    sys.setrecursionlimit(10000)
    started = time.time()
    jaxlib = Jaxlib()
    run = Run(seed_texts(args.conformance, args.jax_programs, args.corpus), jaxlib)
    print(f"seeds: {len(run.seeds)} accepted by both ({run.counts[STRUCTURE_CATEGORY]} valid seeds we reject)",
          flush=True)
    rng = random.Random(args.seed)
    while run.counts["cases"] < args.cases and run.seeds:
        run.case(rng)
        n = run.counts["cases"]
        if n and n % args.report_every == 0 and run.counts.get("_reported") != n:
            run.counts["_reported"] = n
            print(f"{n} cases, {time.time() - started:.0f} s: {dict(sorted(run.counts.items()))}", flush=True)
    jaxlib.stop()
    run.counts.pop("_reported", None)
    print(f"done: {time.time() - started:.0f} s: {dict(sorted(run.counts.items()))}")
    if args.out:
        with args.out.open("w") as f:
            for ex in run.examples:
                f.write(json.dumps(ex) + "\n")
    if args.wording_out:
        with args.wording_out.open("w") as f:
            for ex in run.wordings:
                f.write(json.dumps(ex) + "\n")
    same_line = run.counts["both_reject"] - sum(run.counts[k] for k in PINNED)
    print(f"rejected on jaxlib's line: {same_line}, at its column {run.counts[SAME_LINE_SAME_COLUMN]}, "
          f"in its words {run.counts[SAME_LINE_SAME_MESSAGE]}")
    bad = disagreements(run.counts)
    print(f"disagreements: {bad} of {run.counts['cases']} mutants (pinned: "
          f"{sum(run.counts[k] for k in PINNED)})")
    for ex in [e for e in run.examples if e["kind"] not in PINNED][:10]:
        print(f"-- {ex['seed']} {ex['mutation']}: ours {ex['ours']} jaxlib {ex['jaxlib']}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

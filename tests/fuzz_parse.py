"""Coverage-guided fuzz target for ``shardy_py.parse``, printing and ``verify``.

Run with atheris (``pip install atheris``)::

    python tests/fuzz_parse.py --seed-corpus /tmp/fuzz_corpus      # writes seeds, then exits
    python tests/fuzz_parse.py /tmp/fuzz_corpus -max_total_time=1800 -timeout=60 -rss_limit_mb=4096

Without atheris it falls back to hypothesis' ``fuzz_one_input`` over random bytes
(``python tests/fuzz_parse.py --hypothesis N``).

For each input: decode as UTF-8 (with replacement), ``parse``; a ``ParseError`` is the expected
outcome for junk. Where jax is installed (and ``FUZZ_MLIR`` is not 0), MLIR's verdict on the same text
(jaxlib 0.12 in a worker subprocess, unregistered dialects allowed) is compared with ours (parse,
then verify): the same accept/reject and, where both reject, the same line; disagreements are saved as
``mlir-verdict-*`` / ``mlir-line-*`` and counted in the ``STATS`` line. The same input is also
parsed with the fast paths off (the scanner's one-line path
and the op recipes): verdict, error and print must be the same. A module that parses is printed, the
print re-parsed (it must parse, and print identically) and verified. Any other exception is a
finding: it is counted, its input written to ``$FUZZ_FINDINGS`` (default ``/tmp/fuzz_findings``) and
the run goes on. Inputs slower than ``$FUZZ_SLOW_SECONDS`` (default 1.0) are saved too (look for
super-linear behaviour). Every ``$FUZZ_STATS_EVERY`` executions a ``STATS`` line (executions,
findings, slow inputs, slowest time per KiB) goes to stderr.
"""
from __future__ import annotations

import hashlib
import os
import sys
import time
import traceback
from pathlib import Path

FINDINGS = Path(os.environ.get("FUZZ_FINDINGS", "/tmp/fuzz_findings"))
SLOW = float(os.environ.get("FUZZ_SLOW_SECONDS", "1.0"))
STATS_EVERY = int(os.environ.get("FUZZ_STATS_EVERY", "20000"))
_stats = {"execs": 0, "parsed": 0, "parse_errors": 0, "findings": 0, "kinds": 0, "slow": 0, "max_s_per_kib": 0.0}
_signatures: set[tuple[str, str, int | None]] = set()
_t0 = time.time()


def _save(kind: str, data: bytes, detail: str) -> None:
    FINDINGS.mkdir(parents=True, exist_ok=True)
    h = hashlib.sha1(data).hexdigest()[:12]
    (FINDINGS / f"{kind}-{h}.in").write_bytes(data)
    (FINDINGS / f"{kind}-{h}.txt").write_text(detail)


def check_one(data: bytes) -> None:
    """Parse, print, re-parse and verify one input; raise AssertionError on a property failure."""
    import shardy_py
    from shardy_py.verify import verify

    text = data.decode("utf-8", "replace")
    try:
        m = shardy_py.parse(text)
    except shardy_py.ParseError as e:
        _stats["parse_errors"] += 1
        full = _parse_in_full(text)
        assert isinstance(full, shardy_py.ParseError), "only the fast paths reject this input"
        assert (full.line, full.column, full.message) == (e.line, e.column, e.message), "fast paths: other error"
        _compare_with_mlir(data, text, {"ok": False, "line": e.line, "col": e.column, "msg": e.message})
        return
    _stats["parsed"] += 1
    printed = str(m)
    full = _parse_in_full(text)
    assert not isinstance(full, Exception), "only the full parse rejects this input"
    assert str(full) == printed, "fast paths (scanner lines, op recipes) print otherwise than the full parse"
    if not m.ssa_failures:  # (a use MLIR's verifier rejects prints as MLIR prints it: not text to parse)
        again = shardy_py.parse(printed)
        assert str(again) == printed, "print is not idempotent"
    errors = [d for d in verify(m) if d.severity == "error"]
    _compare_with_mlir(data, text, {"ok": True} if not errors else
                       {"ok": False, "line": errors[0].line, "col": errors[0].column, "msg": errors[0].message})


#: The jaxlib worker (``benchmarks/differential_structure.py``), when jax is installed and ``FUZZ_MLIR``
#: is not 0: False until first asked, None when there is none.
_mlir: object = False
#: Seconds spent waiting for jaxlib's verdicts (left out of an input's time, which is ours).
_mlir_seconds = 0.0


def _mlir_worker():
    global _mlir
    if _mlir is False:
        _mlir = None
        if os.environ.get("FUZZ_MLIR", "1") != "0":
            try:
                import jax  # noqa: F401
            except ImportError:
                return None
            sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
            import differential_structure

            _mlir = differential_structure
            _mlir.worker = differential_structure.Jaxlib(timeout=10.0)
    return _mlir


def _compare_with_mlir(data: bytes, text: str, mine: dict) -> None:
    """MLIR's verdict (jaxlib 0.12, unregistered dialects allowed, in a subprocess: it can crash) against
    ours: the same accept/reject and, where both reject, the first error on the same line. A
    disagreement is saved (``mlir-*``) and counted: ``mlir_verdict`` (one side accepts), ``mlir_line``
    (both reject, on other lines); those in other areas' categories (StableHLO op verifiers, sdy
    rules) are counted apart (``mlir_other``), and so are inputs with a NUL byte (``mlir_nul``: we reject
    one as a binary file's, where MLIR's lexer skips it as white space)."""
    global _mlir_seconds
    ds = _mlir_worker()
    if ds is None or len(text) > 65536:
        return
    start = time.perf_counter()
    theirs = ds.worker.judge(text, unregistered=True)
    _mlir_seconds += time.perf_counter() - start  # (jaxlib's time, restarts included, is not ours: see SLOW)
    if theirs is None:
        _stats["mlir_crashed"] = _stats.get("mlir_crashed", 0) + 1
        return
    _stats["mlir_judged"] = _stats.get("mlir_judged", 0) + 1
    kind = ds.category(mine, theirs, text)
    if kind is None:
        return
    key = ("mlir_other" if kind in (ds.OP_CATEGORY, ds.SDY_CATEGORY, ds.DIALECT_CATEGORY) else
           "mlir_nul" if "\x00" in text else  # (MLIR's lexer skips a NUL as white space; we reject it)
           "mlir_verdict" if mine["ok"] != theirs["ok"] else "mlir_line")
    _stats[key] = _stats.get(key, 0) + 1
    if key not in ("mlir_other", "mlir_nul"):
        _save(key.replace("_", "-"), data, f"{kind}: ours {mine} jaxlib {theirs}\n")


def _parse_in_full(text: str):
    """``parse`` without the scanner's line fast path and the op recipes (the module, or its ParseError)."""
    import shardy_py
    from shardy_py.syntax.parser import parse_module

    try:
        return parse_module(text, fast_paths=False)
    except shardy_py.ParseError as e:
        return e


def test_one_input(data: bytes) -> None:
    """The fuzz entry point: never raises; findings are recorded."""
    _stats["execs"] += 1
    mlir_before = _mlir_seconds
    start = time.perf_counter()
    try:
        check_one(data)
    except Exception as e:  # noqa: BLE001 - every non-ParseError exception is a finding
        _stats["findings"] += 1
        _save("crash", data, f"{type(e).__name__}: {e}\n\n{traceback.format_exc()}")
        where = traceback.extract_tb(e.__traceback__)[-1]
        sig = (type(e).__name__, where.filename, where.lineno)
        if sig not in _signatures:  # print each kind (exception type and raising line) once
            _signatures.add(sig)
            _stats["kinds"] = len(_signatures)
            print(f"FINDING {type(e).__name__} at {where.filename}:{where.lineno}: {str(e)[:200]}",
                  file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - start - (_mlir_seconds - mlir_before)  # (ours: jaxlib's judging left out)
    kib = max(len(data) / 1024, 0.25)
    _stats["max_s_per_kib"] = max(_stats["max_s_per_kib"], elapsed / kib)
    if elapsed > SLOW:
        _stats["slow"] += 1
        _save("slow", data, f"{elapsed:.3f}s for {len(data)} bytes\n")
        print(f"SLOW {elapsed:.3f}s for {len(data)} bytes", file=sys.stderr, flush=True)
    if _stats["execs"] % STATS_EVERY == 0:
        print(f"STATS t={time.time() - _t0:.0f}s " + " ".join(f"{k}={v if isinstance(v, int) else round(v, 4)}"
                                                              for k, v in _stats.items()), file=sys.stderr, flush=True)


def write_seed_corpus(directory: Path, n_drawn: int = 300) -> int:
    """Seed ``directory`` with the examples, the conformance corpus (if present) and drawn modules."""
    directory.mkdir(parents=True, exist_ok=True)
    repo = Path(__file__).resolve().parent.parent
    seeds: list[bytes] = [p.read_bytes() for p in sorted((repo / "examples").glob("*.mlir"))]
    conf = Path(os.environ.get("SHARDY_CONFORMANCE", repo.parent / "shared" / "conformance"))
    for p in sorted(conf.glob("ir/**/*.mlir")):
        for chunk in p.read_text(errors="replace").split("// -----"):
            seeds.append(chunk.encode())
    from hypothesis import HealthCheck, given, settings

    from shardy_py import strategies as sst

    @settings(max_examples=n_drawn, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(sst.module_texts() | sst.invalid_modules().map(lambda x: x.text))
    def draw(text: str) -> None:
        seeds.append(text.encode())

    draw()
    for s in seeds:
        (directory / hashlib.sha1(s).hexdigest()[:16]).write_bytes(s)
    return len(seeds)


def main(argv: list[str]) -> None:
    if len(argv) > 2 and argv[1] == "--seed-corpus":
        print(f"wrote {write_seed_corpus(Path(argv[2]))} seeds to {argv[2]}")
        return
    if len(argv) > 1 and argv[1] == "--hypothesis":
        from hypothesis import HealthCheck, given, settings
        from hypothesis import strategies as st

        n = int(argv[2]) if len(argv) > 2 else 10_000

        @settings(max_examples=n, database=None, deadline=None, suppress_health_check=list(HealthCheck))
        @given(st.binary(max_size=4096))
        def fuzz(data: bytes) -> None:
            test_one_input(data)

        fuzz()
        print("STATS", _stats, file=sys.stderr)
        return
    import atheris

    with atheris.instrument_imports(include=["shardy_py", "lark"]):
        import shardy_py  # noqa: F401
        import shardy_py.syntax.parser  # noqa: F401
        import shardy_py.verify  # noqa: F401
    atheris.Setup(argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)

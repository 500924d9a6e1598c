"""Long differential run of the partitioning pipeline (``shardy_py.partition``) against jaxlib 0.12.

    python benchmarks/differential_partition.py --cases 5000 [--seed 0] [--out DIR] [--timeout 60]

Draws modules from ``shardy_py.strategies.propagation_module_texts()`` and runs each through
jaxlib's ``sdy-propagation-pipeline, sdy-export-pipeline{partitioner-stage=resolve-single-device-
sharding}, sdy-convert-global-to-local{enable-rgv3=false}, sdy-drop-sharding-and-mesh`` (jaxlib
0.12's staged partitioner, as ``shardy_py.partition`` runs it) and through ``shardy_py.partition``;
the printed modules must be identical.  Counts: drawn, jaxlib_crashed, jaxlib_error, ours_error,
both_error, ours_timeout, equal, different.  Differing, crashing and one-sided cases are written to
``--out``.  ``--stage partitioner`` feeds both sides jaxlib's module after propagation and the
staged export pipeline, so only convert-global-to-local and drop-sharding-and-mesh are
compared; ``--stage kept`` stops before drop-sharding-and-mesh on both sides (shardings and the
module's sharding metadata compared too).  The last line on stdout is a JSON summary.
"""
from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from differential_propagation import Jaxlib, worker  # noqa: E402

from shardy_py.passes.partition import PIPELINE_BACK, PIPELINE_FRONT  # noqa: E402

FAILED = "<the pass failed>"
JAXLIB_FAILED = "<the pipeline failed>"  # what the jaxlib worker answers for a pipeline that fails
FRONT, BACK = PIPELINE_FRONT, PIPELINE_BACK
PIPELINE = f"builtin.module({FRONT},{BACK})"
#: ``--stage partitioner``: jaxlib's propagation and export pipeline first, then the partitioner's
#: passes on both sides from jaxlib's module (isolates convert-global-to-local and drop-sharding-and-mesh).
#: ``--stage kept``: the whole pipeline without ``sdy-drop-sharding-and-mesh`` (``partition(...,
#: keep_shardings=True)``), so the shardings and the module metadata convert-global-to-local writes
#: are compared too.
KEPT = "builtin.module({},{})".format(FRONT, BACK.rsplit(",sdy-drop-sharding-and-mesh", 1)[0])
PIPELINES = {"full": [PIPELINE], "partitioner": [f"builtin.module({FRONT})", PIPELINE], "kept": [KEPT]}
COUNTS = ("drawn", "jaxlib_crashed", "jaxlib_error", "ours_error", "ours_timeout", "both_error", "equal",
          "different")


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout


def ours(text: str, propagate: bool = True, keep_shardings: bool = False) -> str:
    import shardy_py
    from shardy_py.passes.manager import PassError

    try:
        return str(shardy_py.partition(shardy_py.parse(text), propagate=propagate, keep_shardings=keep_shardings))
    except PassError:
        return FAILED


def ours_partitioner(text: str) -> str:
    """Our convert-global-to-local and drop-sharding-and-mesh on ``text``."""
    import shardy_py
    from shardy_py.passes.manager import PassError, PassManager
    from shardy_py.passes.partition import partition_passes

    module = shardy_py.parse(text)
    try:
        PassManager(partition_passes(after_export=True)).run(module)
    except PassError:
        return FAILED
    return str(module)


def main() -> None:
    if "--worker" in sys.argv:
        worker()
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="/tmp/differential_partition")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--stage", choices=sorted(PIPELINES), default="full",
                    help="full: the whole pipeline on both sides; partitioner: from jaxlib's exported module; "
                         "kept: the whole pipeline but sdy-drop-sharding-and-mesh")
    args = ap.parse_args()
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as hseed

    from shardy_py.strategies import propagation_module_texts

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    jaxlib = Jaxlib(args.timeout, script=__file__)
    stats = dict.fromkeys(COUNTS, 0)
    signal.signal(signal.SIGALRM, _alarm)
    start = time.time()

    def case(text: str) -> None:
        stats["drawn"] += 1
        n = stats["drawn"]
        outs = jaxlib.run(text, PIPELINES[args.stage])
        if outs is not None and args.stage == "partitioner":
            if outs[0] == JAXLIB_FAILED:
                stats["jaxlib_front_failed"] = stats.get("jaxlib_front_failed", 0) + 1
                return
            text, outs = outs[0], outs[1:]
        signal.alarm(int(args.timeout))
        try:
            mine = ours_partitioner(text) if args.stage == "partitioner" else ours(
                text, keep_shardings=args.stage == "kept")
        except _Timeout:
            mine = "<timeout>"
        except Exception as e:  # noqa: BLE001 - any crash of ours is counted and kept
            mine = f"<exception {type(e).__name__}: {e}>"
        finally:
            signal.alarm(0)
        kind = None
        if outs is None:
            kind = "jaxlib_crashed"
        elif mine == "<timeout>":
            kind = "ours_timeout"
        else:
            theirs = outs[0]
            if theirs == JAXLIB_FAILED and mine == FAILED:
                kind = "both_error"
            elif theirs == JAXLIB_FAILED:
                kind = "jaxlib_error"
            elif mine == FAILED or mine.startswith("<exception"):
                kind = "ours_error"
            elif mine == theirs:
                kind = "equal"
            else:
                kind = "different"
        stats[kind] += 1
        if kind in ("jaxlib_crashed", "jaxlib_error", "ours_error", "different", "ours_timeout"):
            theirs = "<crashed>" if outs is None else outs[0]
            (out / f"{kind}-{n}.mlir").write_text(f"{text}\n// ===== jaxlib\n{theirs}\n// ===== ours\n{mine}\n")
        if n % 100 == 0:
            print(f"{n} cases {time.time() - start:.0f}s {stats}", file=sys.stderr, flush=True)

    cfg = settings(deadline=None, database=None, suppress_health_check=list(HealthCheck), max_examples=args.cases)
    rnd = random.Random(args.seed)
    hseed(rnd.getrandbits(64))(cfg(given(propagation_module_texts())(case)))()
    jaxlib.stop()
    print(json.dumps({"seconds": round(time.time() - start), **stats}))


if __name__ == "__main__":
    main()

"""README.md runs as written: every Python block and every shell command in it.

The README is read as a newcomer reads it:

* Python blocks run in order in one namespace from the repository root, as cells of one notebook.
  A comment after a statement (or on the comment-only lines right under it) that looks like a value
  (it starts with a quote, ``#``, a bracket, a digit or ``Name(``) is the value the README promises:
  ``print(...)`` is compared with what it prints, an expression or assignment with ``str`` of its
  value (``repr`` when the comment starts with a quote). ``...`` in a promised value matches anything.
  Other comments are prose.
* ``bash`` blocks: a line naming a placeholder (an upper-case word such as ``FILE`` or ``OUT``) or an
  optional part (``[...]``) is a synopsis: every flag it names must appear in that command's
  ``--help``. Every other line is a command: it runs in a shell from the repository root (``python``
  is this interpreter, ``shardy_py`` this checkout) and must exit 0 without a traceback.
* An unlabelled block that starts with ``$ COMMAND`` shows that command's output: it is run and its
  standard output compared with the rest of the block.
* ``<!-- readme-test: needs MODULE -->`` on the line before a Python block: the block runs when the
  optional dependency MODULE (jax) is installed.
* ``<!-- readme-test: not run: "PREFIX" ... (why) -->`` on the line before a block names the command
  parts (split at ``&&``) that the test does not run: the installs (the test runs in the installed
  environment) and the runs that take minutes (the suite itself, the conformance score, the
  benchmarks, the fuzzer); each has a short form tested elsewhere or below.
"""
from __future__ import annotations

import ast
import importlib.util
import io
import os
import re
import shlex
import subprocess
import sys
import tokenize
from contextlib import redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
MARKER = re.compile(r"<!--\s*readme-test:\s*not run:(.*?)-->")
NEEDS = re.compile(r"<!--\s*readme-test:\s*needs (\w+)\s*-->")
PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_]+\b|\[")
OUTPUT_COMMENT = re.compile(r"""^(['"#({\[]|-?\d|[A-Z]\w*\()""")


@dataclass
class Block:
    lang: str
    line: int          # line of the opening fence
    text: str
    not_run: list[str] = field(default_factory=list)
    needs: str | None = None   # a module the block imports that may be missing (an optional dependency)


def readme_blocks(text: str) -> list[Block]:
    """The fenced blocks of ``text``, with the ``not run`` prefixes marked on the line before each."""
    blocks, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        m = re.match(r"^```(\w*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        end = i + 1
        while not lines[end].startswith("```"):
            end += 1
        marker = MARKER.search(lines[i - 1]) if i else None
        prefixes = re.findall(r'"([^"]+)"', marker.group(1)) if marker else []
        needs = NEEDS.search(lines[i - 1]) if i else None
        blocks.append(Block(m.group(1), i + 1, "\n".join(lines[i + 1:end]) + "\n", prefixes,
                            needs.group(1) if needs else None))
        i = end + 1
    return blocks


BLOCKS = readme_blocks(README.read_text(encoding="utf-8"))


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["COLUMNS"] = "100"
    env.setdefault("SHARDY_CONFORMANCE", str(ROOT.parent / "shared" / "conformance"))
    return env


def _shell(command: str) -> subprocess.CompletedProcess:
    command = re.sub(r"(^|&&\s*|\|\s*)python\b", lambda m: m.group(1) + shlex.quote(sys.executable), command)
    return subprocess.run(["bash", "-c", command], cwd=ROOT, env=_env(), capture_output=True, text=True,
                          timeout=300)


def matches(expected: str, actual: str) -> bool:
    """``actual`` equals ``expected``, where each ``...`` of ``expected`` stands for any text."""
    pattern = ".*".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, actual, re.S) is not None


# ---------------------------------------------------------------- shell commands


def _command_lines(block: Block) -> list[tuple[int, str]]:
    """(README line, command) per logical line (``\\`` continuations joined), comments dropped."""
    out, pending, start = [], "", 0
    for k, raw in enumerate(block.text.splitlines()):
        line = re.sub(r"\s+#\s.*$", "", raw).rstrip()
        if not pending:
            start = block.line + 1 + k
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = (pending + line).strip()
        pending = ""
        if line:
            out.append((start, line))
    return out


def _lines(block: Block, kind: str) -> list[str]:
    """The block's commands (``kind="command"``) or synopses, without the parts it does not run."""
    out = []
    for _, line in _command_lines(block):
        parts = [p.strip() for p in line.split("&&")]
        run = [p for p in parts if not any(p.startswith(x) for x in block.not_run)]
        if run and (kind == "synopsis") == any(PLACEHOLDER.search(p) for p in run):
            out.append(" && ".join(run))
    return out


def _cases(kind: str) -> list:
    if kind == "synopsis":
        return [pytest.param(line, id=f"README.md:{b.line}:{k}") for b in BLOCKS if b.lang == "bash"
                for k, line in enumerate(_lines(b, kind))]
    return [pytest.param(_lines(b, kind), id=f"README.md:{b.line}") for b in BLOCKS
            if b.lang == "bash" and _lines(b, kind)]


@pytest.mark.parametrize("commands", _cases("command"))
def test_commands_run(commands):
    """A block's commands, in order (a later one may read what an earlier one wrote)."""
    for command in commands:
        r = _shell(command)
        assert r.returncode == 0, f"{command}\nexit {r.returncode}\n{r.stderr[-3000:]}"
        assert "Traceback" not in r.stderr, r.stderr[-3000:]


def _flags(synopsis: str) -> list[str]:
    flags = []
    for token in re.findall(r"(?<![\w'])--?[a-z][\w-]*", synopsis):
        if not PLACEHOLDER.search(token):
            flags.append(token)
    return flags


@pytest.mark.parametrize("synopsis", _cases("synopsis"))
def test_synopsis_flags_are_in_help(synopsis):
    words = shlex.split(synopsis.replace("[", " ").replace("]", " ").replace("|", " "))
    assert words[:3] == ["python", "-m", "shardy_py"], synopsis
    command = words[3]
    r = _shell(f"python -m shardy_py {command} --help")
    assert r.returncode == 0, r.stderr
    for flag in _flags(synopsis.split(command, 1)[1]):
        assert flag.split("=")[0] in r.stdout, f"{flag} of `{synopsis}` is not in `{command} --help`"


def _output_blocks() -> list:
    cases = []
    for b in BLOCKS:
        if b.lang == "" and b.text.startswith("$ "):
            first, _, expected = b.text.partition("\n")
            cases.append(pytest.param(first[2:], expected, id=f"README.md:{b.line}"))
    return cases


@pytest.mark.parametrize("command,expected", _output_blocks())
def test_shown_output(command, expected):
    r = _shell(command)
    assert r.returncode == 0, r.stderr
    assert matches(expected, r.stdout), f"$ {command}\n--- README\n{expected}--- got\n{r.stdout}"


# ---------------------------------------------------------------- Python blocks


def _comments(source: str) -> dict[int, str]:
    """1-based line -> the text of the comment on it."""
    out = {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            out[tok.start[0]] = tok.string[1:].strip()
    return out


def promised(stmt: ast.stmt, comments: dict[int, str], lines: list[str]) -> str | None:
    """The value a statement's comment promises, or None when the comment is prose."""
    texts = []
    if stmt.end_lineno in comments:
        texts.append(comments[stmt.end_lineno])
    k = stmt.end_lineno + 1
    while k <= len(lines) and lines[k - 1].lstrip().startswith("#"):
        texts.append(comments[k])
        k += 1
    if not texts or not OUTPUT_COMMENT.match(texts[0]):
        return None
    return " ".join(texts)


def _check(value, expected: str, where: str) -> None:
    shown = repr(value) if expected[0] in "'\"" else str(value)
    assert matches(expected, shown.strip()), f"{where}: README shows\n{expected}\ngot\n{shown}"


def test_python_blocks_run_as_written(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.syspath_prepend(str(ROOT))
    namespace: dict = {"__name__": "__readme__"}
    for b in BLOCKS:
        if b.lang != "python" or (b.needs and importlib.util.find_spec(b.needs) is None):
            continue  # (a block needing an optional dependency that is not installed)
        tree = ast.parse(b.text)
        comments, lines = _comments(b.text), b.text.splitlines()
        for stmt in tree.body:
            where = f"README.md:{b.line + stmt.lineno}"
            expected = promised(stmt, comments, lines)
            out = io.StringIO()
            with redirect_stdout(out):
                if isinstance(stmt, ast.Expr):
                    value = eval(compile(ast.Expression(stmt.value), where, "eval"), namespace)
                else:
                    exec(compile(ast.Module([stmt], []), where, "exec"), namespace)
            if expected is None:
                continue
            call = stmt.value if isinstance(stmt, ast.Expr) else None
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "print":
                assert matches(expected, out.getvalue().strip()), f"{where}: printed {out.getvalue()!r}"
            elif isinstance(stmt, ast.Expr):
                _check(value, expected, where)
            elif isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
                _check(namespace[stmt.targets[0].id], expected, where)
            else:
                pytest.fail(f"{where}: a promised value on a statement that has none")


# ---------------------------------------------------------------- the long runs, short


def test_bench_parse_runs_short():
    """``python benchmarks/bench_parse.py`` (minutes at its default sizes) on small modules."""
    r = _shell("python benchmarks/bench_parse.py 300 1200")
    assert r.returncode == 0, r.stderr
    assert len(r.stdout.splitlines()) == 3


def test_synth_writes_a_module_that_propagates(tmp_path):
    out = tmp_path / "synth.mlir"
    assert _shell("python benchmarks/synth.py --help").stdout.startswith("usage: synth.py")
    r = _shell(f"python benchmarks/synth.py 200 -o {out} && python -m shardy_py propagate {out}")
    assert r.returncode == 0, r.stderr
    assert "func.func public @main(" in r.stdout

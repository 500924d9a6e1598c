"""Differential tests: drawn inputs through the C++ Shardy bundled in jaxlib and through shardy_py.

For each input both sides must give the same verdict (accepted / rejected) and, when accepted,
the same printed text (``get_asm`` without debug info vs ``str(shardy_py.parse(text))``); when
rejected, the first error on the same line and, for the ``invalid_*`` draws, for the rule the draw
names (the C++ message matched against ``CPP_MESSAGES``).

jaxlib 0.10.2 bundles an older Shardy than the one shardy_py follows.  The comparison is
restricted to the features both have:

* reduction kinds (``unreduced=max{..}``/``min``, ``sdy.all_reduce max``, ``sdy.reduce_scatter
  min``): jaxlib 0.12 has them, so modules drawn with ``reductions=REDUCTIONS`` are compared as
  drawn (0.10.2 had none of them);
* sharding-rule factor sizes stay below 2**31 (the old build rejects int64 sizes);
* the HEAD-only unreduced-axes transition check (C68) never decides: valid draws make only
  allowed transitions, and no invalid draw breaks C68.

Counts (CI, derandomized; ``test_differential_case_count`` checks the total): 700 valid modules,
200 modules with max/min reductions, 300 invalid modules, 400 mutated modules (one sdy token of a
valid module changed: verdict, print and first error line compared), 300 standalone shardings, 150
sharding rules, 100 propagation edges, 150 invalid meshes, 300 invalid tensor shardings and 200
invalid sharding rules: 2,800 cases.  ``SHARDY_DIFFERENTIAL_SCALE=10`` multiplies them;
``benchmarks/differential_long.py`` runs the long version outside pytest.
"""
from __future__ import annotations

import collections
import os
import random
import re

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from jaxlib_worker import JaxlibWorker

import shardy_py  # noqa: E402
from shardy_py import strategies as sst  # noqa: E402
from shardy_py.verify import verify as verify_module  # noqa: E402

SCALE = float(os.environ.get("SHARDY_DIFFERENTIAL_SCALE", "1"))
settings.register_profile("shardy-differential", derandomize=True, database=None, deadline=None,
                          suppress_health_check=list(HealthCheck), print_blob=True)
BASE = settings.get_profile("shardy-differential")
#: Cases compared per test, filled in as the tests run.
CASES: collections.Counter[str] = collections.Counter()

#: What the C++ Shardy in jaxlib 0.10.2 says for each rule (its first error).
CPP_MESSAGES: dict[str, str] = {
    "B1": r"axis size must be at least 1", "B2": r"device id must be non-negative",
    "B3": r"axes is empty and device_ids has more than one element", "B4": r"duplicate axis name",
    "B5": r"total product of axis sizes must match total number of device ids",
    "B6": r"sorted device ids must be iota", "B9": r"unknown axis name", "B10": r"duplicate axis ref",
    "B11": r"two consecutive sub-axes can be merged", "B12": r"replicated axes are not ordered w\.r\.t\. mesh",
    "B13": r"unreduced axes are not ordered w\.r\.t\. mesh", "B14": r"both sub-axis and full-axis are used",
    "B15": r"sub-axis pre-size must be at least 1", "B16": r"sub-axis sizes must be greater than 1",
    "B17": r"doesn't divide the size of the full axis", "B18": r"sub-axis size is equal to the full axis size",
    "B19": r"overlapping sub-axes", "B21": r"is empty and closed but has a priority", "B22": r"unknown mesh",
    "B23": r"a (maximal|single-device) sharding can only have a sharding with rank 0",
    "B27": r"sharding doesn't match tensor rank", "B32": r"shardings don't match number of values",
    "B34": r"number of operands and mappings must match", "B35": r"number of results and mappings must match",
    "B38": r"mapping rank must match", "B39": r"dim mapping must have at least one factor",
    "B40": r"expecting factor indices to be within", "B41": r"cannot reuse factors for the same tensor value",
    "B42": r"dim mapping can't have a factor of size 1", "B43": r"that isn't used in operand and result mappings",
    "B44": r"indices of special factors must be (sorted|unique)|index must be less than",
    "B45": r"a factor can only be in one of the reduction, need replication, or permutation",
    "B46": r"indices of special factors must be (sorted|unique)|index must be less than",
    "B47": r"reduction factor cannot be in result mappings", "B49": r"propagation edges have negative step index",
    "B50": r"propagation edges have duplicate step index", "B51": r"a source that is the same as a target",
    "B52": r"propagation edges have duplicate targets", "B53": r"expected propagation edges attr to reference",
    "B55": r"expected axis ref to be in one of the meshes", "B56": r"expected a value ref to have an? \w+ index",
    "C19": r"is not divisible by the manual axes size", "C20": r"operand shape, corresponding sharding, and region",
    "C28": r"block argument to match the type of the corresponding operand",
    "C38": r"cannot specify `BOTH` as the direction", "C43": r"collective on operand without sharding",
    "C63": r"parameter list is empty",
}


def examples(n: int) -> settings:
    return settings(BASE, max_examples=max(1, int(n * SCALE)))


class Cpp:
    """jaxlib's MLIR (with the sdy dialect) in a child process (``jaxlib_worker``), reused for every
    case.  jaxlib 0.12 dies on some drawn inputs (e.g. ``sdy.propagation_edges`` on an
    ``sdy.data_flow_edge``, a SIGSEGV while parsing): such a case cannot be compared; ours must still
    answer it without an exception, and the example is rejected (``hypothesis.reject``)."""

    def __init__(self) -> None:
        self.worker = JaxlibWorker()

    def module(self, text: str) -> tuple[bool, str]:
        """(accepted, printed text or the error message)."""
        answer = self.worker.call("module", text=text)
        self._skip_if_crashed(answer, text)
        return answer["ok"], answer.get("pretty") if answer["ok"] else answer["error"]

    def attribute(self, text: str) -> tuple[bool, str]:
        answer = self.worker.call("attribute", text=text)
        self._skip_if_crashed(answer, text)
        return answer["ok"], answer.get("pretty") if answer["ok"] else answer["error"]

    @staticmethod
    def _skip_if_crashed(answer: dict, text: str) -> None:
        if "crashed" in answer or "timeout" in answer:
            ours(text)  # ours answers without raising, whatever jaxlib did
            CASES["jaxlib crashed (not compared)"] += 1
            reject()


@pytest.fixture(scope="module")
def cpp() -> Cpp:
    pytest.importorskip("jax", reason="the oracle is MLIR in jaxlib 0.12 (pip install 'jax==0.12.0.1')")
    c = Cpp()
    yield c
    c.worker.close()


def ours(text: str) -> tuple[bool, str]:
    """shardy_py's verdict and print, in the shape of ``Cpp.module``."""
    try:
        m = shardy_py.parse(text)
    except shardy_py.ParseError as e:
        return False, str(e)
    diags = verify_module(m)
    if diags:
        return False, str(diags[0])
    return True, str(m)


def first_error_line(message: str) -> int | None:
    """Line of the first C++ error (``"-":L:C`` in parse errors, ``loc("-":L:C)`` in verify errors)."""
    m = re.search(r'"-":(\d+):\d+', message)
    return int(m.group(1)) if m else None


def first_error_message(message: str) -> str:
    """The text of the first C++ error line."""
    lines = [ln for ln in message.splitlines() if ln.startswith("error:")]
    return lines[0] if lines else message


def assert_cpp_rejects_for(cpp: Cpp, text: str, rule: str, line: int) -> None:
    ok, message = cpp.module(text)
    assert not ok, f"C++ accepts a module breaking {rule}:\n{text}"
    assert first_error_line(message) == line, (rule, message)
    assert re.search(CPP_MESSAGES[rule], first_error_message(message)), (rule, message)


# -- valid modules ---------------------------------------------------------------------------

@examples(700)
@given(text=sst.module_texts())
def test_valid_modules_agree(cpp: Cpp, text: str) -> None:
    CASES["valid modules"] += 1
    ok, printed = cpp.module(text)
    assert ok, f"C++ Shardy rejects a module drawn from modules():\n{text}\n{printed}"
    mine_ok, mine = ours(text)
    assert mine_ok, mine
    assert mine == printed


@examples(200)
@given(text=sst.module_texts(reductions=sst.REDUCTIONS))
def test_reduction_kind_modules_agree(cpp: Cpp, text: str) -> None:
    """``unreduced=max{..}``/``min``, ``sdy.all_reduce max`` and ``sdy.reduce_scatter min``: jaxlib
    0.12 has them (0.10.2 did not), so the modules are compared as drawn."""
    CASES["modules with reduction kinds"] += 1
    ok, printed = cpp.module(text)
    assert ok, f"C++ Shardy rejects\n{text}\n{printed}"
    assert ours(text) == (True, printed)


# -- invalid and mutated modules -------------------------------------------------------------

@examples(300)
@given(bad=sst.invalid_modules())
def test_invalid_modules_agree(cpp: Cpp, bad: sst.InvalidModule) -> None:
    CASES["invalid modules"] += 1
    assert_cpp_rejects_for(cpp, bad.text, bad.rule, bad.line)
    mine_ok, _ = ours(bad.text)
    assert not mine_ok


#: Tokens a mutation may change (numbers, axis names, ``?``, priorities) ...
MUTABLE = re.compile(r'\d+|"[^"]*"|\?|p\d+')
#: ... unless inside what shardy_py deliberately does not check: types, SSA names, symbols, op names,
#: dense literals (their values and the element type are not sdy's business).
FROZEN = re.compile(r'tensor<[^>]*>|%[\w#]+(?::\d+)?|@[\w."-]+|<"[^"]*">|dense<[^>]*>')


def mutate(text: str, rnd: random.Random) -> str:
    """``text`` with one sdy token replaced (numbers by small sizes, names by other axis names, ...)."""
    frozen = [(m.start(), m.end()) for m in FROZEN.finditer(text)]
    tokens = [m for m in MUTABLE.finditer(text) if not any(a <= m.start() < b for a, b in frozen)]
    tok = rnd.choice(tokens)
    s = tok.group()
    if s.isdigit():
        new = str(rnd.choice([0, 1, 2, 3, 4, 6, 8, 16]))
    elif s.startswith('"'):
        new = rnd.choice(['"x"', '"y"', '"z"', '"a"', '"data"', '"model"'])
    else:  # "?" or a priority
        new = rnd.choice(["", "p0", "p3"])
    return text[:tok.start()] + new + text[tok.end():]


def test_edges_inside_edge_lists_are_checked(cpp: Cpp) -> None:
    """B49-B52 hold for each element of ``sdy.*_propagation_edges`` too (found by mutated drawn modules)."""
    text = ('sdy.mesh @m = <["x"=4]>\nfunc.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n'
            '  %0 = sdy.named_computation<"f">(%arg0) (%arg1: tensor<8xf32>) {\n    sdy.return %arg1 : tensor<8xf32>\n'
            '  } {sdy.block_arg_propagation_edges = [#sdy.propagation_edges<[{step-0 = [{"x" = operand-0 -> '
            '[operand-0]}]}]>]} : (tensor<8xf32>) -> tensor<8xf32>\n  return %0 : tensor<8xf32>\n}\n')
    assert_cpp_rejects_for(cpp, text, "B51", 5)
    mine_ok, mine = ours(text)
    assert not mine_ok and mine.startswith("5:"), mine


EDGE_LIST_OP = ('sdy.mesh @m = <["x"=4]>\nfunc.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n'
                '  %0 = stablehlo.negate %arg0 {sdy.result_propagation_edges = [\n{}\n  ]} : tensor<8xf32>\n'
                '  return %0 : tensor<8xf32>\n}\n')


def test_edge_list_errors_are_at_the_failing_element(cpp: Cpp) -> None:
    """Line and column of the C++ error: the '<' of the failing element, here the second, on line 5."""
    good = '    #sdy.propagation_edges<[{step-0 = [{"x" = operand-0 -> [result-0]}]}]>,'
    bad = '    #sdy.propagation_edges<[{step-2 = [{"x" = result-0 -> [operand-0, operand-0]}]}]>'
    text = EDGE_LIST_OP.replace("{}", good + "\n" + bad)
    ok, message = cpp.module(text)
    assert not ok and re.search(r'"-":5:27: .*' + CPP_MESSAGES["B52"], message), message
    assert str(verify_module(shardy_py.parse(text))[0]).startswith("5:27: error: ")


def test_respaced_edge_lists_print_as_the_cpp_does(cpp: Cpp) -> None:
    element = '#sdy.propagation_edges< [ {step-0 = [{"x" = operand-0 -> [result-0]}]} ]>'
    text = EDGE_LIST_OP.replace("{}", f"  {element}  ,\n{element}")
    ok, printed = cpp.module(text)
    assert ok, printed
    assert ours(text) == (True, printed)


@examples(400)
@given(text=sst.module_texts(), seed=st.integers(0, 2**32 - 1))
def test_mutated_modules_agree(cpp: Cpp, text: str, seed: int) -> None:
    CASES["mutated modules"] += 1
    mutant = mutate(text, random.Random(seed))
    ok, printed = cpp.module(mutant)
    try:
        m = shardy_py.parse(mutant)
        diags = verify_module(m)
        mine_ok, line = not diags, diags[0].line if diags else None
    except shardy_py.ParseError as e:
        mine_ok, line = False, e.line
    assert mine_ok == ok, f"verdicts differ on\n{mutant}\nC++: {printed}"
    if ok:
        assert str(m) == printed
    else:
        assert line == first_error_line(printed), f"{mutant}\nC++: {printed}"


# -- attributes ------------------------------------------------------------------------------

def assert_same_print(cpp: Cpp, attr, kind: str) -> None:
    """Both sides accept the standalone attribute and print it the same."""
    CASES[kind] += 1
    text = str(attr)
    ok, printed = cpp.attribute(text)
    assert ok, f"C++ rejects {text}: {printed}"
    assert str(shardy_py.parse_attribute(text)) == printed


@examples(300)
@given(sharding=st.tuples(sst.meshes(), st.integers(0, 4), st.sampled_from([None, "m", "mesh-1"])).flatmap(
    lambda t: sst.tensor_shardings(t[0], t[1], mesh_ref=t[2])))
def test_standalone_shardings_agree(cpp: Cpp, sharding) -> None:
    assert_same_print(cpp, sharding, "shardings")


@examples(150)
@given(rule=sst.op_sharding_rules(operand_ranks=(2, 1), result_ranks=(3,)))
def test_sharding_rules_agree(cpp: Cpp, rule) -> None:
    assert_same_print(cpp, rule, "sharding rules")


@examples(100)
@given(edges=sst.meshes(min_axes=1).flatmap(lambda m: sst.propagation_edges(m, 3, 2)))
def test_propagation_edges_agree(cpp: Cpp, edges) -> None:
    assert_same_print(cpp, edges, "propagation edges")


# -- invalid attributes ----------------------------------------------------------------------

def assert_both_reject(cpp: Cpp, bad: sst.InvalidAttribute, kind: str) -> None:
    """Both sides reject the module using the attribute; the C++ at its line, for its rule."""
    CASES[kind] += 1
    assert_cpp_rejects_for(cpp, bad.module, bad.rule, bad.line)
    assert not ours(bad.module)[0]


@examples(150)
@given(bad=sst.invalid_meshes())
def test_invalid_meshes_agree(cpp: Cpp, bad: sst.InvalidAttribute) -> None:
    ok, message = cpp.attribute(bad.text)
    assert not ok and re.search(CPP_MESSAGES[bad.rule], message), (bad, message)
    assert_both_reject(cpp, bad, "invalid meshes")


@examples(300)
@given(data=st.data())
def test_invalid_tensor_shardings_agree(cpp: Cpp, data: st.DataObject) -> None:
    mesh = data.draw(sst.meshes())
    rank = data.draw(st.integers(0, 3))
    bad = data.draw(sst.invalid_tensor_shardings(mesh, rank, mesh_ref=data.draw(st.sampled_from(["m", None]))))
    assert_both_reject(cpp, bad, "invalid shardings")


@examples(200)
@given(data=st.data())
def test_invalid_op_sharding_rules_agree(cpp: Cpp, data: st.DataObject) -> None:
    ins = data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=3))
    outs = data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=2))
    bad = data.draw(sst.invalid_op_sharding_rules(ins, outs))
    assert_both_reject(cpp, bad, "invalid sharding rules")


def test_differential_case_count() -> None:
    """CI compares at least 2,000 cases (skipped when only some of the tests above ran)."""
    if len(CASES) < 10:
        pytest.skip(f"only {sorted(CASES)} ran")
    assert sum(CASES.values()) >= 2000 * min(SCALE, 1), dict(CASES)

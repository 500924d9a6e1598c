"""``interpreter.run_parallel``'s verifier (``RunParallelOp::verify`` and its ODS attribute constraints in
StableHLO's ``stablehlo/reference/InterpreterOps.cpp``/``.td``), run on the op kept as written.  The
messages and places are those of StableHLO's ``ops_interpreter.mlir`` annotations (score.py's ops_reject
row); jaxlib 0.12 registers no ``interpreter`` dialect, so it accepts every one of them (pinned below)."""
from __future__ import annotations

import pytest
from jaxlib_worker import shared_worker

import shardy_py

FUNCS = """module {
  func.func @foo(%arg0: tensor<i64>) -> tensor<i64> {
    func.return %arg0 : tensor<i64>
  }
  func.func @queue() -> tensor<i64> {
    %0 = stablehlo.constant dense<1> : tensor<i64>
    func.return %0 : tensor<i64>
  }
  func.func @two() -> (tensor<i64>, tensor<i64>) {
    %0 = stablehlo.constant dense<1> : tensor<i64>
    func.return %0, %0 : tensor<i64>, tensor<i64>
  }
  func.func @token() -> !stablehlo.token {
    %0 = stablehlo.after_all : !stablehlo.token
    func.return %0 : !stablehlo.token
  }
  func.func @main(%x: tensor<i64>) {
    OP
    func.return
  }
}
"""
RUN = '"interpreter.run_parallel"'


def _with(op: str) -> str:
    return FUNCS.replace("OP", op)


@pytest.mark.parametrize(("op", "message"), [
    (f"{RUN}() {{programs = []}} : () -> ()", "`programs` attribute cannot be empty"),
    (f"{RUN}() {{programs = [[]]}} : () -> ()", "`programs` attribute cannot be empty"),
    (f"{RUN}(%x, %x) {{programs = [[@foo], [@foo, @foo]]}} : (tensor<i64>, tensor<i64>) -> ()",
     "Sizes of second dimension of `programs` should all match 1 but got 2"),
    (f"{RUN}() {{programs = [[@bar]]}} : () -> ()", 'Function "bar" not found'),
    (f"{RUN}(%x, %x) {{programs = [[@foo]]}} : (tensor<i64>, tensor<i64>) -> tensor<i64>",
     "Number of inputs (2) should match the sum of the number of inputs of all programs (1)"),
    (f"{RUN}(%x) {{programs = [[@foo]]}} : (tensor<i64>) -> ()",
     "Number of results (0) should match the sum of the number of results of all programs (1)"),
    (f"{RUN}(%x) {{infeed = [], programs = [[@foo]]}} : (tensor<i64>) -> tensor<i64>",
     "infeed attribute is optional or should not be empty"),
    (f"{RUN}(%x) {{infeed = [@bar], programs = [[@foo]]}} : (tensor<i64>) -> tensor<i64>", 'Function "bar" not found'),
    (f"{RUN}(%x) {{infeed = [@two], programs = [[@foo]]}} : (tensor<i64>) -> tensor<i64>",
     'Function "two" should return 1 tensor but returns 2'),
    (f"{RUN}(%x) {{infeed = [@token], programs = [[@foo]]}} : (tensor<i64>) -> tensor<i64>",
     "Function \"token\" should return a tensor type, but instead returns '!stablehlo.token'"),
    (f"{RUN}() : () -> ()", "'interpreter.run_parallel' op requires attribute 'programs'"),
    (f"{RUN}(%x) {{programs = [@foo]}} : (tensor<i64>) -> tensor<i64>",
     "'interpreter.run_parallel' op attribute 'programs' failed to satisfy constraint: Array of "
     "FlatSymbolRefArrayAttr"),
    (f"{RUN}(%x) {{infeed = @queue, programs = [[@foo]]}} : (tensor<i64>) -> tensor<i64>",
     "'interpreter.run_parallel' op attribute 'infeed' failed to satisfy constraint: flat symbol ref array "
     "attribute"),
])
def test_rejected_at_the_op(op: str, message: str) -> None:
    assert [(d.line, d.column, d.message) for d in shardy_py.verify(shardy_py.parse(_with(op)))] == [
        (18, 5, message)]


@pytest.mark.parametrize("op", [
    f"{RUN}(%x) {{programs = [[@foo]]}} : (tensor<i64>) -> tensor<i64>",
    f"{RUN}(%x, %x) {{infeed = [@queue], programs = [[@foo], [@foo]]}} : (tensor<i64>, tensor<i64>) -> "
    "(tensor<i64>, tensor<i64>)",
    f"%r:2 = {RUN}() {{programs = [[@two]]}} : () -> (tensor<i64>, tensor<i64>)",
])
def test_valid_run_parallel_verifies_clean(op: str) -> None:
    assert shardy_py.verify(shardy_py.parse(_with(op))) == []


def test_jaxlib_does_not_register_the_interpreter_dialect() -> None:
    """jaxlib 0.12 (unregistered dialects allowed) accepts what StableHLO's verifier rejects: the reason its
    ops_reject score misses the ops_interpreter.mlir chunks."""
    pytest.importorskip("jax", reason="the oracle is jaxlib 0.12 (pip install 'jax==0.12.0.1')")
    answer = shared_worker().call("module", text=_with(f"{RUN}() {{programs = [[@bar]]}} : () -> ()"))
    assert answer["ok"]

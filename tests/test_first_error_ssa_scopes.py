"""A forward reference to a slot of a name that its region defines, still open when the region ends, is never
resolved (issue 26, ``syntax.ssa_uses.SsaUses.drop_scope``).

MLIR's parser keeps one table of names per module; at the end of a region it forgets each name the region
defined, every slot of it.  A use of ``%0#1`` written before ``%0`` (one result) is defined in the same
region is a forward reference to slot 1 of ``%0``: when the region ends it is dropped with ``%0``, and no later
definition (another function's ``%0:2``) resolves it: "use of undeclared SSA value name" at the use, at the end
of the module.  Before, the later definition resolved it (a type mismatch reported there, or a use outside its
region).  A forward reference to a name the region does not define stays open and a later definition resolves
it, as before.  The messages, lines and columns are jaxlib 0.12's, and the last tests ask jaxlib itself.
"""
from __future__ import annotations

import pytest
from first_error_helpers import jaxlib_first_error, our_first_error

import shardy_py

#: A function using ``{use}`` before its ``%0`` (one result), then a function defining ``%0:2`` of ``{t}``.
_TWO_FUNCTIONS = ("func.func @a(%a: tensor<f32>) -> tensor<f32> {{\n  {use}\n"
                  "  %0 = stablehlo.abs %a : tensor<f32>\n  return %0 : tensor<f32>\n}}\n"
                  "func.func @b(%a: {t}) -> {t} {{\n  %0:2 = stablehlo.optimization_barrier %a, %a : {t}, {t}\n"
                  "  return %0#1 : {t}\n}}\n")

#: name -> (text, jaxlib 0.12's line, column and message, which are ours too).
CASES = {
    "slot_of_a_result_used_in_the_op_s_own_region": (
        'func.func @a(%a: tensor<f32>) -> tensor<f32> {\n  %0 = "stablehlo.abs"(%a) ({\n'
        '    "stablehlo.return"(%0#1) : (tensor<f32>) -> ()\n  }) : (tensor<f32>) -> tensor<f32>\n'
        "  return %0 : tensor<f32>\n}\nfunc.func @b(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %0:2 = stablehlo.optimization_barrier %a, %a : tensor<4xf32>, tensor<4xf32>\n"
        "  return %0#1 : tensor<4xf32>\n}\n", 3, 24, "use of undeclared SSA value name"),
    "slot_used_before_its_name_and_defined_with_another_type_later": (
        _TWO_FUNCTIONS.format(use="%1 = stablehlo.add %0#1, %a : tensor<f32>", t="tensor<4xf32>"), 2, 22,
        "use of undeclared SSA value name"),
    "slot_used_before_its_name_and_defined_with_its_type_later": (
        _TWO_FUNCTIONS.format(use="%1 = stablehlo.add %0#1, %a : tensor<f32>", t="tensor<f32>"), 2, 22,
        "use of undeclared SSA value name"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_first_error_is_where_mlir_stops(name: str) -> None:
    text, line, column, message = CASES[name]
    assert our_first_error(text) == (line, column, message)


def test_a_name_the_region_does_not_define_is_resolved_by_a_later_function() -> None:
    """(MLIR resolves it, and its verifier rejects the use: a value defined outside the region.)"""
    text = ("func.func @a(%a: tensor<f32>) -> tensor<f32> {\n  %1 = stablehlo.add %x, %a : tensor<f32>\n"
            "  return %a : tensor<f32>\n}\nfunc.func @b(%a: tensor<f32>) -> tensor<f32> {\n"
            "  %x = stablehlo.abs %a : tensor<f32>\n  return %x : tensor<f32>\n}\n")
    errors = shardy_py.verify(shardy_py.parse(text))
    assert [(e.line, e.column, e.message) for e in errors][:1] == [
        (2, 8, "'stablehlo.add' op using value defined outside the region")]



@pytest.mark.parametrize("name", sorted(CASES))
def test_jaxlib_stops_at_the_same_place(name: str) -> None:
    text, line, column, message = CASES[name]
    assert jaxlib_first_error(text) == (line, column, message)


#: A forward reference to slot 0 of a name (``%arg0#0``) at the module's level, then a function whose entry
#: argument has that name: MLIR's parser meets the reference in scope (a function's body is no isolated name
#: scope while it is parsed) and rejects the argument there.
_SLOT_ZERO_THEN_ARGUMENT = ('sdy.mesh @m = <["a"=2]>\n'
                            "%0 = sdy.all_slice [{}] %arg0#0 out_sharding=<@m, [{}]> : tensor<8xf32>\n"
                            "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
                            "  return %arg0 : tensor<8xf32>\n}\n")


@pytest.mark.parametrize("fast_paths", [True, False])
def test_an_entry_argument_named_as_a_forward_slot_zero_is_in_use(fast_paths: bool) -> None:
    assert our_first_error(_SLOT_ZERO_THEN_ARGUMENT, fast_paths) == (
        3, 17, "region entry argument '%arg0' is already in use (previously referenced at 2:25)")


def test_jaxlib_rejects_the_entry_argument_named_as_a_forward_slot_zero() -> None:
    assert jaxlib_first_error(_SLOT_ZERO_THEN_ARGUMENT) == (3, 17, "region entry argument '%arg0' is already in use")

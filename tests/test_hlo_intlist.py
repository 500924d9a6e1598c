"""Device lists as text: ``format_int_list`` prints exactly what ``",".join(map(str, ...))`` would,
on every path (short lists, one-word cells below 10**7, wide cells, numbers it leaves to Python)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from shardy_py.hlo.intlist import format_int_list, parse_int_list


def python_text(values) -> str:
    return ",".join(map(str, np.asarray(values).reshape(-1).tolist()))


def test_short_list():
    assert format_int_list(np.array([0, 4, 1, 5])) == "0,4,1,5"


def test_empty_list():
    assert format_int_list(np.array([], dtype=np.int64)) == ""


def test_array_is_read_in_c_order():
    assert format_int_list(np.arange(6).reshape(2, 3).T) == "0,3,1,4,2,5"


@pytest.mark.parametrize("value", [0, 9, 10, 99, 999, 1000, 9999, 10000, 10001, 99999, 123456, 9_999_999])
def test_every_digit_count_of_the_one_word_cells(value):
    values = np.full(100, value)
    values[::3] = 7
    assert format_int_list(values) == python_text(values)


@pytest.mark.parametrize("value", [10_000_000, 12_345_678_901, 999_999_999_999_999_999])
def test_wide_cells_for_ids_of_ten_million_and_more(value):
    values = np.array([value, 0, 5, value - 1] * 20, dtype=np.int64)
    assert format_int_list(values) == python_text(values)


def test_negative_and_huge_numbers_fall_back_to_python():
    values = np.array([-3] + list(range(80)) + [2**63 - 1], dtype=np.int64)
    assert format_int_list(values) == python_text(values)


def test_a_million_device_permutation():
    devices = np.arange(1 << 20).reshape(16, 16, 16, 16, 16).transpose(4, 0, 3, 1, 2)
    assert format_int_list(devices) == python_text(devices)


@settings(max_examples=150, deadline=None)
@given(hnp.arrays(np.int64, st.integers(0, 300),
                  elements=st.one_of(st.integers(0, 10**7 + 10), st.integers(0, 10**18 - 1))))
def test_matches_python_formatting(values):
    assert format_int_list(values) == python_text(values)


@settings(max_examples=100, deadline=None)
@given(hnp.arrays(np.int64, st.integers(1, 300), elements=st.integers(0, 2**40)))
def test_parse_reads_back_what_format_prints(values):
    assert np.array_equal(parse_int_list(format_int_list(values)), values)


@pytest.mark.parametrize("text", ["0,9223372036854775808", "0,-9223372036854775809", "1," + "9" * 5000])
def test_a_number_past_int64_is_an_error_not_a_clamped_value(text: str) -> None:
    """numpy's ``fromstring`` clamps what overflows int64 (9223372036854775808 read as 9223372036854775807): the
    list would silently hold another device id."""
    with pytest.raises(ValueError, match="does not fit in a 64-bit integer"):
        parse_int_list(text)


def test_int64_s_extremes_are_read() -> None:
    assert parse_int_list("9223372036854775807,-9223372036854775808").tolist() == [(1 << 63) - 1, -(1 << 63)]

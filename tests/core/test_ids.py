"""core.ids.parse_id: the one parser of ids that clients send."""

from __future__ import annotations

from typing import Any

import pytest

from core.ids import MAX_ID, parse_id


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (5, 5),
        ("5", 5),
        ("05", 5),
        (MAX_ID, MAX_ID),
        (str(MAX_ID), MAX_ID),
        ("9" * 19, None),
        ("1" + "0" * 19, None),
        (True, None),
        (False, None),
        (0, None),
        ("0", None),
        (-5, None),
        ("-5", None),
        ("+5", None),
        ("5.0", None),
        (5.0, None),
        ("5_0", None),
        (" 5", None),
        ("5 ", None),
        ("5\n", None),
        ("٥", None),
        ("", None),
        (2**63, None),
        (None, None),
        ([5], None),
        ({"id": 5}, None),
    ],
)
def test_parse_id_takes_positive_ascii_digits_only(value: Any, expected: int | None) -> None:
    assert parse_id(value) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("conv_42", 42),
        ("42", 42),
        (42, 42),
        (f"conv_{MAX_ID}", MAX_ID),
        ("conv_", None),
        ("conv_0", None),
        ("conv_-1", None),
        ("conv_ 42", None),
        ("conv_42\n", None),
        ("conv_conv_42", None),
        ("CONV_42", None),
        ("conv42", None),
        ("chat_42", None),
        (f"conv_{2**63}", None),
        (True, None),
    ],
)
def test_parse_id_with_a_prefix_takes_it_once_or_not_at_all(
    value: Any, expected: int | None
) -> None:
    assert parse_id(value, prefix="conv_") == expected


def test_without_a_prefix_a_prefixed_id_is_not_an_id() -> None:
    assert parse_id("conv_42") is None
    assert parse_id("conv_42", prefix=None) is None
    assert parse_id("conv_42", prefix="") is None

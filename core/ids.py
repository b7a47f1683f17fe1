"""Database ids as clients send them: in a URL path, a query string or a JSON body."""

from __future__ import annotations

import re
from typing import Any

__all__ = ["MAX_ID", "parse_id"]

# Ids are bigint columns: a larger number cannot be an id, and PostgreSQL would refuse the
# literal (an overflow error, not an empty result).
MAX_ID = 2**63 - 1
_DIGITS = re.compile(r"[0-9]{1,19}")


def parse_id(value: Any, *, prefix: str | None = None) -> int | None:
    """The positive id ``value`` names, or None when it cannot name one.

    Accepted: an int (a bool is not an id), or a string of ASCII digits with nothing around
    them, optionally after ``prefix`` (``parse_id("conv_42", prefix="conv_") == 42``; "42" is
    accepted too). ``int()`` alone would also take " 7 ", "7\\n" (a path ending in %0A), "+7",
    "7_0" and non-ASCII digits such as "٧"; none of them is an id here. Anything outside
    1..MAX_ID is None, so a huge number answers like a missing row.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, str):
        if prefix and value.startswith(prefix):
            value = value[len(prefix) :]
        if not _DIGITS.fullmatch(value):
            return None
        number = int(value)
    else:
        return None
    return number if 0 < number <= MAX_ID else None

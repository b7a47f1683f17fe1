"""One fixed split of every labelled set into a tuning part and a holdout part.

A text belongs to the holdout part when a salted SHA-256 of it falls in the last three tenths.
The split depends on the text alone, so it is the same on every machine, for every set, and
before anyone looks at the data. Training, cross-validation and threshold choice read the
tuning part only; the holdout part is scored once, by the shipped artifact, in
`benchmarks/moderation_eval.py`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from typing import Literal, TypeVar

Part = Literal["tuning", "holdout"]
HOLDOUT_TENTHS = 3
_SALT = b"nova-moderation-split/1:"

T = TypeVar("T")


def part_of(text: str) -> Part:
    digest = hashlib.sha256(_SALT + text.encode("utf-8", "surrogatepass")).digest()
    return "holdout" if int.from_bytes(digest[:8], "big") % 10 < HOLDOUT_TENTHS else "tuning"


def split(items: Iterable[T], text_of: Callable[[T], str]) -> tuple[list[T], list[T]]:
    """(tuning, holdout) of `items`, each keeping the input order."""
    tuning: list[T] = []
    holdout: list[T] = []
    for item in items:
        (holdout if part_of(text_of(item)) == "holdout" else tuning).append(item)
    return tuning, holdout

"""hypothesis-jsonschema 0.23.1 against hypothesis >= 6.170.10: restore ``many.more()``.

hypothesis 6.170.10 turned its private ``conjecture.utils.many`` into a context manager that
is iterated (``with many(...) as elements: for _ in elements:``) and dropped ``more()``.
hypothesis-jsonschema (which schemathesis 3.x uses to generate every object) still calls
``elements.more()``, so every schema with an object fails with
``AttributeError: 'many' object has no attribute 'more'``.

The real fix is pinning ``hypothesis<6.170.10`` in pyproject.toml's dev extras (reported); until
then, :func:`install` gives hypothesis-jsonschema a ``many`` with the old interface, driving
the new one exactly as the old loop did. It does nothing on a hypothesis that still has
``more()``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import hypothesis.internal.conjecture.utils as cu
import hypothesis_jsonschema._from_schema as from_schema

__all__ = ["install"]


class _OldStyleMany:
    """``while elements.more(): ... elements.reject()`` on top of the iterated ``many``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._many = cu.many(*args, **kwargs)
        self._many.__enter__()
        self._elements: Iterator[None] = iter(self._many)
        self._open = True

    def more(self) -> bool:
        if not self._open:
            return False
        try:
            next(self._elements)
        except StopIteration:
            self._open = False
            self._many.__exit__(None, None, None)
            return False
        return True

    def reject(self, why: str | None = None) -> None:
        self._many.reject(why)


class _CompatModule:
    """Stands in for ``conjecture.utils`` inside hypothesis_jsonschema only."""

    many = _OldStyleMany

    def __getattr__(self, name: str) -> Any:
        return getattr(cu, name)


def install() -> None:
    if hasattr(cu.many, "more"):
        return
    from_schema.cu = _CompatModule()  # type: ignore[assignment]

"""Regular expressions that skip the texts they cannot match.

Python's `re` tries a pattern at every position of a text, even when the text holds none of the
words the pattern is made of. The engine runs several hundred patterns over every text, and again
over every sentence of a flagged one, and nearly all of them find nothing. `screened()` compiles
a pattern as `re.compile` does and reads, from its syntax tree, literal strings of which every
match must contain at least one: "kill" or "murder" for `\\b(?:kill|murder)(?:s|ed)?\\b`. One
Aho-Corasick pass over a text (pyahocorasick) finds which literals of all screened patterns the
text holds, once per text; a pattern none of whose literals is there answers as `re` would on a
text without a match, without running.

A pattern always runs when no such strings can be read from it, or when one of them is shorter
than `MIN_LITERAL` characters (it would be found in almost any text): case-insensitive patterns,
patterns that can match without any fixed text (`\\w+ \\1`), back-references. The screen never
changes a result, only skips work whose result is known (tests hold every engine pattern to it).
"""

from __future__ import annotations

import re
import re._constants as sre
import re._parser as sre_parse
import sys
import threading
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

import ahocorasick

# Literal strings shorter than this are in nearly every text: a pattern that needs one runs.
MIN_LITERAL = 3
# Exact strings a part of a pattern is expanded into before it is read as a run of its own
# ("(?:an?|the) (?:man|woman)" -> 6 strings).
_MAX_EXACT = 64
# A character class read as its characters ("[sz]", "[- ]"), up to this many.
_MAX_CLASS = 12
_CASELESS = re.IGNORECASE | re.LOCALE

Strings = frozenset[str]


def _better(a: Strings | None, b: Strings | None) -> Strings | None:
    """The more selective of two requirements: longer shortest string (up to 4 characters),
    then fewer strings."""
    if a is None:
        return b
    if b is None:
        return a

    def key(s: Strings) -> tuple[int, int]:
        return min(min(map(len, s)), 4), -len(s)

    return a if key(a) >= key(b) else b


def _required(exact: set[str] | None) -> Strings | None:
    """Exact strings as a requirement: none when one of them is empty."""
    if not exact or "" in exact:
        return None
    return frozenset(exact)


def _class_chars(items: list[tuple[Any, Any]]) -> set[str] | None:
    chars: set[str] = set()
    for op, arg in items:
        if op is sre.LITERAL:
            chars.add(chr(arg))
        elif op is sre.RANGE and arg[1] - arg[0] < _MAX_CLASS:
            chars.update(chr(c) for c in range(arg[0], arg[1] + 1))
        else:
            return None  # negated, a category (\w, \d) or a wide range
    return chars if len(chars) <= _MAX_CLASS else None


def _sequence(items: Any) -> tuple[set[str] | None, Strings | None]:
    """(every exact string the sequence matches, or None when unbounded; literal strings one of
    which each of its matches contains, or None)."""
    whole: set[str] | None = {""}
    run: set[str] = {""}
    best: Strings | None = None
    for op, arg in items:
        exact, need = _node(op, arg)
        best = _better(best, need)
        if whole is not None:
            bounded = exact is not None and len(whole) * len(exact) <= _MAX_EXACT
            whole = {a + b for a in whole for b in exact} if bounded and exact is not None else None
        if exact is not None and len(run) * len(exact) <= _MAX_EXACT:
            run = {a + b for a in run for b in exact}
        else:
            # The run of fixed text ends here: what it spelt is required on its own.
            best = _better(best, _required(run))
            run = set(exact) if exact is not None else {""}
    return whole, _better(best, _required(run))


def _node(op: Any, arg: Any) -> tuple[set[str] | None, Strings | None]:
    if op is sre.LITERAL:
        return {chr(arg)}, None
    if op is sre.IN:
        chars = _class_chars(arg)
        return (chars, None) if chars else (None, None)
    if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
        return {""}, None  # zero-width: they narrow where a match is, add no text to it
    if op is sre.SUBPATTERN:
        _group, add_flags, _del_flags, sub = arg
        if add_flags & _CASELESS:
            return None, None
        return _sequence(sub.data)
    if op is sre.ATOMIC_GROUP:
        return _sequence(arg.data)
    if op is sre.BRANCH:
        exact: set[str] | None = set()
        need: Strings | None = frozenset()
        for alternative in arg[1]:
            alt_exact, alt_need = _sequence(alternative.data)
            if exact is not None:
                fits = alt_exact is not None and len(exact) + len(alt_exact) <= _MAX_EXACT
                exact = exact | alt_exact if fits and alt_exact is not None else None
            alt_need = _better(alt_need, _required(alt_exact))
            need = None if need is None or alt_need is None else need | alt_need
        return exact, need or None
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        low, high, sub = arg
        sub_exact, sub_need = _sequence(sub.data)
        if low == 0:
            optional = sub_exact | {""} if high == 1 and sub_exact is not None else None
            return optional, None
        need = _better(sub_need, _required(sub_exact))
        return (sub_exact if low == high == 1 else None), need
    # Any character, a negated literal, a category, a back-reference, a conditional group.
    return None, None


def required_literals(pattern: re.Pattern[str]) -> Strings | None:
    """Strings of which every match of `pattern` contains at least one (none contains
    another), or None when the pattern's syntax gives none."""
    if pattern.flags & _CASELESS:
        return None
    parsed = sre_parse.parse(pattern.pattern, pattern.flags)
    if parsed.state.flags & _CASELESS:
        return None
    need = _sequence(parsed.data)[1]
    if need is None:
        return None
    return frozenset(s for s in need if not any(o != s and o in s for o in need))


class _Literals:
    """Every screened pattern's literal strings, numbered, and the automaton that finds them."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self._built: Any = None
        self._built_size = -1
        self._lock = threading.Lock()

    def number(self, strings: Strings) -> frozenset[int]:
        with self._lock:
            for s in sorted(strings):
                self.ids.setdefault(s, len(self.ids))
            return frozenset(self.ids[s] for s in strings)

    def automaton(self) -> Any:
        built = self._built
        if built is not None and self._built_size == len(self.ids):
            return built
        with self._lock:
            if self._built is None or self._built_size != len(self.ids):
                automaton = ahocorasick.Automaton()
                for s, i in self.ids.items():
                    automaton.add_word(s, i)
                automaton.make_automaton()
                self._built, self._built_size = automaton, len(self.ids)
                found_in.cache_clear()
            return self._built


_LITERALS = _Literals()


@lru_cache(maxsize=2048)
def found_in(text: str) -> frozenset[int]:
    """The numbers of the screened patterns' literal strings that `text` holds."""
    return frozenset(i for _end, i in _LITERALS.automaton().iter(text))


class Screened:
    """A compiled pattern with the methods of `re.Pattern` the engine uses; each one runs the
    pattern only on text that holds one of its required literals. Matches are `re.Match`
    objects of the compiled pattern `raw`: `owns(match)` tells whether this pattern made one."""

    __slots__ = ("_need", "flags", "groupindex", "groups", "pattern", "raw")

    def __init__(self, raw: re.Pattern[str]) -> None:
        self.raw = raw
        self.pattern = raw.pattern
        self.flags = raw.flags
        self.groups = raw.groups
        self.groupindex = raw.groupindex
        need = required_literals(raw)
        usable = need is not None and min(map(len, need)) >= MIN_LITERAL
        self._need = _LITERALS.number(need) if usable and need is not None else None

    def __repr__(self) -> str:
        return f"screened({self.pattern!r})"

    @property
    def screens(self) -> bool:
        """Whether the screen can skip a text for this pattern (it has usable literals)."""
        return self._need is not None

    def may_match(self, text: str) -> bool:
        """False only when no match can be in `text`."""
        return self._need is None or not self._need.isdisjoint(found_in(text))

    def owns(self, match: re.Match[str]) -> bool:
        return match.re is self.raw

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.raw.search(text, pos, endpos) if self.may_match(text) else None

    def match(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.raw.match(text, pos, endpos) if self.may_match(text) else None

    def fullmatch(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.raw.fullmatch(text, pos, endpos) if self.may_match(text) else None

    def finditer(
        self, text: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[str]]:
        return self.raw.finditer(text, pos, endpos) if self.may_match(text) else iter(())

    def findall(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        return self.raw.findall(text, pos, endpos) if self.may_match(text) else []

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str, count: int = 0) -> str:
        return self.raw.sub(repl, text, count) if self.may_match(text) else text

    def subn(
        self, repl: str | Callable[[re.Match[str]], str], text: str, count: int = 0
    ) -> tuple[str, int]:
        return self.raw.subn(repl, text, count) if self.may_match(text) else (text, 0)

    def split(self, text: str, maxsplit: int = 0) -> list[str | Any]:
        return self.raw.split(text, maxsplit) if self.may_match(text) else [text]


def screened(pattern: str, flags: int = 0) -> Screened:
    """`re.compile(pattern, flags)`, screened by its required literals."""
    return Screened(re.compile(pattern, flags))

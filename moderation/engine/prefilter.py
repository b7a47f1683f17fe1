r"""Regular expressions that skip the texts they cannot match.

Python's `re` tries a pattern at every position of a text, even when the text holds none of the
words the pattern is made of. The engine runs several hundred patterns over every text, and again
over every sentence of a flagged one, and nearly all of them find nothing. `screened()` compiles
a pattern as `re.compile` does and reads, from its syntax tree, sets of literal strings such that
every match contains a string of each set: {"kill", "murder"} for `\b(?:kill|murder)(?:s|ed)?\b`;
{"how to"} and {" a bomb", " the bomb"} for `\bhow to\s+\w+ (?:a|the) bomb\b`. A pattern that is
one alternation is also read alternative by alternative. One Aho-Corasick pass over a text
(pyahocorasick) finds which strings of all screened patterns the text holds, once per text; a
pattern whose sets are not all met (or no alternative's) answers as `re` would on a text without
a match, without running.

A set with a string shorter than `MIN_LITERAL` characters is no screen (such strings are in
almost any text); a pattern with no other set always runs: case-insensitive patterns, patterns
that can match without any fixed text (`\w+`), back-references. The screen never changes a
result, only skips work whose result is known (tests hold every engine pattern to it).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import re._constants as sre
import re._parser as sre_parse
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import ahocorasick

# Literal strings shorter than this are in nearly every text: a set of strings with one is no
# screen.
MIN_LITERAL = 3
# Sets of strings a pattern is screened by (the most selective ones; each must be found).
MAX_SETS = 3
# Exact strings a part of a pattern is expanded into before it is read as a run of its own
# ("(?:an?|the) (?:man|woman)" -> 6 strings).
_MAX_EXACT = 64
# A character class read as its characters ("[sz]", "[- ]"), up to this many.
_MAX_CLASS = 12
_CASELESS = re.IGNORECASE | re.LOCALE

Strings = frozenset[str]


def _selectivity(strings: Strings) -> tuple[bool, int, int]:
    """How well a set of strings screens texts: usable at all (no string shorter than
    `MIN_LITERAL`), then a longer shortest string (up to 5 characters), then fewer strings."""
    shortest = min(map(len, strings))
    return shortest >= MIN_LITERAL, min(shortest, 5), -len(strings)


def _best(needs: list[Strings]) -> Strings | None:
    return max(needs, key=_selectivity) if needs else None


def _required(exact: set[str] | None) -> list[Strings]:
    """Exact strings as a requirement: none when one of them is empty."""
    if not exact or "" in exact:
        return []
    return [frozenset(exact)]


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


# A part of a pattern read: (every exact string it matches, or None when they are unbounded;
# sets of strings such that each of its matches contains one string of every set).
_Read = tuple[set[str] | None, list[Strings]]


def _sequence(items: Any) -> _Read:
    whole: set[str] | None = {""}
    run: set[str] = {""}
    needs: list[Strings] = []
    for op, arg in items:
        exact, item_needs = _node(op, arg)
        needs += item_needs
        if whole is not None:
            bounded = exact is not None and len(whole) * len(exact) <= _MAX_EXACT
            whole = {a + b for a in whole for b in exact} if bounded and exact is not None else None
        if exact is not None and len(run) * len(exact) <= _MAX_EXACT:
            run = {a + b for a in run for b in exact}
        else:
            # The run of fixed text ends here: what it spelt is required on its own.
            needs += _required(run)
            run = set(exact) if exact is not None else {""}
    return whole, needs + _required(run)


def _node(op: Any, arg: Any) -> _Read:
    if op is sre.LITERAL:
        return {chr(arg)}, []
    if op is sre.IN:
        return _class_chars(arg), []
    if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
        return {""}, []  # zero-width: they narrow where a match is, add no text to it
    if op is sre.SUBPATTERN:
        _group, add_flags, _del_flags, sub = arg
        return (None, []) if add_flags & _CASELESS else _sequence(sub.data)
    if op is sre.ATOMIC_GROUP:
        return _sequence(arg.data)
    if op is sre.BRANCH:
        # Every match is one alternative's: one set from each, put together, is required.
        exact: set[str] | None = set()
        union: set[str] | None = set()
        for alternative in arg[1]:
            alt_exact, alt_needs = _sequence(alternative.data)
            if exact is not None:
                fits = alt_exact is not None and len(exact) + len(alt_exact) <= _MAX_EXACT
                exact = exact | alt_exact if fits and alt_exact is not None else None
            best = _best(alt_needs + _required(alt_exact))
            union = None if union is None or best is None else union | best
        return exact, [frozenset(union)] if union else []
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        low, high, sub = arg
        sub_exact, sub_needs = _sequence(sub.data)
        if low == 0:
            return (sub_exact | {""} if high == 1 and sub_exact is not None else None), []
        return (sub_exact if low == high == 1 else None), sub_needs + _required(sub_exact)
    # Any character, a negated literal, a category, a back-reference, a conditional group.
    return None, []


@dataclass(frozen=True)
class Reading:
    """What a pattern's syntax says its matches contain: `needs`, sets of strings such that
    every match contains a string of each set; and for a pattern that is one alternation at its
    top (with whatever stands before and after it), `alternatives`, the sets of each alternative
    with those of the parts around it (a match is one alternative's). In a set no string holds
    another; the most selective sets come first, at most `limit` of them."""

    needs: tuple[Strings, ...] = ()
    alternatives: tuple[tuple[Strings, ...], ...] = ()


def read(pattern: re.Pattern[str], limit: int | None = None) -> Reading:
    """`pattern` parsed once and read (empty for a case-insensitive pattern)."""
    if pattern.flags & _CASELESS:
        return Reading()
    parsed = sre_parse.parse(pattern.pattern, pattern.flags)
    if parsed.state.flags & _CASELESS:
        return Reading()
    items = list(parsed.data)
    branches = [i for i, (op, arg) in enumerate(items) if _branch_of(op, arg) is not None]
    if len(branches) != 1:
        return Reading(_kept(_sequence(items)[1], limit))
    at = branches[0]
    branch = _branch_of(*items[at])
    assert branch is not None
    around = _sequence(items[:at])[1] + _sequence(items[at + 1 :])[1]
    # Each alternative is read once: its own sets, and its best set for the alternation's.
    alternatives: list[list[Strings]] = []
    union: set[str] | None = set()
    for alternative in branch:
        exact, needs = _sequence(alternative.data)
        needs += _required(exact)
        alternatives.append(needs + around)
        best = _best(needs)
        union = None if union is None or best is None else union | best
    whole = around + ([frozenset(union)] if union else [])
    return Reading(_kept(whole, limit), tuple(_kept(a, limit) for a in alternatives))


def required_literals(pattern: re.Pattern[str]) -> tuple[Strings, ...]:
    """`read(pattern).needs`, every set."""
    return read(pattern).needs


def _kept(needs: list[Strings], limit: int | None) -> tuple[Strings, ...]:
    """The most selective `limit` sets, each without strings that hold another of its set."""
    ranked = sorted(set(needs), key=lambda n: (_selectivity(n), sorted(n)), reverse=True)
    return tuple(
        frozenset(s for s in need if not any(o != s and o in s for o in need))
        for need in ranked[:limit]
    )


def _branch_of(op: Any, arg: Any) -> list[Any] | None:
    """The alternatives of an alternation, bare or in a group without flags."""
    if op is sre.BRANCH:
        return list(arg[1])
    if op is sre.SUBPATTERN and not arg[1] & _CASELESS and len(arg[3].data) == 1:
        inner_op, inner_arg = arg[3].data[0]
        return list(inner_arg[1]) if inner_op is sre.BRANCH else None
    return None


class _Readings:
    """Readings of the screened patterns, kept on disk between processes: reading several
    hundred syntax trees costs seconds at every start. The file is named by a digest of this
    module's source and of the Python version (whose parser the readings come from), so a change
    to either reads every pattern anew; in it each reading is found by a digest of its
    pattern and flags. A file that cannot be read or written is no error: patterns are read."""

    def __init__(self) -> None:
        self._known: dict[str, Any] | None = None
        self._used: dict[str, Any] = {}
        self._unsaved = False
        self._lock = threading.Lock()

    @staticmethod
    def path() -> Path:
        from .encoder import cache_dir

        source = Path(__file__).read_bytes() + sys.version.encode()
        return cache_dir() / f"prefilter-{hashlib.sha256(source).hexdigest()[:16]}.json"

    def _load(self) -> dict[str, Any]:
        if self._known is None:
            try:
                known = json.loads(self.path().read_text(encoding="utf-8"))
            except (OSError, ValueError):
                known = {}
            self._known = known if isinstance(known, dict) else {}
        return self._known

    def of(self, pattern: re.Pattern[str]) -> Reading:
        key = f"{pattern.flags}:{pattern.pattern}".encode("utf-8", "surrogatepass")
        digest = hashlib.sha256(key).hexdigest()
        with self._lock:
            entry = self._load().get(digest)
            reading = _decoded(entry) if entry is not None else None
            if reading is None:
                reading = read(pattern, MAX_SETS)
                entry = _encoded(reading)
                self._unsaved = True
            self._used[digest] = entry
        return reading

    def save(self) -> None:
        """Write the readings of this process's patterns, if any was read anew (atomically,
        so processes may race)."""
        with self._lock:
            if not self._unsaved:
                return
            target = self.path()
            temporary = target.with_name(f"{target.name}.{os.getpid()}.tmp")
            with contextlib.suppress(OSError):
                target.parent.mkdir(parents=True, exist_ok=True)
                temporary.write_text(json.dumps(self._used, sort_keys=True), encoding="utf-8")
                os.replace(temporary, target)
                self._unsaved = False
            with contextlib.suppress(OSError):
                temporary.unlink(missing_ok=True)


def _encoded(reading: Reading) -> list[Any]:
    return [
        [sorted(need) for need in reading.needs],
        [[sorted(need) for need in alternative] for alternative in reading.alternatives],
    ]


def _decoded(entry: Any) -> Reading | None:
    """The reading an entry of the file holds; None for anything else."""
    try:
        needs, alternatives = entry
        reading = Reading(
            tuple(frozenset(need) for need in needs),
            tuple(tuple(frozenset(need) for need in alternative) for alternative in alternatives),
        )
    except (TypeError, ValueError):
        return None
    sets = [*reading.needs, *(need for a in reading.alternatives for need in a)]
    if not all(need and all(isinstance(s, str) and s for s in need) for need in sets):
        return None
    return reading


_READINGS = _Readings()


def keep_readings() -> None:
    """Save the readings of the patterns created so far for the next process (the engine
    calls it once its modules are loaded)."""
    _READINGS.save()


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
    pattern only on text that holds a string of each of its required sets (of one alternative's
    sets, for an alternation). Matches are `re.Match` objects of the compiled pattern `raw`:
    `owns(match)` tells whether this pattern made one."""

    __slots__ = ("_any_of", "_needs", "flags", "groupindex", "groups", "pattern", "raw")

    def __init__(self, raw: re.Pattern[str]) -> None:
        self.raw = raw
        self.pattern = raw.pattern
        self.flags = raw.flags
        self.groups = raw.groups
        self.groupindex = raw.groupindex
        reading = _READINGS.of(raw)
        self._needs = self._numbered(reading.needs)
        # An alternation's alternatives, each with its own sets, when every one has some.
        alternatives = [self._numbered(a) for a in reading.alternatives]
        self._any_of = tuple(alternatives) if alternatives and all(alternatives) else ()

    @staticmethod
    def _numbered(needs: tuple[Strings, ...]) -> tuple[frozenset[int], ...]:
        # Unusable sets rank last (`_selectivity`): the ones kept before them are all usable.
        return tuple(_LITERALS.number(n) for n in needs if min(map(len, n)) >= MIN_LITERAL)

    def __repr__(self) -> str:
        return f"screened({self.pattern!r})"

    @property
    def screens(self) -> bool:
        """Whether the screen can skip a text for this pattern (it has usable literals)."""
        return bool(self._needs)

    def may_match(self, text: str) -> bool:
        """False only when no match can be in `text`."""
        # Plain loops: this runs thousands of times per text, and a generator per call cost
        # more than the test itself.
        needs = self._needs
        if not needs:
            return True
        found = found_in(text)
        for need in needs:
            if need.isdisjoint(found):
                return False
        if not self._any_of:
            return True
        for alternative in self._any_of:
            for need in alternative:
                if need.isdisjoint(found):
                    break
            else:
                return True
        return False

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

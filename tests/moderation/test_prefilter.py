"""The literal screen in front of the engine's regular expressions (moderation/engine/prefilter.py).

A screened pattern must answer exactly as `re` does: it may only skip a text that holds no
match. The strings read from a pattern's syntax are checked on hand-made constructs, and the
screen of every engine pattern on texts that match it (generated from the pattern itself) and on
the hand-written training rows.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moderation.engine import context, multilingual, normalize, pipeline, policies, prefilter, rules
from moderation.engine.prefilter import (
    MAX_SETS,
    Screened,
    read,
    required_literals,
    screened,
)

ROOT = Path(__file__).resolve().parents[2]


def _engine_patterns() -> list[tuple[str, Screened]]:
    found: dict[int, tuple[str, Screened]] = {}

    def visit(name: str, value: object) -> None:
        if isinstance(value, Screened):
            found.setdefault(id(value), (name, value))
        elif isinstance(value, (tuple, list)):
            for i, item in enumerate(value):
                visit(f"{name}[{i}]", item)

    for module in (rules, context, pipeline, normalize, multilingual, policies):
        for attr, value in vars(module).items():
            visit(f"{module.__name__.rsplit('.', 1)[-1]}.{attr}", value)
    return sorted(found.values(), key=lambda item: item[0])


ENGINE_PATTERNS = _engine_patterns()
SCREENED = [(name, p) for name, p in ENGINE_PATTERNS if p.screens]


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"kill", {"kill"}),
        (r"\b(?:kill|murder)(?:s|ed)?\b", {"kill", "murder"}),
        # An optional part joins the run: both spellings are whole strings.
        (r"\bshoot(?:ing)? down\b", {"shoot down", "shooting down"}),
        (r"\bneighbou?rs?\b", {"neighbor", "neighbour"}),
        (r"ex-?wife", {"exwife", "ex-wife"}),
        (r"self[- ]defen[cs]e", {"self-defence", "self-defense", "self defence", "self defense"}),
        # A gap breaks the run; the longer literal on either side is kept.
        (r"\bhow to\s+\w+ (?:a|the) bomb\b", {"how to"}),
        (r"(?<!not )\bgo die\b", {"go die"}),
        # Lookarounds add nothing to the match.
        (r"(?<=[.!?] )kys(?!\w)", {"kys"}),
        # A repeated group needs its text at least once.
        (r"(?:ha)+ you lost", {" you lost"}),
        (r"(?:abc|d)?e", {"e"}),
        # Alternatives each with their own requirement (re factors out the common "i"); a string
        # that holds another is left out.
        (r"\bi will (?:\w+ )?kill you|\bi(?:'ll| will) hurt you", {" will ", "'ll hurt you"}),
    ],
)
def test_required_literals_are_read_from_the_pattern(pattern, expected):
    assert frozenset(expected) in required_literals(re.compile(pattern))


@pytest.mark.parametrize(
    "pattern",
    [
        r"\w+",
        r"x*",
        r"[^a-z]+",
        r"(\w+)\1",  # a back-reference
        r"kill|\d+",  # one alternative needs no fixed text
        r"(?:kill)?",
    ],
)
def test_patterns_without_required_text_give_none(pattern):
    assert required_literals(re.compile(pattern)) == ()


@pytest.mark.parametrize("pattern", [r"(?i)kill", r"(?i:kill) you"])
def test_case_insensitive_text_requires_nothing_of_its_own_case(pattern):
    # "(?i:kill) you" still requires " you", whose case is fixed.
    assert required_literals(re.compile(pattern)) in ((), (frozenset({" you"}),))
    assert screened(pattern).search("KILL you") is not None


def test_case_insensitive_flag_turns_the_screen_off():
    pattern = screened("kill", re.IGNORECASE)
    assert not pattern.screens
    assert pattern.search("KILL") is not None


def test_short_literals_turn_the_screen_off():
    assert required_literals(re.compile(r"\b(?:h|heroin)\b")) == (frozenset({"h"}),)
    assert not screened(r"\b(?:h|heroin)\b").screens


def test_every_required_part_of_a_sequence_screens():
    # "how to" is in many texts; the bomb is what it is about.
    pattern = screened(r"\bhow to\s+\w+ (?:a|the) bomb\b")
    assert not pattern.may_match("how to bake a cake")
    assert pattern.may_match("how to build a bomb")


def test_an_alternation_is_screened_alternative_by_alternative():
    source = (
        r"\bhow (?:do|can) i (?:hurt|kill) (?:him|her)\b|\bbest way to (?:poison|drug) my dog\b"
    )
    assert len(read(re.compile(source)).alternatives) == 2
    pattern = screened(source)
    # One word of each alternative, but all of neither.
    assert not pattern.may_match("how do i find the best way to train my dog")
    assert pattern.may_match("how can i hurt him")
    assert pattern.may_match("what is the best way to drug my dog")


TEXTS = [
    "nothing to see here",
    "I will kill you tomorrow. Then kill the process.",
    "kill",
    "",
    "Shooting down the request, we murdered the benchmark.",
]


@pytest.mark.parametrize("text", TEXTS)
def test_every_method_answers_as_re_does(text):
    source = r"\b(?:kill|murder)(?:s|ed)?\b"
    raw, fast = re.compile(source), screened(source)
    assert fast.screens
    assert fast.search(text) == raw.search(text) or (
        fast.search(text).span() == raw.search(text).span()  # type: ignore[union-attr]
    )
    assert bool(fast.match(text)) == bool(raw.match(text))
    assert bool(fast.fullmatch(text)) == bool(raw.fullmatch(text))
    assert fast.findall(text) == raw.findall(text)
    assert [m.span() for m in fast.finditer(text)] == [m.span() for m in raw.finditer(text)]
    assert fast.sub("end", text) == raw.sub("end", text)
    assert fast.subn(lambda m: m[0].upper(), text) == raw.subn(lambda m: m[0].upper(), text)
    assert fast.split(text) == raw.split(text)
    assert (fast.pattern, fast.flags, fast.groups) == (raw.pattern, raw.flags, raw.groups)


def test_a_pattern_owns_its_matches_only():
    a, b = screened(r"kill"), screened(r"kil+")
    found = a.search("kill")
    assert found is not None
    assert a.owns(found)
    assert not b.owns(found)


def test_most_engine_patterns_are_screened():
    assert len(ENGINE_PATTERNS) > 400
    assert len(SCREENED) > 0.6 * len(ENGINE_PATTERNS)


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_no_engine_pattern_is_screened_off_a_text_it_matches(data):
    name, pattern = data.draw(st.sampled_from(SCREENED), label="pattern")
    text = data.draw(st.from_regex(pattern.raw), label="text")
    assert pattern.raw.search(text) is not None
    assert pattern.may_match(text), name


def _corpus() -> list[str]:
    rows = (ROOT / "moderation" / "training" / "handwritten_train.jsonl").read_text("utf-8")
    texts = [json.loads(line)["text"] for line in rows.splitlines() if line.strip()]
    cases = json.loads((Path(__file__).parent / "fixtures" / "eval_cases.json").read_text())
    for key, value in cases.items():
        if key.startswith("_"):
            continue
        for group in value.values() if isinstance(value, dict) else [value]:
            texts += [c if isinstance(c, str) else c.get("text", "") for c in group]
    return texts


def test_engine_patterns_find_the_same_on_real_text_screened_or_not():
    """Each text as the engine reads it (normalised, and each sentence): wherever the screen
    says a pattern cannot match, it does not."""
    pieces: set[str] = set()
    for text in _corpus():
        read = context.benign_senses(normalize.normalize(text))
        pieces.update([text, read, *context.sentences(read)])
    skipped = 0
    for piece in sorted(pieces):
        for name, pattern in SCREENED:
            if not pattern.may_match(piece):
                skipped += 1
                assert pattern.raw.search(piece) is None, (name, piece)
    assert skipped > 0.5 * len(pieces) * len(SCREENED)


def test_every_engine_pattern_holds_the_reading_its_syntax_gives():
    """Whether read now or loaded from the file an earlier process saved."""
    for name, pattern in ENGINE_PATTERNS:
        fresh = Screened(pattern.raw)
        assert (pattern._needs, pattern._any_of) == (fresh._needs, fresh._any_of), name


def _readings_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> prefilter._Readings:
    monkeypatch.setenv("ENCODER_CACHE_DIR", str(tmp_path))
    return prefilter._Readings()


PATTERN = re.compile(r"\b(?:kill|murder)(?:s|ed)? (?:him|her)\b|\bhow to poison\b")


def test_a_later_process_takes_the_saved_readings_without_reading(tmp_path, monkeypatch):
    first = _readings_in(tmp_path, monkeypatch)
    expected = first.of(PATTERN)
    assert expected.alternatives
    first.save()
    assert [p.name for p in tmp_path.iterdir()] == [first.path().name]

    def unread(*_args: object) -> None:
        raise AssertionError("read again")

    monkeypatch.setattr(prefilter, "read", unread)
    assert prefilter._Readings().of(PATTERN) == expected
    # A pattern the file does not hold is read.
    with pytest.raises(AssertionError, match="read again"):
        prefilter._Readings().of(re.compile(r"\bpoison (?:him|her)\b"))


@pytest.mark.parametrize(
    "content",
    [
        "not json",
        "[1, 2]",
        '{"%s": [[["ki"], []], "x"]}',
        '{"%s": [[[1]], []]}',
        '{"%s": [[[]], []]}',
        '{"%s": [[[""]], []]}',
    ],
)
def test_a_damaged_file_is_no_error_and_its_patterns_are_read(tmp_path, monkeypatch, content):
    readings = _readings_in(tmp_path, monkeypatch)
    digest = hashlib.sha256(f"{PATTERN.flags}:{PATTERN.pattern}".encode()).hexdigest()
    readings.path().write_text(content.replace("%s", digest) if "%s" in content else content)
    assert readings.of(PATTERN) == read(PATTERN, MAX_SETS)


def test_the_file_is_named_by_the_python_version(tmp_path, monkeypatch):
    readings = _readings_in(tmp_path, monkeypatch)
    here = readings.path()
    monkeypatch.setattr(sys, "version", "3.99.0 (elsewhere)")
    assert readings.path() != here
    assert readings.path().parent == here.parent == tmp_path


def test_an_unwritable_cache_is_no_error(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("ENCODER_CACHE_DIR", str(blocker / "cache"))
    readings = prefilter._Readings()
    assert readings.of(PATTERN) == read(PATTERN, MAX_SETS)
    readings.save()
    assert not (blocker / "cache").exists()

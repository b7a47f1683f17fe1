"""Recall and false-positive rate on reviewed, hand-written cases never used in training."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from moderation.engine import moderate

CASES = json.loads((Path(__file__).parent / "fixtures" / "eval_cases.json").read_text())
RULE_CATEGORIES = ["PROFANITY", "SPAM", "PII", "ILLEGAL", "EXTREMISM"]
MIN_RECALL = 0.9
MAX_FPR = 0.1


@pytest.mark.parametrize("category", RULE_CATEGORIES)
def test_fixture_has_enough_cases(category):
    assert len(CASES[category]["positive"]) >= 40
    assert len(CASES[category]["negative"]) >= 40


@pytest.mark.parametrize("category", RULE_CATEGORIES)
def test_recall_on_positives(category):
    positives = CASES[category]["positive"]
    hits = sum(category in moderate(text).detected_signals for text in positives)
    # Counts only: the cases themselves are not echoed in the output.
    assert hits / len(positives) >= MIN_RECALL, f"{category}: {hits}/{len(positives)} flagged"


@pytest.mark.parametrize("category", RULE_CATEGORIES)
def test_false_positive_rate_on_negatives(category):
    negatives = CASES[category]["negative"]
    false = sum(category in moderate(text).detected_signals for text in negatives)
    assert false / len(negatives) <= MAX_FPR, f"{category}: {false}/{len(negatives)} flagged"


def test_hard_negatives_are_allowed():
    texts = CASES["HARD_NEGATIVES"]
    blocked = sum(not moderate(text).allowed for text in texts)
    assert blocked / len(texts) <= MAX_FPR, f"{blocked}/{len(texts)} hard negatives blocked"


def test_pii_positives_are_redacted():
    for text in CASES["PII"]["positive"]:
        v = moderate(text)
        if v.action == "REDACT":
            assert v.redacted_content is not None
            assert "[" in v.redacted_content and v.redacted_content != text

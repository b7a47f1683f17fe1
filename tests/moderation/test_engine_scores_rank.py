"""The likeliest category's score shares the "any category" risk, so that a client ranking
texts by their highest score ranks them as the engine does, and stays on the verdict's side
of the category's bar."""

from __future__ import annotations

import pytest

from moderation.engine import moderate
from moderation.engine.classifier import get_model
from moderation.engine.escalation import apply_escalation
from moderation.engine.pipeline import UNFLAGGED_SPAN, _top_score_shares_risk
from moderation.engine.verdict import Verdict

BARS = {
    "ANY": 0.5,
    "HATE_SPEECH": 0.3,
    "VIOLENCE": 0.4,
    "SEXUAL": 0.5,
    "HARASSMENT": 0.4,
    "SELF_HARM": 0.6,
    "CHILD_SAFETY": 0.5,
}


def _safe(scores: dict[str, float], risk: float) -> Verdict:
    return apply_escalation(Verdict(scores=scores, risk=risk))


def _flagged(category: str, scores: dict[str, float], risk: float) -> Verdict:
    return apply_escalation(
        Verdict(
            category=category,
            severity="HIGH",
            action="BLOCK",
            detected_signals=(category,),
            scores=scores,
            risk=risk,
        )
    )


def test_only_the_likeliest_category_moves_halfway_to_the_risk() -> None:
    v = _top_score_shares_risk(_flagged("VIOLENCE", {"VIOLENCE": 0.6, "SEXUAL": 0.2}, 0.9), BARS)
    assert v.scores == {"VIOLENCE": pytest.approx(0.75), "SEXUAL": 0.2}


def test_a_flagged_category_keeps_a_score_over_its_bar() -> None:
    # Halfway to a low risk would fall under the bar: the category's own score stays.
    v = _top_score_shares_risk(_flagged("SELF_HARM", {"SELF_HARM": 0.65}, 0.4), BARS)
    assert v.scores["SELF_HARM"] == 0.65


def test_a_rule_category_without_a_bar_moves_halfway() -> None:
    v = _top_score_shares_risk(_flagged("ILLEGAL", {"ILLEGAL": 0.9, "VIOLENCE": 0.1}, 0.8), BARS)
    assert v.scores["ILLEGAL"] == pytest.approx(0.85)


def test_an_unflagged_category_stays_under_its_bar_in_order() -> None:
    low = UNFLAGGED_SPAN[0]
    bar = BARS["HATE_SPEECH"]
    # A safe verdict with a high risk (context cleared the flag): under the bar, and the
    # surer of two such texts stays the higher.
    surer = _top_score_shares_risk(_safe({"HATE_SPEECH": 0.28}, 0.9), BARS)
    less = _top_score_shares_risk(_safe({"HATE_SPEECH": 0.25}, 0.9), BARS)
    assert low * bar <= less.scores["HATE_SPEECH"] < surer.scores["HATE_SPEECH"] < bar
    # In the judge's band it stays in the band, however low the risk.
    assert _top_score_shares_risk(_safe({"HATE_SPEECH": 0.22}, 0.01), BARS).scores[
        "HATE_SPEECH"
    ] == pytest.approx(low * bar)
    # Under the band it follows the risk down.
    assert _top_score_shares_risk(_safe({"HATE_SPEECH": 0.1}, 0.02), BARS).scores[
        "HATE_SPEECH"
    ] == pytest.approx(0.06)


def test_a_text_unsafe_as_a_whole_outranks_one_a_single_head_reads_alone() -> None:
    # The same top-category score; the text the "any category" head finds riskier ranks
    # higher in what the client sees.
    a = _top_score_shares_risk(_safe({"VIOLENCE": 0.2}, 0.45), BARS)
    b = _top_score_shares_risk(_safe({"VIOLENCE": 0.2}, 0.05), BARS)
    assert max(a.scores.values()) > max(b.scores.values())


@pytest.mark.parametrize(
    "text",
    [
        "I will find you and break every bone in your body.",
        "You are a worthless idiot and everyone hates you.",
        "Have a lovely weekend with your family.",
        "How do I kill a stuck python process?",
        "I have nothing against gay people.",
    ],
)
def test_scores_still_say_what_the_verdict_says(text: str) -> None:
    """A client thresholding the scores at the engine's bars flags what the engine flags."""
    v = moderate(text)
    bars = get_model().thresholds
    named = {v.category, *v.detected_signals}
    over = {c for c, bar in bars.items() if c != "ANY" and v.scores.get(c, 0.0) >= bar}
    if v.status == "ALLOWED":
        assert over == set()
    else:
        assert over <= named and (over or named - set(bars))

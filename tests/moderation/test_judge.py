"""The optional LLM judge against the fake OpenAI-compatible upstream (docs/moderation.md,
"LLM judge")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from moderation.engine import Policy, Usage, Verdict, apply_escalation, moderate
from moderation.judge import (
    JudgeAnswer,
    JudgeError,
    merge_verdicts,
    parse_answer,
    should_judge,
)
from moderation.models import ModerationVerdict, ReviewItem
from tests.fake_upstream import SECRET_IN_ERROR_BODY, FakeUpstream
from tests.moderation.helpers import POLICIES, SAFE_TEXT, THREAT_TEXT, post_moderation

pytestmark = pytest.mark.django_db

KRAKEN = "I switched to Kraken, way lower fees than here, sign up with my referral link"
INSTRUCTIONS = "This is a children's platform; treat mentions of gambling as spam."


def answer(**changes: Any) -> str:
    data: dict[str, Any] = {
        "status": "ALLOWED",
        "category": "SAFE",
        "severity": "LOW",
        "action": "ALLOW",
        "reason": "Nothing harmful.",
        "confidence": 0.95,
        "uncertainty_flag": False,
        "ambiguity_reason": "NONE",
        "escalation_required": False,
        "detected_signals": [],
        "policy_breaches": [],
    }
    data.update(changes)
    return json.dumps(data)


@pytest.fixture
def judge(upstream_catalog: Path, fake_upstream: FakeUpstream, settings: Any) -> FakeUpstream:
    settings.MODERATION_MODEL = "fake-gpt"
    return fake_upstream


def engine_tokens(content: str, policy: str | None = None, instructions: str | None = None) -> int:
    return moderate(content, policy=policy, instructions=instructions).usage.prompt_tokens


# --- when the judge is asked -----------------------------------------------------------------


def test_custom_policies_and_instructions_are_sent_to_the_judge(
    api_client: APIClient, judge: FakeUpstream
) -> None:
    judge.script(reply=answer())
    post_moderation(api_client, content=SAFE_TEXT, policy=POLICIES, instructions=INSTRUCTIONS)
    assert len(judge.bodies) == 1
    sent = judge.bodies[0]
    assert sent["model"] == "fake"
    assert sent["temperature"] == 0
    system, user = sent["messages"]
    assert system["role"] == "system" and user["role"] == "user"
    for line in POLICIES.splitlines():
        assert line in system["content"]
    assert INSTRUCTIONS in system["content"]
    assert '"policy_breaches"' in system["content"]  # the JSON schema it must follow
    assert "CHILD_SAFETY" in system["content"]
    assert SAFE_TEXT in user["content"]
    assert judge.requests[0].headers["authorization"] == "Bearer sk-upstream-test-key"


def test_instructions_alone_go_to_the_judge(api_client: APIClient, judge: FakeUpstream) -> None:
    judge.script(reply=answer())
    post_moderation(api_client, content=SAFE_TEXT, instructions="be strict")
    assert len(judge.bodies) == 1


def test_clear_verdict_without_policies_skips_the_judge(
    api_client: APIClient, judge: FakeUpstream
) -> None:
    body = post_moderation(api_client, content=SAFE_TEXT)
    assert judge.bodies == []
    assert body["usage"]["completion_tokens"] == 0
    assert ModerationVerdict.objects.get().judge_model == ""


def test_borderline_verdict_goes_to_the_judge(api_client: APIClient, judge: FakeUpstream) -> None:
    # A short death wish: the engine flags VIOLENCE but is unsure (a few words say little).
    assert moderate("go die").uncertainty_flag is True
    judge.script(
        reply=answer(
            status="DISALLOWED",
            category="VIOLENCE",
            severity="MEDIUM",
            action="BLOCK",
            detected_signals=["VIOLENCE"],
            reason="A death wish aimed at someone.",
        )
    )
    body = post_moderation(api_client, content="go die")
    assert len(judge.bodies) == 1
    # The judge settled the engine's doubt: same category, confident.
    assert body["category"] == "VIOLENCE"
    assert body["uncertainty_flag"] is False
    assert body["ambiguity_reason"] == "NONE"
    assert not ReviewItem.objects.exists()


def test_judge_is_off_without_moderation_model(
    api_client: APIClient, upstream_catalog: Path, fake_upstream: FakeUpstream, settings: Any
) -> None:
    settings.MODERATION_MODEL = None
    post_moderation(api_client, content=SAFE_TEXT, policy=POLICIES)
    assert fake_upstream.bodies == []


def test_unknown_moderation_model_disables_the_judge(
    api_client: APIClient, upstream_catalog: Path, fake_upstream: FakeUpstream, settings: Any
) -> None:
    settings.MODERATION_MODEL = "no-such-model"
    body = post_moderation(api_client, content=SAFE_TEXT, policy=POLICIES)
    assert fake_upstream.bodies == []
    assert body["uncertainty_flag"] is False


def test_zero_tolerance_verdicts_never_leave_the_process(
    api_client: APIClient, judge: FakeUpstream
) -> None:
    threat = "We will bomb the central station on Friday at noon, everyone there will die."
    body = post_moderation(api_client, content=threat, policy=POLICIES)
    assert body["auto_fail"] is True
    assert judge.bodies == []


# --- a valid answer --------------------------------------------------------------------------


def test_judge_that_escalates_wins_and_flags_the_conflict(
    api_client: APIClient, judge: FakeUpstream
) -> None:
    judge.script(
        reply=answer(
            status="DISALLOWED",
            category="VIOLENCE",
            severity="HIGH",
            action="BLOCK",
            reason="A veiled threat against the shop staff.",
            confidence=0.8,
            detected_signals=["THREAT"],
            escalation_required=True,
        ),
        usage=(300, 40),
    )
    body = post_moderation(api_client, content=SAFE_TEXT, instructions=INSTRUCTIONS)
    assert (body["status"], body["category"], body["severity"]) == (
        "DISALLOWED",
        "VIOLENCE",
        "HIGH",
    )
    assert body["action"] in ("BLOCK", "ESCALATE")
    assert {"VIOLENCE", "THREAT"} <= set(body["detected_signals"])
    assert "Judge (fake-gpt): A veiled threat against the shop staff." in body["reason"]
    # The engine saw nothing: conflicting signals go to a human (docs/moderation.md,
    # "Escalation rules", rule 5).
    assert body["uncertainty_flag"] is True
    assert body["ambiguity_reason"] != "NONE"
    assert body["confidence"] <= 0.7
    assert body["escalation_required"] is True
    prompt = engine_tokens(SAFE_TEXT, instructions=INSTRUCTIONS)
    assert body["usage"] == {
        "prompt_tokens": prompt + 300,
        "completion_tokens": 40,
        "total_tokens": prompt + 340,
    }
    record = ModerationVerdict.objects.get()
    assert record.judge_model == "fake-gpt"
    assert (record.prompt_tokens, record.completion_tokens) == (prompt + 300, 40)
    assert ReviewItem.objects.get().content == SAFE_TEXT


def test_judge_finds_a_policy_breach_the_engine_missed(
    api_client: APIClient, judge: FakeUpstream
) -> None:
    judge.script(
        reply=answer(
            status="DISALLOWED",
            action="BLOCK",
            severity="MEDIUM",
            reason="Promotes the Kraken exchange with a referral link.",
            detected_signals=["POLICY_1"],
            policy_breaches=[1],
        )
    )
    body = post_moderation(api_client, content=KRAKEN, policy=POLICIES)
    assert "POLICY_1" in body["detected_signals"]
    assert "policy 1 (no promotion of other crypto exchanges)" in body["reason"]
    assert body["status"] == "DISALLOWED"
    assert not {"POLICY_2", "POLICY_3"} & set(body["detected_signals"])
    # Reading the operator's policies is the judge's job: its breach is trusted.
    assert body["uncertainty_flag"] is False


def test_judge_terror_threat_gets_the_zero_tolerance_rules(
    api_client: APIClient, judge: FakeUpstream
) -> None:
    judge.script(
        reply=answer(
            status="DISALLOWED",
            category="EXTREMISM",
            severity="HIGH",
            action="BLOCK",
            confidence=0.6,
            detected_signals=["TERROR_THREAT"],
            reason="Coded threat to attack the store for a cause.",
        )
    )
    body = post_moderation(api_client, content=SAFE_TEXT, policy=POLICIES)
    assert (body["category"], body["severity"], body["action"]) == (
        "EXTREMISM",
        "CRITICAL",
        "BANNED",
    )
    assert body["auto_fail"] is True
    assert body["confidence"] == 1.0
    assert body["banned_days"] and body["banned_days"] > 0
    assert body["status"] == "DISALLOWED"


def test_judge_child_safety_is_banned_for_365_days(
    api_client: APIClient, judge: FakeUpstream
) -> None:
    judge.script(
        reply=answer(status="DISALLOWED", category="CHILD_SAFETY", severity="HIGH", action="BLOCK")
    )
    body = post_moderation(api_client, content=SAFE_TEXT, instructions=INSTRUCTIONS)
    assert (body["category"], body["action"], body["banned_days"]) == (
        "CHILD_SAFETY",
        "BANNED",
        365,
    )
    assert body["auto_fail"] is True


def test_judge_cannot_lower_the_engines_verdict(api_client: APIClient, judge: FakeUpstream) -> None:
    judge.script(reply=answer(reason="Just banter."))
    body = post_moderation(api_client, content=THREAT_TEXT, policy=POLICIES)
    assert body["category"] == "VIOLENCE"
    assert body["status"] == "DISALLOWED"
    assert body["uncertainty_flag"] is True  # the two disagree: a human decides
    assert ReviewItem.objects.exists()


def test_fenced_json_answer_is_accepted(api_client: APIClient, judge: FakeUpstream) -> None:
    judge.script(reply="```json\n" + answer() + "\n```")
    body = post_moderation(api_client, content=SAFE_TEXT, policy=POLICIES)
    assert body["uncertainty_flag"] is False
    assert "Judge (fake-gpt)" in body["reason"]


# --- a judge that fails ----------------------------------------------------------------------


def assert_engine_verdict_stands_uncertain(body: dict[str, Any]) -> None:
    assert (body["status"], body["category"], body["action"]) == ("ALLOWED", "SAFE", "ALLOW")
    assert body["uncertainty_flag"] is True
    assert body["ambiguity_reason"] == "CONTEXT_MISSING"
    assert "review model was unavailable" in body["reason"]
    assert ReviewItem.objects.get().content == SAFE_TEXT


@pytest.mark.parametrize(
    "reply",
    [
        "Looks fine to me.",
        "",
        "[1, 2]",
        answer()[:-10],
        json.dumps({"category": "SAFE"}),
        answer(category="TOXIC"),
        answer(severity="EXTREME"),
        answer(action="WARN"),
        answer(ambiguity_reason="IRONY"),
        answer(confidence=1.5),
        answer(confidence=True),
        answer(confidence="0.9"),
        answer(uncertainty_flag="no"),
        answer(detected_signals="THREAT"),
        answer(detected_signals=["threat words"]),
        answer(policy_breaches=[9]),
        answer(detected_signals=["POLICY_9"]),
        answer(reason=""),
        answer(extra="field"),
    ],
)
def test_malformed_answer_leaves_the_engine_verdict_uncertain(
    api_client: APIClient, judge: FakeUpstream, reply: str
) -> None:
    judge.script(reply=reply, usage=(200, 10))
    body = post_moderation(api_client, content=SAFE_TEXT, policy=POLICIES)
    assert_engine_verdict_stands_uncertain(body)
    # The judge's tokens were spent all the same.
    assert body["usage"]["completion_tokens"] == 10


def test_upstream_500_leaves_the_engine_verdict_uncertain(
    api_client: APIClient, judge: FakeUpstream
) -> None:
    judge.script(status=500)
    response = api_client.post(
        "/v1/moderation", {"content": SAFE_TEXT, "policy": POLICIES}, format="json"
    )
    assert response.status_code == 200
    assert SECRET_IN_ERROR_BODY not in response.content.decode()
    assert_engine_verdict_stands_uncertain(response.json())
    assert SECRET_IN_ERROR_BODY not in ReviewItem.objects.get().reason


def test_upstream_timeout_leaves_the_engine_verdict_uncertain(
    api_client: APIClient, judge: FakeUpstream
) -> None:
    # The catalog's read_timeout for fake-gpt is 2 s; had the judge waited for the hang to
    # end, its (non-JSON) reply would read "malformed answer". How long the wait lasts is
    # measured by benchmarks/moderation_speed.py.
    judge.script(hang=4)
    body = post_moderation(api_client, content=SAFE_TEXT, policy=POLICIES)
    assert_engine_verdict_stands_uncertain(body)
    assert "timed out" in body["reason"]


def test_failed_judge_keeps_an_existing_ambiguity_reason(
    api_client: APIClient, judge: FakeUpstream
) -> None:
    judge.script(status=503)
    body = post_moderation(api_client, content="go die")
    assert body["uncertainty_flag"] is True
    assert body["ambiguity_reason"] == "MIXED_SIGNALS"


# --- units: parsing and merging --------------------------------------------------------------

ONE_POLICY = [Policy(1, "no promotion of other crypto exchanges")]


def judge_answer(**changes: Any) -> JudgeAnswer:
    return parse_answer(answer(**changes), policies=ONE_POLICY)


def test_parse_answer_reads_every_field() -> None:
    parsed = judge_answer(
        category="SPAM", detected_signals=["SPAM", "POLICY_1"], policy_breaches=[1]
    )
    assert parsed.category == "SPAM"
    assert parsed.detected_signals == ("SPAM", "POLICY_1")
    assert parsed.policy_breaches == (1,)


def test_parse_answer_rejects_prose_around_json() -> None:
    with pytest.raises(JudgeError):
        parse_answer("Here you go: " + answer(), policies=[])


def test_merge_takes_the_more_severe_side_and_unites_signals() -> None:
    engine = apply_escalation(
        Verdict(
            category="PII",
            severity="MEDIUM",
            action="REDACT",
            detected_signals=("PII", "PII_EMAIL"),
            confidence=0.99,
            redacted_content="mail me at [EMAIL]",
        )
    )
    merged = merge_verdicts(
        engine,
        judge_answer(
            category="HARASSMENT",
            severity="HIGH",
            action="BLOCK",
            status="DISALLOWED",
            detected_signals=["INSULT"],
        ),
        usage=Usage(10, 5),
        policies=ONE_POLICY,
        model_id="judge-x",
    )
    assert (merged.category, merged.severity, merged.action) == ("HARASSMENT", "HIGH", "BLOCK")
    assert merged.detected_signals[:2] == ("PII", "PII_EMAIL")
    assert {"HARASSMENT", "INSULT"} <= set(merged.detected_signals)
    assert merged.redacted_content is None  # no longer a REDACT verdict
    assert merged.uncertainty_flag is True  # different categories: conflict
    assert merged.usage == Usage(10, 5)


def test_merge_of_agreeing_opinions_is_certain() -> None:
    engine = apply_escalation(
        Verdict(
            category="HARASSMENT",
            severity="MEDIUM",
            action="BLOCK",
            detected_signals=("HARASSMENT", "INSULT"),
            confidence=0.8,
        )
    )
    merged = merge_verdicts(
        engine,
        judge_answer(category="HARASSMENT", severity="MEDIUM", action="BLOCK", status="DISALLOWED"),
        usage=Usage(1, 1),
        policies=[],
        model_id="judge-x",
    )
    assert merged.uncertainty_flag is False
    assert merged.confidence == pytest.approx((0.8 + 0.95) / 2, abs=0.01)
    assert merged.status == "DISALLOWED"


def test_should_judge_skips_auto_fail_and_sends_policies() -> None:
    banned = apply_escalation(Verdict(category="CHILD_SAFETY", detected_signals=("CHILD_SAFETY",)))
    assert should_judge(banned, policy="#policy 1: x", instructions=None) is False
    clear = apply_escalation(Verdict(scores={"VIOLENCE": 0.0}))
    assert should_judge(clear, policy=None, instructions=None) is False
    assert should_judge(clear, policy="#policy 1: x", instructions=None) is True
    assert should_judge(clear, policy=None, instructions="be strict") is True
    doubtful = apply_escalation(Verdict(uncertainty_flag=True))
    assert should_judge(doubtful, policy=None, instructions=None) is True

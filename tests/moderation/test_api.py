"""POST /v1/moderation: validation, verdict shape, policies (docs/moderation.md)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from unittest.mock import ANY

import pytest
from rest_framework.test import APIClient

from accounts.models import ApiKey, User
from billing.selectors import get_balance
from moderation.engine import POLICY_VERSION, vocabulary
from moderation.models import ModerationVerdict
from tests.conftest import client_for
from tests.factories import ApiKeyFactory
from tests.moderation.helpers import (
    POLICIES,
    QUOTED_TEXT,
    SAFE_TEXT,
    SPEC_FIELDS,
    THREAT_TEXT,
)

pytestmark = pytest.mark.django_db

PATHS = ["/v1/moderation", "/v1/moderation/", "/api/v1/moderation", "/api/v1/moderation/"]


def moderate(client: APIClient, body: Any, path: str = "/v1/moderation") -> Any:
    return client.post(path, body, format="json")


def assert_400(response: Any, param: str | None) -> dict[str, Any]:
    assert response.status_code == 400, response.content
    error: dict[str, Any] = response.json()["error"]
    assert error["type"] == "invalid_request_error"
    assert error["param"] == param
    return error


# --- validation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "param", "code"),
    [
        ({}, "content", "missing_required_parameter"),
        ({"content": ""}, "content", "invalid_value"),
        ({"content": "   \n\t"}, "content", "invalid_value"),
        ({"content": "x" * 100_001}, "content", "invalid_value"),
        ({"content": None}, "content", "invalid_type"),
        ({"content": 42}, "content", "invalid_type"),
        ({"content": True}, "content", "invalid_type"),
        ({"content": ["hello"]}, "content", "invalid_type"),
        ({"content": {"text": "hello"}}, "content", "invalid_type"),
        ({"content": "hi", "policy": 1}, "policy", "invalid_type"),
        ({"content": "hi", "policy": False}, "policy", "invalid_type"),
        ({"content": "hi", "policy": "#policy 1: " + "x" * 10_000}, "policy", "invalid_value"),
        ({"content": "hi", "instructions": 3.5}, "instructions", "invalid_type"),
        ({"content": "hi", "instructions": ["be strict"]}, "instructions", "invalid_type"),
        ({"content": "hi", "instructions": "x" * 10_001}, "instructions", "invalid_value"),
        ({"content": "hi", "polcy": "#policy 1: no spam"}, "polcy", "unknown_parameter"),
    ],
)
def test_rejects_invalid_body(
    api_client: APIClient, body: dict[str, Any], param: str, code: str
) -> None:
    error = assert_400(moderate(api_client, body), param)
    assert error["code"] == code
    assert ModerationVerdict.objects.count() == 0


def test_too_long_content_message_gives_the_limit(api_client: APIClient) -> None:
    error = assert_400(moderate(api_client, {"content": "x" * 100_001}), "content")
    assert "100,000" in error["message"]


def test_accepts_content_of_exactly_100000_characters(api_client: APIClient) -> None:
    response = moderate(api_client, {"content": ("hello there " * 10_000)[:100_000]})
    assert response.status_code == 200


def test_accepts_policy_and_instructions_at_their_limits(api_client: APIClient) -> None:
    policy = "#policy 1: no spam " + "x" * (10_000 - 19)
    assert len(policy) == 10_000
    body = {"content": SAFE_TEXT, "policy": policy, "instructions": "y" * 10_000}
    assert moderate(api_client, body).status_code == 200


def test_body_that_is_not_an_object_is_400(api_client: APIClient) -> None:
    assert_400(moderate(api_client, ["content"]), None)


def test_malformed_json_is_400_invalid_json(api_client: APIClient) -> None:
    response = api_client.post("/v1/moderation", "{nope", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_json"


@pytest.mark.parametrize(
    ("policy", "line"),
    [
        ("no crypto please", 1),
        ("#policy 1: no spam\npolicy 2: no ads", 2),
        ("#policy 1: no spam\n\n#policy 0: zero is not positive", 3),
        ("#policy 1: no spam\n#policy -2: negative", 2),
        ("#policy 1: no spam\n#policy two: words", 2),
        ("#policy 1:", 1),
        ("#policy 1 no colon", 1),
        ("#Policy 1: wrong case", 1),
    ],
)
def test_bad_policy_line_is_400_naming_the_line(
    api_client: APIClient, policy: str, line: int
) -> None:
    error = assert_400(moderate(api_client, {"content": SAFE_TEXT, "policy": policy}), "policy")
    assert f"policy line {line} " in error["message"]
    assert "#policy <n>: <description>" in error["message"]


def test_duplicate_policy_number_is_400_naming_the_line(api_client: APIClient) -> None:
    policy = "#policy 1: no spam\n#policy 2: no ads\n#policy 1: no links"
    error = assert_400(moderate(api_client, {"content": SAFE_TEXT, "policy": policy}), "policy")
    assert error["message"].startswith("policy line 3 ")
    assert "number 1" in error["message"]


def test_blank_lines_and_surrounding_spaces_in_policy_are_fine(api_client: APIClient) -> None:
    policy = "\n  #policy 7: no mention of competitor brands Acme or Globex  \n\n"
    response = moderate(api_client, {"content": "Globex is great", "policy": policy})
    assert response.status_code == 200
    assert "POLICY_7" in response.json()["detected_signals"]


def test_null_policy_and_instructions_mean_none(api_client: APIClient) -> None:
    body = {"content": SAFE_TEXT, "policy": None, "instructions": None}
    assert moderate(api_client, body).json()["status"] == "ALLOWED"


# --- auth, limits, balance, paths ------------------------------------------------------------


@pytest.mark.parametrize("path", PATHS)
def test_missing_key_is_401(anon_client: APIClient, path: str) -> None:
    response = moderate(anon_client, {"content": SAFE_TEXT}, path)
    assert response.status_code == 401
    assert response.json()["error"]["type"] == "authentication_error"
    assert response["WWW-Authenticate"] == "Bearer"


def test_revoked_key_is_401(api_key: ApiKey) -> None:
    client = client_for(api_key)
    api_key.revoke()
    api_key.save()
    assert moderate(client, {"content": SAFE_TEXT}).status_code == 401


@pytest.mark.usefixtures("fresh_rate_window")
def test_over_the_rate_limit_is_429(user: User) -> None:
    client = client_for(ApiKeyFactory.create(user=user, rpm_limit=2))
    first = moderate(client, {"content": SAFE_TEXT})
    second = moderate(client, {"content": SAFE_TEXT})
    third = moderate(client, {"content": SAFE_TEXT})
    assert [first.status_code, second.status_code] == [200, 200]
    assert first["X-RateLimit-Remaining"] == "1"
    assert third.status_code == 429
    assert third.json()["error"]["type"] == "rate_limit_error"
    assert int(third["Retry-After"]) >= 1
    assert ModerationVerdict.objects.count() == 2


def test_works_with_zero_balance(api_client: APIClient, user: User) -> None:
    assert get_balance(user) == 0
    response = moderate(api_client, {"content": THREAT_TEXT})
    assert response.status_code == 200
    assert get_balance(user) == 0


@pytest.mark.parametrize("path", PATHS)
def test_answers_under_both_prefixes_with_and_without_slash(
    api_client: APIClient, path: str
) -> None:
    response = moderate(api_client, {"content": SAFE_TEXT}, path)
    assert response.status_code == 200
    assert response.json()["category"] == "SAFE"


def test_get_is_405(api_client: APIClient) -> None:
    response = api_client.get("/v1/moderation")
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"


# --- the verdict -----------------------------------------------------------------------------


def test_published_vocabulary_is_pinned() -> None:
    # The one place the public values are written out: every other test takes them from
    # moderation.engine.vocabulary, so a change there must also change this test.
    assert vocabulary.CATEGORIES == (
        "SAFE",
        "PROFANITY",
        "SPAM",
        "HARASSMENT",
        "PII",
        "SEXUAL",
        "HATE_SPEECH",
        "SELF_HARM",
        "VIOLENCE",
        "ILLEGAL",
        "EXTREMISM",
        "CHILD_SAFETY",
    )
    assert vocabulary.CATEGORIES[1:] == vocabulary.SCORED_CATEGORIES
    assert vocabulary.SEVERITIES == ("LOW", "MEDIUM", "HIGH", "CRITICAL")
    assert vocabulary.ACTIONS == ("ALLOW", "BLOCK", "REDACT", "ESCALATE", "LOG_ONLY", "BANNED")
    assert sorted(vocabulary.ACTIONS_BY_RESTRICTION) == sorted(vocabulary.ACTIONS)
    assert vocabulary.ALLOWED_ACTIONS == ("ALLOW", "LOG_ONLY")
    assert vocabulary.STATUSES == ("ALLOWED", "DISALLOWED")
    assert vocabulary.AMBIGUITY_REASONS == (
        "NONE",
        "CONTEXT_MISSING",
        "SATIRE",
        "QUOTED_CONTENT",
        "MIXED_SIGNALS",
    )
    assert vocabulary.REVIEW_STATES == ("pending", "confirmed", "overturned")


def test_safe_verdict_has_every_field(api_client: APIClient) -> None:
    response = moderate(api_client, {"content": SAFE_TEXT})
    assert response.status_code == 200
    body = response.json()
    assert body == {
        "status": "ALLOWED",
        "category": "SAFE",
        "severity": "LOW",
        "action": "ALLOW",
        "banned_days": None,
        "reason": "No policy violation detected.",
        "confidence": ANY,
        "uncertainty_flag": False,
        "ambiguity_reason": "NONE",
        "escalation_required": False,
        "auto_fail": False,
        "detected_signals": [],
        "policy_version": POLICY_VERSION,
        "timestamp": ANY,
        "usage": ANY,
        "scores": ANY,
    }
    assert 0 <= body["confidence"] <= 1
    assert set(body["scores"]) == set(vocabulary.SCORED_CATEGORIES)
    assert all(0 <= p <= 1 for p in body["scores"].values())
    usage = body["usage"]
    assert usage["prompt_tokens"] > 0 and usage["completion_tokens"] == 0
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]
    stamp = datetime.fromisoformat(body["timestamp"].replace("Z", "+00:00"))
    assert stamp.utcoffset() == UTC.utcoffset(None)
    assert abs((datetime.now(UTC) - stamp).total_seconds()) < 60


def test_unsafe_verdict_has_every_field(api_client: APIClient) -> None:
    body = moderate(api_client, {"content": THREAT_TEXT}).json()
    assert set(body) >= SPEC_FIELDS
    assert set(body) - SPEC_FIELDS == {"scores"}
    assert body["status"] == "DISALLOWED"
    assert body["category"] == "VIOLENCE"
    assert body["action"] in ("BLOCK", "ESCALATE", "BANNED")
    assert "THREAT" in body["detected_signals"]
    assert body["escalation_required"] is True
    assert body["reason"]
    assert body["scores"]["VIOLENCE"] >= 0.5


def test_redact_verdict_adds_redacted_content(api_client: APIClient) -> None:
    body = moderate(api_client, {"content": "My card is 4111 1111 1111 1111, ship it"}).json()
    assert body["action"] == "REDACT"
    assert body["category"] == "PII"
    assert body["status"] == "DISALLOWED"
    assert "4111 1111 1111 1111" not in body["redacted_content"]
    assert body["redacted_content"].startswith("My card is ")


@pytest.mark.parametrize(
    "content",
    [
        SAFE_TEXT,
        THREAT_TEXT,
        "What the fuck is this shit, damn it",
        "you are an idiot",
        "My card is 4111 1111 1111 1111, ship it",
        QUOTED_TEXT,
    ],
)
def test_status_is_allowed_exactly_when_action_is_allow_or_log_only(
    api_client: APIClient, content: str
) -> None:
    body = moderate(api_client, {"content": content}).json()
    assert (body["status"] == "ALLOWED") == (body["action"] in ("ALLOW", "LOG_ONLY"))
    assert (body["banned_days"] is not None) == (body["action"] == "BANNED")
    if body["category"] == "SAFE":
        assert body["action"] == "ALLOW" and body["detected_signals"] == []


def test_every_verdict_is_recorded_for_the_caller(
    api_client: APIClient, api_key: ApiKey, user: User
) -> None:
    body = moderate(api_client, {"content": THREAT_TEXT, "policy": POLICIES}).json()
    record = ModerationVerdict.objects.get()
    assert (record.user, record.api_key, record.endpoint) == (user, api_key, "moderation")
    assert (record.category, record.action, record.severity, record.status) == (
        body["category"],
        body["action"],
        body["severity"],
        body["status"],
    )
    assert record.detected_signals == body["detected_signals"]
    assert record.scores == body["scores"]
    assert record.policy_version == POLICY_VERSION
    assert record.confidence == body["confidence"]
    assert record.custom_policy_count == 3
    assert record.prompt_tokens == body["usage"]["prompt_tokens"]


# --- custom policies -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "number", "description"),
    [
        (
            "Check out Binance, best exchange, sign up with my referral code",
            1,
            "no promotion of other crypto exchanges",
        ),
        (
            "For a headache you should take 400 mg of ibuprofen every 6 hours, "
            "no more than 1200 mg a day.",
            2,
            "no medical dosage advice",
        ),
        (
            "Globex has a nicer office than ours.",
            3,
            "no mention of competitor brands Acme or Globex",
        ),
        ("Honestly Acme did this better.", 3, "no mention of competitor brands Acme or Globex"),
    ],
)
def test_policy_breach_adds_signal_and_names_the_policy(
    api_client: APIClient, content: str, number: int, description: str
) -> None:
    body = moderate(api_client, {"content": content, "policy": POLICIES}).json()
    assert f"POLICY_{number}" in body["detected_signals"]
    assert f"policy {number}" in body["reason"]
    assert description in body["reason"]
    assert body["status"] == "DISALLOWED"
    others = {f"POLICY_{n}" for n in (1, 2, 3) if n != number}
    assert not others & set(body["detected_signals"])


@pytest.mark.parametrize(
    "content",
    [
        SAFE_TEXT,
        "I love bitcoin as a technology, it is interesting.",
        "Ask your doctor about the right dose for you.",
        "Our own exchange has the lowest fees, welcome aboard!",
    ],
)
def test_content_within_the_policies_is_not_flagged_by_them(
    api_client: APIClient, content: str
) -> None:
    body = moderate(api_client, {"content": content, "policy": POLICIES}).json()
    assert not [s for s in body["detected_signals"] if s.startswith("POLICY_")]
    assert body["status"] == "ALLOWED"


def test_without_the_policy_the_same_text_is_allowed(api_client: APIClient) -> None:
    body = moderate(api_client, {"content": "Globex has a nicer office than ours."}).json()
    assert body["status"] == "ALLOWED"
    assert body["detected_signals"] == []


# --- instructions ----------------------------------------------------------------------------

PROFANE = "What the fuck is this shit, damn it"


def test_profanity_alone_is_only_logged(api_client: APIClient) -> None:
    body = moderate(api_client, {"content": PROFANE}).json()
    assert (body["category"], body["action"], body["status"]) == (
        "PROFANITY",
        "LOG_ONLY",
        "ALLOWED",
    )


def test_instruction_allow_profanity_relaxes_it(api_client: APIClient) -> None:
    body = moderate(api_client, {"content": PROFANE, "instructions": "allow profanity"}).json()
    assert (body["category"], body["action"]) == ("SAFE", "ALLOW")
    assert "Instructions applied" in body["reason"]


def test_instruction_block_profanity_blocks_it(api_client: APIClient) -> None:
    body = moderate(api_client, {"content": PROFANE, "instructions": "Block profanity."}).json()
    assert (body["category"], body["action"], body["status"]) == (
        "PROFANITY",
        "BLOCK",
        "DISALLOWED",
    )


def test_instruction_treat_term_as_category(api_client: APIClient) -> None:
    body = moderate(
        api_client,
        {"content": "Have you tried Acme? It is great.", "instructions": 'treat "Acme" as spam'},
    ).json()
    assert body["category"] == "SPAM"
    assert body["status"] == "DISALLOWED"
    assert "acme" in body["reason"].lower()


def test_instruction_be_strict_is_applied(api_client: APIClient) -> None:
    body = moderate(
        api_client, {"content": SAFE_TEXT, "instructions": "This is a children's platform."}
    ).json()
    assert "stricter thresholds" in body["reason"]


def test_instructions_cannot_allow_a_threat(api_client: APIClient) -> None:
    body = moderate(
        api_client, {"content": THREAT_TEXT, "instructions": "allow violence. be lenient"}
    ).json()
    assert body["status"] == "DISALLOWED"
    assert body["category"] == "VIOLENCE"

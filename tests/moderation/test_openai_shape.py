"""POST /v1/moderations: OpenAI's request and response shape, mapped from Nova's verdicts."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from moderation.engine import POLICY_VERSION, Verdict, apply_escalation
from moderation.models import ModerationVerdict, ReviewItem
from moderation.serializers import OPENAI_CATEGORIES, openai_result
from tests.conftest import client_for
from tests.factories import ApiKeyFactory
from tests.moderation.helpers import SAFE_TEXT, THREAT_TEXT

pytestmark = pytest.mark.django_db

PATHS = ["/v1/moderations", "/v1/moderations/", "/api/v1/moderations", "/api/v1/moderations/"]


def post(client: APIClient, body: Any, path: str = "/v1/moderations") -> Any:
    return client.post(path, body, format="json")


def assert_result_shape(result: dict[str, Any]) -> None:
    assert set(result) == {
        "flagged",
        "categories",
        "category_scores",
        "category_applied_input_types",
    }
    assert isinstance(result["flagged"], bool)
    assert list(result["categories"]) == list(OPENAI_CATEGORIES)
    assert all(isinstance(v, bool) for v in result["categories"].values())
    assert list(result["category_scores"]) == list(OPENAI_CATEGORIES)
    assert all(isinstance(v, float) and 0 <= v <= 1 for v in result["category_scores"].values())
    assert result["category_applied_input_types"] == {name: ["text"] for name in OPENAI_CATEGORIES}
    assert result["flagged"] == any(result["categories"].values())


@pytest.mark.parametrize("path", PATHS)
def test_single_string_gives_one_result(api_client: APIClient, path: str) -> None:
    response = post(api_client, {"input": SAFE_TEXT}, path)
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"id", "model", "results"}
    assert body["id"].startswith("modr-") and len(body["id"]) > 10
    assert body["model"] == POLICY_VERSION
    assert len(body["results"]) == 1
    assert_result_shape(body["results"][0])
    assert body["results"][0]["flagged"] is False


def test_array_gives_one_result_per_input_in_order(api_client: APIClient) -> None:
    body = post(api_client, {"input": [SAFE_TEXT, THREAT_TEXT, "Have a lovely day"]}).json()
    flagged = [result["flagged"] for result in body["results"]]
    assert flagged == [False, True, False]
    for result in body["results"]:
        assert_result_shape(result)
    threat = body["results"][1]
    assert threat["categories"]["violence"] is True
    assert threat["categories"]["harassment/threatening"] is True
    assert threat["categories"]["sexual/minors"] is False
    assert threat["category_scores"]["violence"] >= 0.5


def test_text_parts_are_accepted(api_client: APIClient) -> None:
    body = post(api_client, {"input": [{"type": "text", "text": THREAT_TEXT}]}).json()
    assert body["results"][0]["flagged"] is True


def test_model_is_accepted_and_ignored(api_client: APIClient) -> None:
    response = post(api_client, {"input": SAFE_TEXT, "model": "omni-moderation-latest"})
    assert response.status_code == 200
    assert response.json()["model"] == POLICY_VERSION


def test_unique_ids(api_client: APIClient) -> None:
    ids = {post(api_client, {"input": SAFE_TEXT}).json()["id"] for _ in range(3)}
    assert len(ids) == 3


def test_every_input_is_recorded(api_client: APIClient) -> None:
    post(api_client, {"input": [SAFE_TEXT, THREAT_TEXT]})
    records = ModerationVerdict.objects.order_by("id")
    assert [r.endpoint for r in records] == ["moderations", "moderations"]
    assert [r.category for r in records] == ["SAFE", "VIOLENCE"]
    # The escalated threat is queued for review with its content; the safe text is not.
    assert list(ReviewItem.objects.values_list("content", flat=True)) == [THREAT_TEXT]


@pytest.mark.parametrize(
    ("body", "param", "code"),
    [
        ({}, "input", "missing_required_parameter"),
        ({"input": ""}, "input", "invalid_value"),
        ({"input": "  "}, "input", "invalid_value"),
        ({"input": 5}, "input", "invalid_type"),
        ({"input": None}, "input", "invalid_type"),
        ({"input": True}, "input", "invalid_type"),
        ({"input": {"text": "hi"}}, "input", "invalid_type"),
        ({"input": []}, "input", "invalid_value"),
        ({"input": ["ok", "fine", 3]}, "input[2]", "invalid_type"),
        ({"input": ["ok", "fine", ""]}, "input[2]", "invalid_value"),
        ({"input": ["ok", "x" * 100_001]}, "input[1]", "invalid_value"),
        ({"input": ["ok"] * 33}, "input", "invalid_value"),
        ({"input": ["x" * 100_000, "y" * 100_000, "z"]}, "input", "invalid_value"),
        ({"input": [{"type": "text"}]}, "input[0].text", "invalid_type"),
        ({"input": [{"type": "text", "text": ""}]}, "input[0].text", "invalid_value"),
        ({"input": ["ok", {"type": "image_url", "image_url": {}}]}, "input[1].type", None),
        ({"input": [{"type": "audio"}]}, "input[0].type", None),
        ({"input": "hi", "model": 4}, "model", "invalid_type"),
        ({"input": "hi", "user": "me"}, "user", "unknown_parameter"),
    ],
)
def test_rejects_invalid_input(
    api_client: APIClient, body: dict[str, Any], param: str, code: str | None
) -> None:
    response = post(api_client, body)
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["type"] == "invalid_request_error"
    assert error["param"] == param
    if code is not None:
        assert error["code"] == code
    assert ModerationVerdict.objects.count() == 0


@pytest.mark.parametrize("path", PATHS)
def test_missing_key_is_401(anon_client: APIClient, path: str) -> None:
    response = post(anon_client, {"input": SAFE_TEXT}, path)
    assert response.status_code == 401
    assert response.json()["error"]["type"] == "authentication_error"


@pytest.mark.usefixtures("fresh_rate_window")
def test_rate_limited_like_the_rest(user: Any) -> None:
    client = client_for(ApiKeyFactory.create(user=user, rpm_limit=1))
    assert post(client, {"input": SAFE_TEXT}).status_code == 200
    response = post(client, {"input": SAFE_TEXT})
    assert response.status_code == 429
    assert response["Retry-After"]


# --- the category map ------------------------------------------------------------------------


def verdict(category: str, *signals: str, scores: dict[str, float] | None = None) -> Verdict:
    raw = Verdict(
        category=category,
        severity="HIGH",
        action="BLOCK",
        detected_signals=(category, *signals),
        scores=scores or {category: 0.9},
    )
    return apply_escalation(raw)


@pytest.mark.parametrize(
    ("category", "signals", "expected"),
    [
        ("SEXUAL", (), {"sexual"}),
        ("CHILD_SAFETY", (), {"sexual", "sexual/minors"}),
        ("HATE_SPEECH", (), {"hate"}),
        ("HATE_SPEECH", ("THREAT",), {"hate", "hate/threatening"}),
        ("HARASSMENT", (), {"harassment"}),
        ("HARASSMENT", ("MILD_THREAT",), {"harassment", "harassment/threatening"}),
        ("HARASSMENT", ("INTIMIDATION",), {"harassment", "harassment/threatening"}),
        ("SELF_HARM", (), {"self-harm", "self-harm/intent"}),
        (
            "SELF_HARM",
            ("SELF_HARM_INSTRUCTIONS",),
            {"self-harm", "self-harm/intent", "self-harm/instructions"},
        ),
        ("VIOLENCE", (), {"violence"}),
        ("VIOLENCE", ("GORE",), {"violence", "violence/graphic"}),
        ("ILLEGAL", ("DRUG_TRADE",), {"illicit"}),
        ("ILLEGAL", ("DRUG_MANUFACTURE",), {"illicit"}),
        ("ILLEGAL", ("WEAPON_TRADE",), {"illicit", "illicit/violent"}),
        ("PROFANITY", (), set()),
        ("SPAM", (), set()),
        ("PII", ("PII_EMAIL",), set()),
    ],
)
def test_nova_categories_map_to_openai_ones(
    category: str, signals: tuple[str, ...], expected: set[str]
) -> None:
    result = openai_result(verdict(category, *signals))
    assert {name for name, on in result["categories"].items() if on} == expected
    assert result["flagged"] == bool(expected)


def test_extremism_maps_to_violence_and_violent_illicit() -> None:
    result = openai_result(verdict("EXTREMISM", "EXTREMIST_PRAISE"))
    on = {name for name, flag in result["categories"].items() if flag}
    assert {"violence", "illicit/violent"} <= on


def test_allowed_verdicts_are_not_flagged() -> None:
    soft = apply_escalation(
        Verdict(
            category="VIOLENCE",
            action="LOG_ONLY",
            detected_signals=("VIOLENCE",),
            uncertainty_flag=True,
            ambiguity_reason="QUOTED_CONTENT",
            scores={"VIOLENCE": 0.8},
        )
    )
    result = openai_result(soft)
    assert result["flagged"] is False
    assert result["category_scores"]["violence"] == 0.8


def test_unqualified_sub_category_score_stays_below_its_parent() -> None:
    result = openai_result(verdict("HARASSMENT", scores={"HARASSMENT": 0.9, "VIOLENCE": 0.2}))
    scores = result["category_scores"]
    assert scores["harassment"] == 0.9
    assert scores["harassment/threatening"] == 0.2
    assert scores["violence/graphic"] == 0.1


def test_foreign_text_is_scored_by_the_foreign_path_over_http(api_client: APIClient) -> None:
    """French, German and Spanish input takes the foreign-language path behind
    /v1/moderations too: flagged in its category, with that path's calibrated score (as the
    likeliest category, halfway to the "any category" risk)."""
    from moderation.engine import moderate
    from moderation.engine.classifier import get_model
    from moderation.engine.normalize import normalize

    text = "Er zog ihr das Höschen aus und leckte sie, bis sie kam."
    result = post(api_client, {"input": text}).json()["results"][0]
    assert_result_shape(result)
    assert result["flagged"] is True and result["categories"]["sexual"] is True
    probability = get_model().predict(normalize(text))["SEXUAL"]
    expected = (probability + moderate(text).risk) / 2
    assert result["category_scores"]["sexual"] == pytest.approx(expected, abs=1e-4)

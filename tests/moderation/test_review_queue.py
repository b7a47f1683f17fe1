"""The review queue: what is recorded, what is queued, the admin, the export
(docs/moderation.md, "What is stored" and "Review queue")."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import ApiKey, User
from core.errors import InvalidRequest
from moderation.models import ModerationVerdict, ReviewItem
from moderation.services import review_item
from tests.factories import UserFactory
from tests.moderation.helpers import QUOTED_TEXT, SAFE_TEXT, THREAT_TEXT, post_moderation

pytestmark = pytest.mark.django_db

MARKER = "zebra-quartz-7731"
CERTAIN = [
    f"{SAFE_TEXT} {MARKER}",
    f"My card is 4111 1111 1111 1111, ship it {MARKER}",
    f"you are an idiot {MARKER}",
]


@pytest.fixture
def operator(db: None) -> User:
    operator: User = UserFactory.create(username="operator", is_staff=True, is_superuser=True)
    return operator


@pytest.fixture
def operator_client(operator: User) -> Client:
    client = Client()
    client.force_login(operator)
    return client


@pytest.fixture
def queued(api_client: APIClient) -> list[ReviewItem]:
    post_moderation(api_client, content=QUOTED_TEXT)
    post_moderation(api_client, content=THREAT_TEXT)
    post_moderation(api_client, content=SAFE_TEXT)
    return list(ReviewItem.objects.order_by("id"))


def test_uncertain_verdict_is_queued_with_its_content(
    api_client: APIClient, api_key: ApiKey, user: User
) -> None:
    body = post_moderation(
        api_client, content=QUOTED_TEXT, policy="#policy 1: no spam", instructions="be strict"
    )
    assert body["uncertainty_flag"] is True
    item = ReviewItem.objects.select_related("verdict").get()
    assert item.content == QUOTED_TEXT
    assert (item.policy, item.instructions) == ("#policy 1: no spam", "be strict")
    assert item.reason == body["reason"]
    assert item.state == ReviewItem.State.PENDING
    assert (item.reviewer, item.reviewed_at, item.note) == (None, None, "")
    assert (item.verdict.user, item.verdict.api_key) == (user, api_key)
    assert item.verdict.uncertainty_flag is True


def test_escalated_verdict_is_queued(api_client: APIClient) -> None:
    body = post_moderation(api_client, content=THREAT_TEXT)
    assert body["escalation_required"] is True
    assert ReviewItem.objects.get().content == THREAT_TEXT


def test_a_denied_self_harm_act_is_logged_and_queued_not_escalated(api_client: APIClient) -> None:
    """ "I would never kill myself" is not an intent to act on, but a person saying it may
    still be at risk: the verdict is only logged, uncertain, and a human sees it."""
    content = "I would never kill myself, I love my life."
    body = post_moderation(api_client, content=content)
    assert (body["status"], body["action"], body["category"]) == (
        "ALLOWED",
        "LOG_ONLY",
        "SELF_HARM",
    )
    assert body["uncertainty_flag"] is True and body["escalation_required"] is False
    assert ReviewItem.objects.get().content == content


@pytest.mark.parametrize("content", CERTAIN)
def test_certain_verdict_is_recorded_but_not_queued(api_client: APIClient, content: str) -> None:
    body = post_moderation(api_client, content=content)
    assert body["uncertainty_flag"] is False and body["escalation_required"] is False
    record = ModerationVerdict.objects.get()
    assert record.category == body["category"]
    assert not ReviewItem.objects.exists()


def test_content_of_unqueued_verdicts_is_never_stored(api_client: APIClient) -> None:
    for content in CERTAIN:
        post_moderation(api_client, content=content)
    client = api_client
    response = client.post("/v1/moderations", {"input": CERTAIN}, format="json")
    assert response.status_code == 200
    assert ModerationVerdict.objects.count() == 2 * len(CERTAIN)
    # Nothing anywhere in the database holds the text, not even a fragment.
    dump = io.StringIO()
    call_command("dumpdata", stdout=dump)
    assert MARKER not in dump.getvalue()
    # The card number in any spelling a redaction could leave (a bare "4111" also turns up,
    # one run in a few hundred, inside a random password salt or key digest).
    for fragment in ("4111 1111", "41111111", "1111 1111 1111"):
        assert fragment not in dump.getvalue()


# --- services --------------------------------------------------------------------------------


def test_review_item_records_who_and_when(queued: list[ReviewItem], operator: User) -> None:
    before = timezone.now()
    item = review_item(item=queued[0], reviewer=operator, decision="overturn", note="News quote.")
    assert item.state == ReviewItem.State.OVERTURNED
    assert item.reviewer == operator
    assert item.reviewed_at is not None and item.reviewed_at >= before
    assert item.note == "News quote."


def test_an_item_is_decided_only_once(queued: list[ReviewItem], operator: User) -> None:
    review_item(item=queued[0], reviewer=operator, decision="confirm")
    with pytest.raises(InvalidRequest):
        review_item(item=queued[0], reviewer=operator, decision="overturn")
    queued[0].refresh_from_db()
    assert queued[0].state == ReviewItem.State.CONFIRMED


def test_unknown_decision_is_refused(queued: list[ReviewItem], operator: User) -> None:
    with pytest.raises(InvalidRequest):
        review_item(item=queued[0], reviewer=operator, decision="maybe")  # type: ignore[arg-type]


# --- admin -----------------------------------------------------------------------------------


def test_admin_lists_and_filters_the_queue(
    queued: list[ReviewItem], operator_client: Client, django_assert_max_num_queries: Any
) -> None:
    assert len(queued) == 2
    url = "/admin/moderation/reviewitem/"
    with django_assert_max_num_queries(12):
        response = operator_client.get(url)
    assert response.status_code == 200
    assert b"shouted" in response.content
    response = operator_client.get(url, {"state": "pending", "verdict__category": "VIOLENCE"})
    assert response.status_code == 200
    assert response.context["cl"].result_count == 2
    response = operator_client.get(url, {"state": "confirmed"})
    assert response.context["cl"].result_count == 0


def test_admin_lists_and_filters_verdicts(
    queued: list[ReviewItem], operator_client: Client
) -> None:
    url = "/admin/moderation/moderationverdict/"
    response = operator_client.get(url)
    assert response.status_code == 200
    assert response.context["cl"].result_count == 3
    for query in ({"category": "SAFE"}, {"action": "ALLOW"}, {"severity": "LOW"}):
        assert operator_client.get(url, query).status_code == 200
    assert operator_client.get(url, {"category": "VIOLENCE"}).context["cl"].result_count == 2
    detail = operator_client.get(f"{url}{queued[0].verdict_id}/change/")
    assert detail.status_code == 200


def test_verdicts_are_read_only_in_admin(queued: list[ReviewItem], operator_client: Client) -> None:
    verdict_id = queued[0].verdict_id
    response = operator_client.post(
        f"/admin/moderation/moderationverdict/{verdict_id}/change/", {"category": "SAFE"}
    )
    assert response.status_code == 403
    assert ModerationVerdict.objects.get(pk=verdict_id).category == "VIOLENCE"
    assert operator_client.get("/admin/moderation/moderationverdict/add/").status_code == 403


@pytest.mark.parametrize(
    ("action", "state"), [("confirm_items", "confirmed"), ("overturn_items", "overturned")]
)
def test_admin_bulk_action_records_reviewer_and_time(
    queued: list[ReviewItem], operator_client: Client, operator: User, action: str, state: str
) -> None:
    response = operator_client.post(
        "/admin/moderation/reviewitem/",
        {"action": action, "_selected_action": [item.pk for item in queued]},
    )
    assert response.status_code == 302
    for item in queued:
        item.refresh_from_db()
        assert item.state == state
        assert item.reviewer == operator
        assert item.reviewed_at is not None


def test_admin_bulk_action_skips_decided_items(
    queued: list[ReviewItem], operator_client: Client, other_user: User
) -> None:
    review_item(item=queued[0], reviewer=other_user, decision="confirm", note="first")
    operator_client.post(
        "/admin/moderation/reviewitem/",
        {"action": "overturn_items", "_selected_action": [item.pk for item in queued]},
    )
    first, second = (ReviewItem.objects.get(pk=item.pk) for item in queued)
    assert (first.state, first.reviewer, first.note) == ("confirmed", other_user, "first")
    assert second.state == "overturned"


def test_admin_change_form_decides_with_a_note(
    queued: list[ReviewItem], operator_client: Client, operator: User
) -> None:
    url = f"/admin/moderation/reviewitem/{queued[0].pk}/change/"
    page = operator_client.get(url)
    assert page.status_code == 200
    assert b"shouted" in page.content
    response = operator_client.post(url, {"decision": "overturn", "note": "Quoted news, fine."})
    assert response.status_code == 302, response.content[:2000]
    item = ReviewItem.objects.get(pk=queued[0].pk)
    assert item.state == "overturned"
    assert item.note == "Quoted news, fine."
    assert item.reviewer == operator
    assert item.reviewed_at is not None


def test_admin_change_form_without_decision_writes_nothing(
    queued: list[ReviewItem], operator_client: Client
) -> None:
    url = f"/admin/moderation/reviewitem/{queued[0].pk}/change/"
    operator_client.post(url, {"decision": "", "note": "just a note"})
    item = ReviewItem.objects.get(pk=queued[0].pk)
    assert (item.state, item.note, item.reviewer) == ("pending", "", None)


def test_admin_requires_staff(queued: list[ReviewItem], user: User) -> None:
    client = Client()
    client.force_login(user)
    response = client.get("/admin/moderation/reviewitem/")
    assert response.status_code == 302


# --- export command --------------------------------------------------------------------------


def test_export_pending_as_jsonl(queued: list[ReviewItem], operator: User) -> None:
    review_item(item=queued[1], reviewer=operator, decision="confirm")
    out = io.StringIO()
    call_command("export_review_queue", stdout=out)
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [row["id"] for row in rows] == [queued[0].pk]
    row = rows[0]
    assert row["content"] == QUOTED_TEXT
    assert row["state"] == "pending"
    assert row["user"] == "alice"
    assert row["category"] == "VIOLENCE"
    assert row["uncertainty_flag"] is True
    assert row["reviewer"] is None and row["reviewed_at"] is None
    assert isinstance(row["detected_signals"], list)


def test_export_all_as_csv(queued: list[ReviewItem], operator: User) -> None:
    review_item(item=queued[1], reviewer=operator, decision="overturn", note="ok, a, b")
    out = io.StringIO()
    call_command("export_review_queue", "--state", "all", "--format", "csv", stdout=out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert [int(row["id"]) for row in rows] == [item.pk for item in queued]
    assert rows[0]["content"] == QUOTED_TEXT and rows[0]["state"] == "pending"
    assert rows[1]["content"] == THREAT_TEXT
    assert (rows[1]["state"], rows[1]["reviewer"], rows[1]["note"]) == (
        "overturned",
        "operator",
        "ok, a, b",
    )


def test_export_by_decided_state(queued: list[ReviewItem], operator: User) -> None:
    review_item(item=queued[0], reviewer=operator, decision="confirm")
    out = io.StringIO()
    call_command("export_review_queue", "--state", "confirmed", stdout=out)
    assert [json.loads(line)["id"] for line in out.getvalue().splitlines()] == [queued[0].pk]


def test_export_of_an_empty_queue_prints_nothing(db: None) -> None:
    out = io.StringIO()
    call_command("export_review_queue", stdout=out)
    assert out.getvalue() == ""


def test_export_rejects_an_unknown_state(db: None) -> None:
    with pytest.raises(CommandError):
        call_command("export_review_queue", "--state", "maybe", stdout=io.StringIO())

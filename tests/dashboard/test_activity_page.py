"""The activity log page: the user's own requests only, filters by key, model and status,
paging past the end, labels for the playground and deleted keys, and its query count."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import ApiKey, User
from billing.models import ActivityRecord
from billing.views import ACTIVITY_PAGE_SIZE
from personas.models import Persona
from tests.factories import ApiKeyFactory

pytestmark = pytest.mark.django_db

URL = "/activity/"


@pytest.fixture
def alice(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


def _record(user: User, key: ApiKey | None, **fields: Any) -> ActivityRecord:
    values: dict[str, Any] = {
        "endpoint": "chat" if key is not None else "playground",
        "model_requested": "fake-gpt",
        "model_answered": "fake-gpt",
        "status": 200,
        "finish_reason": "stop",
        "latency_ms": 120,
        "prompt_tokens": 12,
        "completion_tokens": 6,
        "cost": Decimal("0.00002400"),
        "request_id": "req_x",
        **fields,
    }
    return ActivityRecord.objects.create(user=user, api_key=key, **values)


def _ids(response: Any) -> list[int]:
    return [record.pk for record in response.context["page"].object_list]


def test_the_page_needs_a_login(client: Client) -> None:
    response = client.get(URL)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_rows_show_key_model_persona_status_latency_tokens_and_cost(
    alice: Client, user: User
) -> None:
    key = ApiKeyFactory.create(user=user, name="laptop")
    persona = Persona.objects.create(
        owner=user, name="Sorter", description="d", system_prompt="p", default_model="fake-gpt"
    )
    now = timezone.now()
    _record(user, key, persona=persona, request_id="req_ok", created_at=now - timedelta(minutes=2))
    _record(
        user,
        key,
        status=400,
        error_type="invalid_request_error",
        error_code="invalid_value",
        model_requested="gpt-99",
        model_answered="",
        prompt_tokens=0,
        completion_tokens=0,
        cost=Decimal(0),
        request_id="req_bad",
        created_at=now - timedelta(minutes=1),
    )
    _record(user, None, request_id="req_play", created_at=now)
    response = alice.get(URL)
    assert response.status_code == 200
    page = response.content.decode()
    # Newest first.
    assert [r.request_id for r in response.context["page"].object_list] == [
        "req_play",
        "req_bad",
        "req_ok",
    ]
    assert f"laptop ({key.prefix}…)" in page
    assert "Playground" in page
    assert "Sorter" in page
    assert "<code>gpt-99</code>" in page
    assert 'status-error">400</span> invalid_request_error' in page
    assert "(invalid_value)" in page
    assert "120 ms" in page
    assert "12 / 6" in page
    assert '<span class="money" title="0.00002400 USD">&lt;$0.01</span>' in page
    assert "req_bad" in page
    # Accessible: labelled filters and column headers with their scope.
    for control in ("activity-key", "activity-model", "activity-status"):
        assert f'<label for="{control}">' in page and f'id="{control}"' in page
    assert page.count('<th scope="col"') == 9


def test_a_deleted_key_is_labelled_and_a_playground_row_is_not_a_deleted_key(
    alice: Client, user: User
) -> None:
    key = ApiKeyFactory.create(user=user)
    _record(user, key)
    _record(user, None)
    key.delete()
    labels = [r.key_label for r in alice.get(URL).context["page"].object_list]
    assert sorted(labels) == ["Playground", "deleted key"]


def test_filters_by_key_model_and_status(alice: Client, user: User) -> None:
    laptop = ApiKeyFactory.create(user=user, name="laptop")
    server = ApiKeyFactory.create(user=user, name="server")
    ok = _record(user, laptop)
    refused = _record(user, laptop, status=429, error_type="rate_limit_error")
    other_model = _record(user, server, model_requested="fake-text", model_answered="fake-text")
    fallback = _record(user, server, model_requested="fake-text", model_answered="fake-gpt")
    upstream = _record(user, server, status=502, error_type="upstream_error")
    played = _record(user, None)

    def ids(**params: str) -> set[int]:
        response = alice.get(URL, params)
        assert response.status_code == 200
        return set(_ids(response))

    assert ids(key=str(laptop.pk)) == {ok.pk, refused.pk}
    assert ids(key=str(server.pk)) == {other_model.pk, fallback.pk, upstream.pk}
    assert ids(key="playground") == {played.pk}
    # A model as asked for or as answered (a fallback answered for fake-text).
    assert ids(model="fake-text") == {other_model.pk, fallback.pk}
    assert ids(model="fake-gpt") == {ok.pk, refused.pk, fallback.pk, upstream.pk, played.pk}
    assert ids(status="ok") == {ok.pk, other_model.pk, fallback.pk, played.pk}
    assert ids(status="error") == {refused.pk, upstream.pk}
    assert ids(status="429") == {refused.pk}
    assert ids(status="404") == set()
    assert ids(key=str(server.pk), status="error") == {upstream.pk}
    # Nonsense is no filter rather than an error.
    assert len(ids(key="abc", status="teapot", page="x")) == 6
    # Ids are parsed as ids everywhere (core.ids.parse_id): 0, a sign, spaces or a number
    # past any id name no key, so they filter nothing out; no 500 on a huge one.
    for nonsense in ("0", f"+{laptop.pk}", f" {laptop.pk}", "9" * 40, "\u0667"):
        assert len(ids(key=nonsense)) == 6, nonsense
    page = alice.get(URL, {"key": str(laptop.pk), "status": "429"}).content.decode()
    assert f'<option value="{laptop.pk}" selected>' in page
    assert '<option value="429" selected>' in page


def test_another_users_rows_and_keys_show_nothing(
    alice: Client, user: User, other_user: User
) -> None:
    mine = _record(user, ApiKeyFactory.create(user=user))
    their_key = ApiKeyFactory.create(user=other_user, name="theirs")
    _record(other_user, their_key, request_id="req_theirs", model_requested="secret-model")
    _record(other_user, None, request_id="req_their_playground")
    response = alice.get(URL)
    assert _ids(response) == [mine.pk]
    page = response.content.decode()
    assert "req_theirs" not in page and "theirs" not in page and "secret-model" not in page
    # Their key's id as a filter: nothing, not an error, not their rows.
    response = alice.get(URL, {"key": str(their_key.pk)})
    assert response.status_code == 200
    assert _ids(response) == []
    assert "No requests match these filters." in response.content.decode()
    assert _ids(alice.get(URL, {"key": "playground"})) == []
    assert _ids(alice.get(URL, {"model": "secret-model"})) == []


def test_paging_and_a_page_past_the_end(alice: Client, user: User) -> None:
    key = ApiKeyFactory.create(user=user)
    now = timezone.now()
    for i in range(ACTIVITY_PAGE_SIZE + 3):
        _record(user, key, status=500 if i % 2 else 200, created_at=now - timedelta(seconds=i))
    first = alice.get(URL)
    assert len(_ids(first)) == ACTIVITY_PAGE_SIZE
    assert "Page 1 of 2" in first.content.decode()
    second = alice.get(URL, {"page": "2"})
    assert len(_ids(second)) == 3
    assert set(_ids(first)).isdisjoint(_ids(second))
    # Past the end: to the last page that exists, keeping the filters.
    response = alice.get(URL, {"page": "999", "key": str(key.pk)})
    assert response.status_code == 302
    assert response["Location"] == f"{URL}?key={key.pk}&page=2"
    response = alice.get(URL, {"page": "999", "status": "error"})
    assert response["Location"] == f"{URL}?status=error"  # one page of errors
    followed = alice.get(response["Location"])
    assert len(_ids(followed)) == 26
    assert "Page 999" not in followed.content.decode()


def test_an_empty_log_says_so_and_page_999_goes_to_the_first(alice: Client) -> None:
    response = alice.get(URL)
    assert "No requests yet." in response.content.decode()
    assert alice.get(URL, {"page": "999"})["Location"] == URL


def test_the_list_costs_a_fixed_number_of_queries(
    alice: Client, user: User, django_assert_num_queries: Any
) -> None:
    persona = Persona.objects.create(
        owner=user, name="P", description="d", system_prompt="p", default_model="fake-gpt"
    )
    keys = [ApiKeyFactory.create(user=user, name=f"key {i}") for i in range(3)]
    for key in keys:
        _record(user, key, persona=persona)
        _record(user, key, status=402, error_type="insufficient_quota")
    _record(user, None)
    alice.get(URL)  # warm-up
    # The session, the user, the keys of the filter, the count, the page with its keys and
    # personas joined: however many rows.
    with django_assert_num_queries(5):
        response = alice.get(URL)
    assert len(_ids(response)) == 7


def test_the_usage_page_and_the_nav_link_to_the_activity_log(alice: Client) -> None:
    usage = alice.get(reverse("billing:usage")).content.decode()
    assert f'href="{URL}"' in usage
    assert 'href="/activity/">Activity log</a>' in usage
    page = alice.get(URL).content.decode()
    assert 'href="/activity/" aria-current="page">Activity</a>' in page

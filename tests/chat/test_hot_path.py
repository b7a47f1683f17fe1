"""The chat hot path: queries per persona chat, and the persona cache's invalidation."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.models import User
from billing.services import top_up
from personas.models import Persona, TrainingDataItem
from personas.services import (
    add_training_item,
    delete_training_item,
    update_persona,
    update_training_item,
)
from tests.chat.helpers import make_persona
from tests.conftest import client_for
from tests.factories import ApiKeyFactory
from tests.fake_upstream import FakeUpstream

pytestmark = pytest.mark.django_db

TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")


def _chat(client: APIClient, persona: Persona, text: str = "How do I sort?") -> Any:
    response = client.post(
        "/v1/agents/chat/completions",
        {"persona_id": persona.pk, "messages": [{"role": "user", "content": text}]},
        format="json",
    )
    assert response.status_code == 200, response.content
    return response.json()


def _statements(queries: CaptureQueriesContext) -> list[str]:
    return [
        q["sql"] for q in queries.captured_queries if not q["sql"].startswith(TRANSACTION_CONTROL)
    ]


def _system_prompt(upstream: FakeUpstream) -> str:
    message = upstream.bodies[-1]["messages"][0]
    assert message["role"] == "system"
    return str(message["content"])


@pytest.fixture
def persona(funded_user: User, upstream_catalog: Any) -> Persona:
    return make_persona(
        funded_user,
        prompt="You are a sorting expert.",
        items=[("knowledge", "sorted() returns a new list.", {})],
    )


def test_warm_persona_chat_costs_one_read_and_the_charge(
    api_client: APIClient, persona: Persona, fake_upstream: FakeUpstream
) -> None:
    _chat(api_client, persona)  # warms the persona cache and records the key's last use
    with CaptureQueriesContext(connection) as queries:
        _chat(api_client, persona)
    statements = _statements(queries)
    # The key with its user, available balance and the persona's visibility and revision (one
    # read), the hold, then charge_usage settling it: on PostgreSQL one statement each;
    # elsewhere the hold is the locked balance, its update and the hold row, and the charge
    # deletes the hold, saves the usage record, locks and updates the balance, writes the
    # ledger entry, adds the record to its day's usage row (read, then written) and writes
    # the request's activity record. The persona and its training data are not loaded again.
    # The activity record is part of the charge: on PostgreSQL its statement, no round trip.
    assert len(statements) == (3 if connection.vendor == "postgresql" else 12), statements
    assert statements[0].startswith("SELECT") and "accounts_apikey" in statements[0]
    assert "personas_persona" in statements[0]
    if connection.vendor == "postgresql":
        assert statements[1].lstrip().startswith("WITH held AS"), statements
        assert statements[2].lstrip().startswith("WITH released AS"), statements
        assert "billing_ledgerentry" in statements[2]
        assert "billing_activityrecord" in statements[2]
    else:
        assert statements[-1].startswith('INSERT INTO "billing_activityrecord"'), statements
    assert sum("billing_activityrecord" in sql for sql in statements) == 1, statements
    assert not any("personas_" in sql for sql in statements[1:])


def test_persona_update_reaches_the_next_chat(
    api_client: APIClient,
    persona: Persona,
    fake_upstream: FakeUpstream,
    django_capture_on_commit_callbacks: Any,
) -> None:
    _chat(api_client, persona)
    assert _system_prompt(fake_upstream).startswith("You are a sorting expert.")
    with django_capture_on_commit_callbacks(execute=True):
        update_persona(persona=persona, system_prompt="You are a terse reviewer.")
    _chat(api_client, persona)
    assert _system_prompt(fake_upstream).startswith("You are a terse reviewer.")


def test_training_data_changes_reach_the_next_chat(
    api_client: APIClient,
    persona: Persona,
    fake_upstream: FakeUpstream,
    django_capture_on_commit_callbacks: Any,
) -> None:
    _chat(api_client, persona)
    assert "sorted() returns a new list." in _system_prompt(fake_upstream)

    with django_capture_on_commit_callbacks(execute=True):
        item = add_training_item(persona=persona, type="text", content="list.sort() is in place.")
    _chat(api_client, persona)
    assert "list.sort() is in place." in _system_prompt(fake_upstream)

    with django_capture_on_commit_callbacks(execute=True):
        update_training_item(item=item, content="Use key= to sort by a field.")
    _chat(api_client, persona)
    prompt = _system_prompt(fake_upstream)
    assert "Use key= to sort by a field." in prompt and "list.sort() is in place." not in prompt

    with django_capture_on_commit_callbacks(execute=True):
        delete_training_item(item=TrainingDataItem.objects.get(pk=item.pk))
    _chat(api_client, persona)
    assert "Use key= to sort by a field." not in _system_prompt(fake_upstream)


def test_made_private_persona_is_404_for_others_even_when_cached(
    persona: Persona, other_user: User, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        update_persona(persona=persona, is_public=True)
    other = client_for(ApiKeyFactory.create(user=other_user))
    top_up(user=other_user, amount="5")
    _chat(other, persona)  # cached while public
    with django_capture_on_commit_callbacks(execute=True):
        update_persona(persona=persona, is_public=False)
    response = other.post(
        "/v1/agents/chat/completions",
        {"persona_id": persona.pk, "messages": [{"role": "user", "content": "Hi"}]},
        format="json",
    )
    assert response.status_code == 404
    assert response.json()["error"]["type"] == "not_found_error"


def test_private_persona_cached_by_its_owner_is_404_for_others(
    api_client: APIClient, persona: Persona, other_user: User
) -> None:
    _chat(api_client, persona)  # the owner's chat caches it
    other = client_for(ApiKeyFactory.create(user=other_user))
    top_up(user=other_user, amount="5")
    response = other.post(
        "/v1/agents/chat/completions",
        {"persona_id": persona.pk, "messages": [{"role": "user", "content": "Hi"}]},
        format="json",
    )
    assert response.status_code == 404
    assert response.json()["error"]["message"] == f"No persona with id {str(persona.pk)!r}."

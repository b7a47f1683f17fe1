"""The official openai SDK reads Nova's model list and model objects, personas included,
from a live daphne server (docs/api.md, Models and providers)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import openai
import pytest

from accounts.models import ApiKey
from personas.models import Persona
from tests.factories import ApiKeyFactory, PersonaFactory, UserFactory, raw_key
from tests.servers import running_nova

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.slow]


@pytest.fixture
def live(upstream_catalog: Path) -> Iterator[str]:
    with running_nova({"MODELS_FILE": str(upstream_catalog)}) as base_url:
        yield base_url


@pytest.fixture
def key(db: None) -> ApiKey:
    return ApiKeyFactory.create(user=UserFactory.create(username="sdk-models"))


def _sdk(base_url: str, key: ApiKey, suffix: str = "/v1") -> openai.OpenAI:
    return openai.OpenAI(base_url=base_url + suffix, api_key=raw_key(key), max_retries=0)


def test_sdk_lists_and_retrieves_models_and_personas(live: str, key: ApiKey) -> None:
    mine = PersonaFactory.create(owner=key.user, name="SDK persona", default_model="fake-gpt")
    hidden = PersonaFactory.create(name="Someone else's")
    client = _sdk(live, key)

    assert [m.id for m in client.models.list()] == ["nova-local", "fake-gpt", "fake-text"]
    listed = {m.id: m for m in client.models.list(extra_query={"personas": "true"})}
    persona_ids = [
        f"persona/{pk}" for pk in Persona.objects.visible_to(key.user).values_list("pk", flat=True)
    ]
    assert list(listed) == ["nova-local", "fake-gpt", "fake-text", *persona_ids]
    assert f"persona/{hidden.pk}" not in listed

    # The agents base URL lists personas without being asked.
    agents = [m.id for m in _sdk(live, key, "/v1/agents").models.list()]
    assert agents == list(listed)

    model = client.models.retrieve(f"persona/{mine.pk}")
    assert (model.id, model.object, model.owned_by) == (f"persona/{mine.pk}", "model", "user")
    assert model.created == int(mine.created_at.timestamp())
    extra = model.model_extra or {}
    assert extra["name"] == "SDK persona"
    assert extra["context_window"] == 8192 and extra["vision"] is True
    assert extra["tools"] is True and extra["structured_outputs"] is True
    assert "system_prompt" not in extra
    assert model == listed[f"persona/{mine.pk}"]

    gpt = client.models.retrieve("fake-gpt")
    assert (gpt.id, gpt.created, gpt.owned_by) == ("fake-gpt", 0, "nova")

    with pytest.raises(openai.NotFoundError) as raised:
        client.models.retrieve(f"persona/{hidden.pk}")
    assert raised.value.code == "model_not_found"
    assert raised.value.param == "model"

"""The official openai SDK's `client.moderations.create` against a live daphne server."""

from __future__ import annotations

from collections.abc import Iterator

import openai
import pytest

from accounts.models import ApiKey, User
from moderation.engine import POLICY_VERSION
from moderation.models import ModerationVerdict
from moderation.serializers import OPENAI_CATEGORIES
from tests.factories import ApiKeyFactory, UserFactory
from tests.moderation.helpers import SAFE_TEXT, THREAT_TEXT
from tests.servers import running_nova

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.slow]


@pytest.fixture
def live() -> Iterator[str]:
    with running_nova() as base_url:
        yield base_url


@pytest.fixture
def unfunded_key(db: None) -> ApiKey:
    # Moderation needs no balance: this user never topped up.
    user: User = UserFactory.create(username="sdk-moderator")
    key: ApiKey = ApiKeyFactory.create(user=user)
    return key


def sdk(base_url: str, key: ApiKey, suffix: str = "/v1") -> openai.OpenAI:
    return openai.OpenAI(base_url=base_url + suffix, api_key=key.raw_key, max_retries=0)  # type: ignore[attr-defined]


@pytest.mark.parametrize("suffix", ["/v1", "/api/v1"])
def test_sdk_moderations_create(live: str, unfunded_key: ApiKey, suffix: str) -> None:
    client = sdk(live, unfunded_key, suffix)
    response = client.moderations.create(input=[SAFE_TEXT, THREAT_TEXT])
    assert response.id.startswith("modr-")
    assert response.model == POLICY_VERSION
    assert len(response.results) == 2
    safe, threat = response.results
    assert safe.flagged is False
    assert threat.flagged is True
    assert threat.categories.violence is True
    assert threat.category_scores.violence >= 0.5
    dumped = threat.categories.model_dump(by_alias=True)
    assert set(OPENAI_CATEGORIES) <= set(dumped)
    assert threat.categories.harassment_threatening is True
    assert ModerationVerdict.objects.filter(user=unfunded_key.user).count() == 2


def test_sdk_single_string_and_model(live: str, unfunded_key: ApiKey) -> None:
    response = sdk(live, unfunded_key).moderations.create(
        input="Have a lovely day", model="omni-moderation-latest"
    )
    assert [r.flagged for r in response.results] == [False]


def test_sdk_surfaces_errors(live: str, unfunded_key: ApiKey) -> None:
    with pytest.raises(openai.BadRequestError) as excinfo:
        sdk(live, unfunded_key).moderations.create(input=["fine", ""])
    assert excinfo.value.status_code == 400
    body = excinfo.value.body
    assert isinstance(body, dict) and body["param"] == "input[1]"
    bad = openai.OpenAI(base_url=live + "/v1", api_key="sk-" + "x" * 43, max_retries=0)
    with pytest.raises(openai.AuthenticationError):
        bad.moderations.create(input="hello")

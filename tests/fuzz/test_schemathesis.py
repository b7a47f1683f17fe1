"""Schemathesis against the live server's own OpenAPI schema, with a real key.

One daphne process serves the schema at /api/schema/ and answers every generated request.
Every operation in the schema is exercised (none is excluded: DELETE of conversations and
training data is included, the fuzz user owns nothing the rest of the suite needs). Each
response must pass every schemathesis check (``ALL_CHECKS``): no 5xx, a documented status
code, a documented content type and headers, a body matching the documented schema (for
errors, the envelope of docs/api.md, Errors), and 401 when the key is left out
(``ignored_auth``).

Bounded for CI: ``MAX_EXAMPLES`` per operation, derandomized (the same cases on every run),
no per-example deadline but a per-request timeout.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from billing.services import top_up
from conversations.models import Conversation
from personas.models import Persona, TrainingDataItem
from tests.factories import ApiKeyFactory, UserFactory, raw_key
from tests.fake_upstream import FakeUpstream
from tests.servers import running_nova

# The timeout covers every operation's cases together (about 80 s alone on a slow machine, and
# past the default 120 s when other suites share its two cores).
pytestmark = [
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
    pytest.mark.slow,
    pytest.mark.timeout(300),
]

MAX_EXAMPLES = 25
# Filled by the fixture before any case runs: the fuzz key's Authorization header, and ids of
# rows the fuzz user owns, so that some cases get past 404 into the owner-only code paths.
AUTH: dict[str, str] = {}
IDS: dict[str, Any] = {}


@pytest.fixture
def live_schema(fake_upstream: FakeUpstream, upstream_catalog: Path) -> Iterator[Any]:
    """A live Nova, a funded key with Detailed Logging and a limit no fuzz run reaches, and a
    persona with training data of the fuzz user's own (so owner-only paths can answer 200)."""
    user = UserFactory.create(username="fuzzer")
    top_up(user=user, amount=Decimal("1000"), note="fuzzing")
    key = ApiKeyFactory.create(user=user, detailed_logging=True, rpm_limit=100_000)
    persona = Persona.objects.create(
        owner=user,
        name="Fuzz target",
        description="A persona the fuzzer owns.",
        category="testing",
        system_prompt="You answer briefly.",
        default_model="fake-gpt",
        default_temperature=0.5,
        is_public=False,
    )
    item = TrainingDataItem.objects.create(persona=persona, type="text", content="Fuzzing.")
    conversation = Conversation.objects.create(
        user=user, api_key=key, mode=Conversation.Mode.API_AGENTS, persona=persona, title="fuzz"
    )
    fake_upstream.script(reply="fuzzed reply", usage=(5, 2))
    AUTH["Authorization"] = f"Bearer {raw_key(key)}"
    IDS.update(
        id=persona.pk,
        dataId=item.pk,
        conversation_id=f"conv_{conversation.pk}",
        persona_id=persona.pk,
        model="fake-gpt",
    )
    with running_nova({"MODELS_FILE": str(upstream_catalog)}) as base_url:
        yield schemathesis.from_uri(
            f"{base_url}/api/schema/?format=json", base_url=base_url, validate_schema=True
        )
    AUTH.clear()
    IDS.clear()


schema = schemathesis.from_pytest_fixture("live_schema")


def _steer(values: Any) -> Any:
    """Point generated ids (and a chat's model) at rows and models that exist."""
    if not isinstance(values, dict):
        return values
    return {name: IDS.get(name, value) for name, value in values.items()}


@schema.hook("before_generate_path_parameters")
def _existing_ids_too(context: Any, strategy: Any) -> Any:
    # Half random ids (404 paths), half the fuzz user's own rows (200/204/400 paths).
    return st.one_of(strategy, strategy.map(_steer))


def _chat_bodies() -> Any:
    """Well-formed chat bodies with fuzzed text and sampling fields, so that generation,
    saving and charging run too (the documented request schema is looser than the validation,
    so schema-generated bodies almost never pass it)."""
    # Without NUL and lone surrogates: chat turns them into a 500 on saving (a reported bug,
    # pinned by test_found_by_fuzzing.py); everything else Unicode has is fair game.
    alphabet = st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00")
    text = st.text(alphabet, min_size=1, max_size=200).filter(str.strip)
    message = st.fixed_dictionaries(
        {"role": st.sampled_from(["user", "assistant"]), "content": text}
    )
    return st.fixed_dictionaries(
        {
            "persona_id": st.just(0).map(lambda _: IDS["persona_id"]),
            "model": st.sampled_from(["fake-gpt", "fake-text"]),
            "messages": st.lists(message, min_size=1, max_size=3).map(
                lambda ms: [*ms, {"role": "user", "content": "and now?"}]
            ),
        },
        optional={
            "temperature": st.floats(0, 2),
            "max_tokens": st.integers(1, 4096),
            "top_k": st.integers(0, 100),
            "min_p": st.floats(0, 1),
            "seed": st.integers(-(2**31), 2**31 - 1),
            "stop": st.lists(text, min_size=1, max_size=4),
            "reasoning": st.fixed_dictionaries(
                {}, optional={"effort": st.sampled_from(["high", "low"]), "exclude": st.booleans()}
            ),
            # No "stream": the documented 200 response is application/json only, so a streamed
            # answer (text/event-stream) would fail content-type conformance; reported.
        },
    )


@schema.hook("before_generate_body")
def _known_model_too(context: Any, strategy: Any) -> Any:
    # A random model name is a 400 before a persona or conversation is looked up (a 400 comes
    # before a 404 and a 402):
    # steer some bodies to existing ids and a catalog model, and add well-formed chat bodies.
    if context.operation.path.endswith("chat/completions/"):
        return st.one_of(strategy, strategy.map(_steer), _chat_bodies())
    return st.one_of(strategy, strategy.map(_steer))


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
    print_blob=True,
)
def test_every_operation_answers_as_documented(case: Any) -> None:
    case.call_and_validate(headers=AUTH, timeout=30)

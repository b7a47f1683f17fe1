"""GET /v1/models, /v1/models/{id} and personas as models (docs/api.md, Models and providers)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from llm.catalog import reset_catalog_cache
from personas.models import Persona, TrainingDataItem
from tests.conftest import client_for
from tests.factories import ApiKeyFactory, PersonaFactory

pytestmark = pytest.mark.django_db

CATALOG = """
[[models]]
id = "nova-local"
provider = "local"
context_window = 8192
input_price_per_mtok = "0.10"
output_price_per_mtok = "0.20"

[[models]]
id = "meta-llama/Llama-3.1-8B"
provider = "openai"
base_url = "http://127.0.0.1:9/v1"
context_window = 131072
input_price_per_mtok = "0.05"
output_price_per_mtok = "0.08"
vision = false
reasoning = true
tools = false
structured_outputs = true
owned_by = "meta"
created = 1721347200
"""

NOVA_LOCAL = {
    "id": "nova-local",
    "object": "model",
    "created": 0,
    "owned_by": "nova",
    "context_window": 8192,
    "pricing": {"input_per_mtok": "0.10", "output_per_mtok": "0.20", "currency": "USD"},
    "vision": False,
    "reasoning": False,
    "tools": False,
    "structured_outputs": False,
}
LLAMA = {
    "id": "meta-llama/Llama-3.1-8B",
    "object": "model",
    "created": 1721347200,
    "owned_by": "meta",
    "context_window": 131072,
    "pricing": {"input_per_mtok": "0.05", "output_per_mtok": "0.08", "currency": "USD"},
    "vision": False,
    "reasoning": True,
    "tools": False,
    "structured_outputs": True,
}
SECRET_PROMPT = "The secret handshake is 7731."
SECRET_TRAINING = "Training fact: the vault code is 4412."


@pytest.fixture(autouse=True)
def catalog(settings: Any, tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "models.toml"
    path.write_text(CATALOG)
    settings.MODELS_FILE = path
    reset_catalog_cache()
    yield path
    reset_catalog_cache()


@pytest.fixture
def world(user: User, other_user: User) -> dict[str, Persona]:
    """The caller's private persona (on the llama model), another user's public and private
    ones, and a persona of the caller's whose model left the catalog."""
    mine = Persona.objects.create(
        owner=user,
        name="My tutor",
        description="Teaches me things.",
        system_prompt=SECRET_PROMPT,
        default_model="meta-llama/Llama-3.1-8B",
    )
    TrainingDataItem.objects.create(persona=mine, type="text", content=SECRET_TRAINING)
    return {
        "mine": mine,
        "public": PersonaFactory.create(
            owner=other_user, name="Shared", system_prompt=SECRET_PROMPT, is_public=True
        ),
        "private": PersonaFactory.create(
            owner=other_user, name="Hidden", system_prompt=SECRET_PROMPT
        ),
        "orphan": PersonaFactory.create(owner=user, name="Orphan", default_model="gone-model"),
    }


def _persona_entry(persona: Persona, model: dict[str, Any], owned_by: str) -> dict[str, Any]:
    return {
        **model,
        "id": f"persona/{persona.pk}",
        "created": int(persona.created_at.timestamp()),
        "owned_by": owned_by,
        "name": persona.name,
        "description": persona.description,
    }


# --- The catalog ---


@pytest.mark.parametrize("path", ["/v1/models", "/api/v1/models/", "/v1/models?personas=false"])
def test_lists_the_catalog_as_openai_model_objects(api_client: APIClient, path: str) -> None:
    response = api_client.get(path)
    assert response.status_code == 200
    assert response.json() == {"object": "list", "data": [NOVA_LOCAL, LLAMA]}


@pytest.mark.parametrize(
    "path",
    [
        "/v1/models/meta-llama/Llama-3.1-8B",
        "/v1/models/meta-llama/Llama-3.1-8B/",
        "/api/v1/models/meta-llama/Llama-3.1-8B",
        "/v1/agents/models/meta-llama/Llama-3.1-8B",
        "/api/v1/agents/models/meta-llama/Llama-3.1-8B/",
        "/v1/models/meta-llama%2FLlama-3.1-8B",  # as the openai SDK quotes it
    ],
)
def test_retrieves_a_model_whose_id_has_slashes_and_dots(api_client: APIClient, path: str) -> None:
    response = api_client.get(path)
    assert response.status_code == 200
    assert response.json() == LLAMA


def test_retrieves_a_plain_model_id(api_client: APIClient) -> None:
    assert api_client.get("/v1/models/nova-local").json() == NOVA_LOCAL


@pytest.mark.parametrize(
    "model_id",
    [
        "fake-gpt",
        "meta-llama",
        "meta-llama/Llama-3.1-8B/extra",
        "persona/abc",
        "persona/0",
        "persona/99999999999999999999999",
        "persona/",
        "persona/1/x",
        "persona/+1",
        "persona/ 1",
    ],
)
def test_unknown_model_is_a_404_naming_model(api_client: APIClient, model_id: str) -> None:
    response = api_client.get(f"/v1/models/{model_id}")
    assert response.status_code == 404
    error = response.json()["error"]
    assert (error["type"], error["code"], error["param"]) == (
        "not_found_error",
        "model_not_found",
        "model",
    )


def test_model_path_ending_in_a_newline_names_nothing(api_client: APIClient) -> None:
    response = api_client.get("/v1/models/nova-local%0A")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize("path", ["/v1/models/nova-local", "/v1/models?personas=true"])
def test_models_need_a_key(anon_client: APIClient, path: str) -> None:
    response = anon_client.get(path)
    assert response.status_code == 401
    assert response.json()["error"]["type"] == "authentication_error"


# --- Personas as models ---


def test_personas_true_lists_the_personas_the_caller_may_use(
    api_client: APIClient, world: dict[str, Persona]
) -> None:
    response = api_client.get("/v1/models?personas=true")
    assert response.status_code == 200
    data = response.json()["data"]
    assert data[:2] == [NOVA_LOCAL, LLAMA]
    builtins = list(Persona.objects.filter(owner=None).order_by("id"))
    assert builtins, "the built-in personas are seeded by a migration"
    expected = sorted(
        [
            *(_persona_entry(p, NOVA_LOCAL, "nova") for p in builtins),
            _persona_entry(world["mine"], LLAMA, "user"),
            _persona_entry(world["public"], NOVA_LOCAL, "user"),
        ],
        key=lambda entry: int(entry["id"].removeprefix("persona/")),
    )
    assert data[2:] == expected
    # Never another user's private persona, one that cannot be used, or anything secret.
    ids = [entry["id"] for entry in data]
    assert f"persona/{world['private'].pk}" not in ids
    assert f"persona/{world['orphan'].pk}" not in ids
    body = response.content.decode()
    assert "Hidden" not in body
    assert SECRET_PROMPT not in body and SECRET_TRAINING not in body
    assert "system_prompt" not in body


@pytest.mark.parametrize("path", ["/v1/agents/models", "/api/v1/agents/models/"])
def test_agents_models_lists_personas_by_default(
    api_client: APIClient, world: dict[str, Persona], path: str
) -> None:
    with_personas = api_client.get(path).json()["data"]
    assert with_personas == api_client.get("/v1/models?personas=true").json()["data"]
    assert f"persona/{world['mine'].pk}" in [entry["id"] for entry in with_personas]
    without = api_client.get(f"{path}?personas=false").json()["data"]
    assert without == [NOVA_LOCAL, LLAMA]


@pytest.mark.parametrize(("value", "listed"), [("1", True), ("TRUE", True), ("0", False)])
def test_personas_takes_boolean_spellings(
    api_client: APIClient, world: dict[str, Persona], value: str, listed: bool
) -> None:
    ids = [entry["id"] for entry in api_client.get(f"/v1/models?personas={value}").json()["data"]]
    assert (f"persona/{world['mine'].pk}" in ids) is listed


@pytest.mark.parametrize("value", ["yes", "", "2", "truee", "true,false"])
@pytest.mark.parametrize("path", ["/v1/models", "/v1/agents/models"])
def test_personas_must_be_a_boolean(api_client: APIClient, path: str, value: str) -> None:
    response = api_client.get(f"{path}?personas={value}")
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["type"], error["param"]) == ("invalid_request_error", "personas")


def test_retrieves_a_visible_persona_as_a_model(
    api_client: APIClient, world: dict[str, Persona]
) -> None:
    mine = world["mine"]
    for path in (f"/v1/models/persona/{mine.pk}", f"/v1/agents/models/persona/{mine.pk}/"):
        response = api_client.get(path)
        assert response.status_code == 200
        assert response.json() == _persona_entry(mine, LLAMA, "user")
    public = api_client.get(f"/v1/models/persona/{world['public'].pk}").json()
    assert public == _persona_entry(world["public"], NOVA_LOCAL, "user")
    builtin = Persona.objects.get(pk=1)
    assert api_client.get("/v1/models/persona/1").json() == _persona_entry(
        builtin, NOVA_LOCAL, "nova"
    )


@pytest.mark.parametrize("which", ["private", "orphan"])
def test_unusable_persona_is_a_404(
    api_client: APIClient, world: dict[str, Persona], which: str
) -> None:
    response = api_client.get(f"/v1/models/persona/{world[which].pk}")
    assert response.status_code == 404
    error = response.json()["error"]
    assert (error["code"], error["param"]) == ("model_not_found", "model")
    assert "Hidden" not in response.content.decode()


def test_private_persona_is_a_model_for_its_owner_only(
    world: dict[str, Persona], other_user: User
) -> None:
    owner = client_for(ApiKeyFactory.create(user=other_user))
    path = f"/v1/models/persona/{world['private'].pk}"
    assert owner.get(path).status_code == 200
    ids = [e["id"] for e in owner.get("/v1/agents/models").json()["data"]]
    assert f"persona/{world['private'].pk}" in ids
    assert f"persona/{world['mine'].pk}" not in ids


def test_listing_costs_the_same_queries_whatever_the_number_of_personas(
    user: User, api_client: APIClient, django_assert_num_queries: Any
) -> None:
    api_client.get("/v1/models")  # records the key's last use, a write the next calls skip

    def listed() -> int:
        return len(api_client.get("/v1/models?personas=true").json()["data"])

    # The key with its user, then the personas.
    with django_assert_num_queries(2):
        few = listed()
    for n in range(5):
        PersonaFactory.create(owner=user, name=f"Extra {n}")
    with django_assert_num_queries(2):
        many = listed()
    assert many == few + 5
    # Without personas: the key only.
    with django_assert_num_queries(1):
        api_client.get("/v1/models")


# --- The schema ---


def test_schema_documents_the_models_endpoints() -> None:
    schema = Client().get("/api/schema/?format=json").json()
    listing = schema["paths"]["/v1/models/"]["get"]
    assert [(p["name"], p["in"], p["schema"]) for p in listing["parameters"]] == [
        ("personas", "query", {"type": "boolean"})
    ]
    assert {"200", "400", "401"} <= set(listing["responses"])
    detail = schema["paths"]["/v1/models/{model_id}/"]["get"]
    assert [(p["name"], p["in"]) for p in detail["parameters"]] == [("model_id", "path")]
    ok = detail["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok == {"$ref": "#/components/schemas/ModelEntry"}
    assert "404" in detail["responses"]
    assert listing["operationId"] != detail["operationId"]
    entry = schema["components"]["schemas"]["ModelEntry"]
    assert {
        "id",
        "object",
        "created",
        "owned_by",
        "name",
        "description",
        "context_window",
        "pricing",
        "vision",
        "reasoning",
        "tools",
        "structured_outputs",
    } == set(entry["properties"])
    assert set(entry["required"]) == set(entry["properties"]) - {"name", "description"}

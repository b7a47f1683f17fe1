"""The models endpoints: the catalog, and the personas a caller may chat with, as OpenAI model
objects (docs/api.md, Models and providers).

``GET /v1/models`` lists the catalog; with ``?personas=true`` (the default on
``/v1/agents/models``) it also lists every persona the caller may use as a ``persona/<id>``
entry, so that any OpenAI-compatible chat UI can pick a persona from its model list.
``GET /v1/models/{id}`` answers one entry of either kind.

A persona entry shows what anyone who may use the persona may know: its name, description and
creation time, and the capabilities and prices of its default model. Never its system prompt or
training data, and never a persona the caller may not see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from chat.serializers import PERSONA_MODEL_PREFIX, persona_model_id
from core.errors import NotFound
from core.fields import QueryBooleanField
from core.schema import error_responses
from llm.catalog import ModelSpec, get_catalog
from personas.models import Persona

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser
    from django.db.models import QuerySet

__all__ = [
    "AgentModelListView",
    "ModelDetailView",
    "ModelEntrySerializer",
    "ModelListQuerySerializer",
    "ModelListSerializer",
    "ModelListView",
    "PricingSerializer",
    "get_model_entry",
    "model_entries",
]

# owned_by of a persona entry: Nova's built-ins, or a persona someone made. Not the owner's
# name or id: a public persona must not reveal who made it.
BUILTIN_PERSONA_OWNER = "nova"
USER_PERSONA_OWNER = "user"

# The columns a persona entry needs: the system prompt is never read here.
_PERSONA_COLUMNS = ("id", "owner_id", "name", "description", "default_model", "created_at")


class Pricing(TypedDict):
    input_per_mtok: str
    output_per_mtok: str
    currency: str


class ModelEntry(TypedDict):
    id: str
    object: str
    created: int
    owned_by: str
    name: NotRequired[str]  # personas only
    description: NotRequired[str]  # personas only
    context_window: int
    pricing: Pricing
    vision: bool
    reasoning: bool
    tools: bool
    structured_outputs: bool


# --- Reads ---


def _entry(model: ModelSpec, *, id: str, created: int, owned_by: str) -> ModelEntry:
    """An OpenAI model object carrying ``model``'s window, prices and capabilities."""
    return {
        "id": id,
        "object": "model",
        "created": created,
        "owned_by": owned_by,
        "context_window": model.context_window,
        "pricing": {
            "input_per_mtok": str(model.input_price_per_mtok),
            "output_per_mtok": str(model.output_price_per_mtok),
            "currency": "USD",
        },
        "vision": model.vision,
        "reasoning": model.reasoning,
        "tools": model.tools,
        "structured_outputs": model.structured_outputs,
    }


def _catalog_entry(model: ModelSpec) -> ModelEntry:
    return _entry(model, id=model.id, created=model.created, owned_by=model.owned_by)


def _persona_entry(persona: Persona, model: ModelSpec) -> ModelEntry:
    """``persona`` as a model: its own id, name and description, its default model's
    capabilities."""
    entry = _entry(
        model,
        id=f"{PERSONA_MODEL_PREFIX}{persona.pk}",
        created=int(persona.created_at.timestamp()),
        owned_by=BUILTIN_PERSONA_OWNER if persona.is_builtin else USER_PERSONA_OWNER,
    )
    entry["name"] = persona.name
    entry["description"] = persona.description
    return entry


def _usable_personas(user: AbstractBaseUser | AnonymousUser | None) -> QuerySet[Persona]:
    """The personas the user may chat with (``Persona.objects.visible_to``), by id, reading
    only what an entry shows."""
    return Persona.objects.visible_to(user).only(*_PERSONA_COLUMNS).order_by("id")


def model_entries(
    user: AbstractBaseUser | AnonymousUser | None, *, personas: bool
) -> list[ModelEntry]:
    """The catalog in file order, then (with ``personas``) the personas ``user`` may use, by
    id. One query for the personas whatever their number, none without them.

    A persona whose default model has left the catalog cannot be chatted with as it is, so it
    is not listed.
    """
    catalog = get_catalog()
    entries = [_catalog_entry(model) for model in catalog]
    if personas:
        for persona in _usable_personas(user):
            model = catalog.get(persona.default_model)
            if model is not None:
                entries.append(_persona_entry(persona, model))
    return entries


def get_model_entry(user: AbstractBaseUser | AnonymousUser | None, model_id: str) -> ModelEntry:
    """The entry ``GET /v1/models/{model_id}`` answers: a catalog model, or ``persona/<id>``
    for a persona ``user`` may use.

    Raises NotFound (``model_not_found``, param ``model``) for an unknown id, and for a persona
    that is missing, private to someone else or whose default model left the catalog: the
    cases look alike, so probing ids reveals nothing.
    """
    catalog = get_catalog()
    model = catalog.get(model_id)
    if model is not None:
        return _catalog_entry(model)
    pk = persona_model_id(model_id)
    if pk is not None:
        persona = _usable_personas(user).filter(pk=pk).first()
        if persona is not None and (model := catalog.get(persona.default_model)) is not None:
            return _persona_entry(persona, model)
    raise NotFound(
        f"The model {model_id[:200]!r} does not exist.", param="model", code="model_not_found"
    )


# --- Serializers ---


class ModelListQuerySerializer(serializers.Serializer[dict[str, Any]]):
    personas = QueryBooleanField(
        required=False,
        help_text=(
            "true: also list the personas the caller may use, as `persona/<id>` models. "
            "Default false on /v1/models, true on /v1/agents/models."
        ),
    )


class PricingSerializer(serializers.Serializer[Pricing]):
    input_per_mtok = serializers.CharField(help_text="USD per million prompt tokens (decimal).")
    output_per_mtok = serializers.CharField(
        help_text="USD per million completion tokens (decimal)."
    )
    currency = serializers.CharField(help_text="Always `USD`.")


class ModelEntrySerializer(serializers.Serializer[ModelEntry]):
    id = serializers.CharField(
        help_text="What clients send as `model`; `persona/<id>` for a persona."
    )
    object = serializers.CharField(help_text="Always `model`.")
    created = serializers.IntegerField(
        help_text="Unix time the model entered the catalog (0 when unknown), or the persona "
        "was created."
    )
    owned_by = serializers.CharField(
        help_text="Who serves the model; for a persona `nova` (built-in) or `user`."
    )
    name = serializers.CharField(required=False, help_text="A persona's name (personas only).")
    description = serializers.CharField(
        required=False, help_text="A persona's description (personas only)."
    )
    context_window = serializers.IntegerField(help_text="Tokens; a persona's default model's.")
    pricing = PricingSerializer()
    vision = serializers.BooleanField(help_text="Takes image parts.")
    reasoning = serializers.BooleanField(help_text="Returns its reasoning.")
    tools = serializers.BooleanField(help_text="Takes `tools` and `tool_choice`.")
    structured_outputs = serializers.BooleanField(
        help_text="Takes a `response_format` of json_object or json_schema."
    )


@extend_schema_serializer(many=False)
class ModelListSerializer(serializers.Serializer[dict[str, Any]]):
    object = serializers.CharField(help_text="Always `list`.")
    data = ModelEntrySerializer(many=True)  # type: ignore[assignment]  # the field, not .data


# --- Views ---

_CATALOG_EXAMPLE: dict[str, Any] = {
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
_PERSONA_EXAMPLE: dict[str, Any] = {
    **_CATALOG_EXAMPLE,
    "id": "persona/1",
    "created": 1767225600,
    "name": "Python Tutor",
    "description": "Explains Python step by step.",
}
_MODEL_ID = OpenApiParameter(
    "model_id",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    description="A catalog model id (it may contain `/` and `.`), or `persona/<id>`.",
)


class _ModelListSchema(AutoSchema):
    """Names the listing's operations ``..._models_list``: DRF's APIView GET is a "retrieve",
    and the detail operation under the same prefix is one too."""

    def get_operation_id(self) -> str:
        operation_id: str = super().get_operation_id()
        return operation_id.removesuffix("_retrieve") + "_list"


class ModelListView(APIView):
    """GET /v1/models; on /v1/agents/models personas are listed unless ``personas=false``."""

    schema = _ModelListSchema()
    personas_by_default = False

    @extend_schema(
        summary="List models",
        tags=["models"],
        description=(
            "The model catalog in file order, as OpenAI model objects with Nova's context "
            "window, prices and capabilities. With `personas=true` (the default on "
            "/v1/agents/models) the personas the caller may use follow, as `persona/<id>` "
            "models carrying their name, description and their default model's capabilities."
        ),
        parameters=[ModelListQuerySerializer],
        responses={200: ModelListSerializer, **error_responses(400, 401, 429)},
        examples=[
            OpenApiExample(
                "Catalog and personas",
                value={"object": "list", "data": [_CATALOG_EXAMPLE, _PERSONA_EXAMPLE]},
                response_only=True,
            )
        ],
    )
    def get(self, request: Request) -> Response:
        query = ModelListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        personas = query.validated_data.get("personas", self.personas_by_default)
        entries = model_entries(request.user, personas=personas)
        return Response(ModelListSerializer({"object": "list", "data": entries}).data)


class AgentModelListView(ModelListView):
    personas_by_default = True


class ModelDetailView(APIView):
    """GET /v1/models/{model_id}: one catalog model or persona."""

    @extend_schema(
        summary="Get a model",
        tags=["models"],
        description=(
            "One model object: a catalog model, or `persona/<id>` for a persona the caller may "
            "use. Anything else, a private persona of someone else included, is a 404 with "
            "code `model_not_found`."
        ),
        parameters=[_MODEL_ID],
        responses={200: ModelEntrySerializer, **error_responses(401, 404, 429)},
        examples=[
            OpenApiExample("Catalog model", value=_CATALOG_EXAMPLE, response_only=True),
            OpenApiExample("Persona", value=_PERSONA_EXAMPLE, response_only=True),
        ],
    )
    def get(self, request: Request, model_id: str) -> Response:
        return Response(ModelEntrySerializer(get_model_entry(request.user, model_id)).data)

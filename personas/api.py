"""Personas API (docs/personas.md): thin viewsets over personas.selectors and personas.services.

Routes are relative to the ``v1/`` mount (config/urls.py serves them under /v1/ and /api/v1/),
and each answers with and without a trailing slash, without redirects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from django.urls import URLPattern, URLResolver, re_path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from core.schema import error_responses
from personas.models import Persona, TrainingDataItem
from personas.selectors import (
    get_owned_persona_for,
    get_persona_for,
    get_training_item_for,
    personas_page,
    personas_visible_to,
    training_items_for,
)
from personas.serializers import (
    PersonaDetailSerializer,
    PersonaListQuerySerializer,
    PersonaListSerializer,
    PersonaSerializer,
    TrainingDataItemRequestSerializer,
    TrainingDataItemSerializer,
    TrainingDataListSerializer,
)
from personas.services import add_training_item, delete_training_item, update_training_item

_PERSONA_ID = OpenApiParameter(
    "id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The persona's id."
)
_DATA_ID = OpenApiParameter(
    "dataId", OpenApiTypes.INT, OpenApiParameter.PATH, description="The training data item's id."
)

_PERSONA_EXAMPLE = {
    "id": 1,
    "name": "Code Mentor",
    "description": "Senior software engineer for programming and software development.",
    "category": "programming",
    "is_public": True,
    "is_owned": False,
    "has_training_data": True,
    "default_model": "nova-local",
    "default_temperature": 0.3,
    "created_at": "2026-11-22T15:33:43.123456Z",
}
_ITEM_EXAMPLE = {
    "id": 17,
    "persona_id": 6,
    "type": "qa_pair",
    "title": "Opening hours",
    "content": "We are open Monday to Friday, 9:00 to 17:00.",
    "metadata": {"question": "When are you open?"},
    "created_at": "2026-11-22T15:33:43.123456Z",
    "updated_at": "2026-11-22T15:33:43.123456Z",
}
_ITEM_REQUEST_EXAMPLES = [
    OpenApiExample(
        "Question and answer",
        value={
            "type": "qa_pair",
            "title": "Opening hours",
            "content": "We are open Monday to Friday, 9:00 to 17:00.",
            "metadata": {"question": "When are you open?"},
        },
        request_only=True,
    ),
    OpenApiExample(
        "Knowledge",
        value={"type": "knowledge", "content": "Refunds are possible within 30 days."},
        request_only=True,
    ),
    OpenApiExample(
        "Document",
        value={
            "type": "document",
            "title": "Returns policy",
            "content": "Items can be returned unused within 30 days of delivery...",
        },
        request_only=True,
    ),
]
_ITEM_RESPONSE_EXAMPLE = OpenApiExample("Item", value=_ITEM_EXAMPLE, response_only=True)


@extend_schema_view(
    list=extend_schema(
        summary="List personas",
        tags=["personas"],
        description=(
            "Every public persona plus the caller's own private ones, ordered by id, 50 a page. "
            "Never includes a system prompt."
        ),
        parameters=[PersonaListQuerySerializer],
        responses={
            200: OpenApiResponse(
                PersonaListSerializer,
                examples=[
                    OpenApiExample(
                        "Page",
                        value={
                            "object": "list",
                            "data": [_PERSONA_EXAMPLE],
                            "has_more": False,
                            "total": 1,
                        },
                        response_only=True,
                    )
                ],
            ),
            **error_responses(400, 401, 429),
        },
    ),
    retrieve=extend_schema(
        summary="Get a persona",
        tags=["personas"],
        description=(
            "A persona visible to the caller. Its owner also sees `system_prompt`. A private "
            "persona of someone else answers 404, like a missing one."
        ),
        parameters=[_PERSONA_ID],
        responses={
            200: OpenApiResponse(
                PersonaDetailSerializer,
                examples=[
                    OpenApiExample("Built-in persona", value=_PERSONA_EXAMPLE, response_only=True),
                    OpenApiExample(
                        "Own persona",
                        value={
                            **_PERSONA_EXAMPLE,
                            "id": 6,
                            "name": "Support Bot",
                            "category": "support",
                            "is_public": False,
                            "is_owned": True,
                            "system_prompt": "You answer questions about our shop.",
                        },
                        response_only=True,
                    ),
                ],
            ),
            **error_responses(401, 404, 429),
        },
    ),
)
class PersonaViewSet(viewsets.GenericViewSet[Persona]):
    serializer_class = PersonaSerializer

    def get_queryset(self) -> QuerySet[Persona]:
        return personas_visible_to(self.request.user)

    def list(self, request: Request) -> Response:
        query = PersonaListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        page = personas_page(request.user, **query.validated_data)
        return Response(
            {
                "object": "list",
                "data": self.get_serializer(page.personas, many=True).data,
                "has_more": page.has_more,
                "total": page.total,
            }
        )

    def get_object(self) -> Persona:
        # The URL names the id "id", not DRF's default "pk" (see TrainingDataViewSet).
        return get_persona_for(self.request.user, self.kwargs["id"])

    def retrieve(self, request: Request, id: str) -> Response:
        persona = self.get_object()
        return Response(
            PersonaDetailSerializer(persona, context=self.get_serializer_context()).data
        )


_OWNER_ONLY = (
    " Owner only: a public persona of someone else (built-ins included) answers 403, a private "
    "persona of someone else or a missing one 404."
)


def _item_operation(
    summary: str,
    description: str,
    *,
    parameters: list[OpenApiParameter],
    status: int = 200,
    request_examples: list[OpenApiExample] | None = None,
) -> Callable[[Any], Any]:
    """An owner-only operation that answers with one item; given request examples, it is a
    write that takes a TrainingDataItemRequestSerializer body and may answer 400."""
    body: dict[str, Any] = {}
    errors: tuple[int, ...] = (401, 403, 404, 429)
    if request_examples is not None:
        body = {"request": TrainingDataItemRequestSerializer, "examples": request_examples}
        errors = (400, *errors)
    return extend_schema(
        summary=summary,
        tags=["personas"],
        description=description + _OWNER_ONLY,
        parameters=parameters,
        **body,
        responses={
            status: OpenApiResponse(TrainingDataItemSerializer, examples=[_ITEM_RESPONSE_EXAMPLE]),
            **error_responses(*errors),
        },
    )


@extend_schema_view(
    list=extend_schema(
        summary="List a persona's training data",
        tags=["personas"],
        description="All items, ordered by id." + _OWNER_ONLY,
        parameters=[_PERSONA_ID],
        responses={
            200: OpenApiResponse(
                TrainingDataListSerializer,
                examples=[
                    OpenApiExample(
                        "List",
                        value={"object": "list", "data": [_ITEM_EXAMPLE]},
                        response_only=True,
                    )
                ],
            ),
            **error_responses(401, 403, 404, 429),
        },
    ),
    create=_item_operation(
        "Add a training data item",
        "Adds an item; it is injected into the persona's system prompt.",
        parameters=[_PERSONA_ID],
        status=201,
        request_examples=_ITEM_REQUEST_EXAMPLES,
    ),
    retrieve=_item_operation(
        "Get a training data item",
        "A `dataId` of another persona answers 404.",
        parameters=[_PERSONA_ID, _DATA_ID],
    ),
    partial_update=_item_operation(
        "Update a training data item (partial)",
        "Changes only the fields sent; the result is validated as a whole.",
        parameters=[_PERSONA_ID, _DATA_ID],
        request_examples=[
            OpenApiExample(
                "New content", value={"content": "Open 8:00 to 18:00."}, request_only=True
            )
        ],
    ),
    update=_item_operation(
        "Replace a training data item",
        "Full replacement: `type` and `content` are required; an omitted `title` "
        'becomes "" and an omitted `metadata` {}.',
        parameters=[_PERSONA_ID, _DATA_ID],
        request_examples=_ITEM_REQUEST_EXAMPLES,
    ),
    destroy=extend_schema(
        summary="Delete a training data item",
        tags=["personas"],
        description="Deletes the item." + _OWNER_ONLY,
        parameters=[_PERSONA_ID, _DATA_ID],
        responses={204: None, **error_responses(401, 403, 404, 429)},
    ),
)
class TrainingDataViewSet(viewsets.GenericViewSet[TrainingDataItem]):
    serializer_class = TrainingDataItemSerializer

    def get_queryset(self) -> QuerySet[TrainingDataItem]:
        return TrainingDataItem.objects.none()

    def get_object(self) -> TrainingDataItem:
        # The URL names its ids "id" and "dataId", so DRF's default lookup (on "pk") would fail
        # its assertion: OPTIONS asks for the object to describe PUT, and was a 500.
        # Ownership first (403/404), so nothing about the item is revealed to others.
        persona = get_owned_persona_for(self.request.user, self.kwargs["id"])
        return get_training_item_for(persona, self.kwargs["dataId"])

    def list(self, request: Request, id: str) -> Response:
        persona = get_owned_persona_for(request.user, id)
        items = self.get_serializer(training_items_for(persona), many=True).data
        return Response({"object": "list", "data": items})

    def create(self, request: Request, id: str) -> Response:
        persona = get_owned_persona_for(request.user, id)
        body = TrainingDataItemRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        item = add_training_item(persona=persona, **body.validated_data)
        return Response(self.get_serializer(item).data, status=status.HTTP_201_CREATED)

    def retrieve(self, request: Request, id: str, dataId: str) -> Response:
        return Response(self.get_serializer(self.get_object()).data)

    def partial_update(self, request: Request, id: str, dataId: str) -> Response:
        item = self.get_object()
        body = TrainingDataItemRequestSerializer(data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        item = update_training_item(item=item, **body.validated_data)
        return Response(self.get_serializer(item).data)

    def update(self, request: Request, id: str, dataId: str) -> Response:
        item = self.get_object()
        body = TrainingDataItemRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        item = update_training_item(item=item, replace=True, **body.validated_data)
        return Response(self.get_serializer(item).data)

    def destroy(self, request: Request, id: str, dataId: str) -> Response:
        delete_training_item(item=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)


_persona_list = PersonaViewSet.as_view({"get": "list"})
_persona_detail = PersonaViewSet.as_view({"get": "retrieve"})
_training_data_list = TrainingDataViewSet.as_view({"get": "list", "post": "create"})
_training_data_detail = TrainingDataViewSet.as_view(
    {"get": "retrieve", "patch": "partial_update", "put": "update", "delete": "destroy"}
)

# "(?:/)?" rather than "/?": the same routes, but the OpenAPI paths come out without the
# slash. A path segment, not \d+: a malformed id reaches the selectors and is a 404 from there.
# "\Z", not "$", in every API route: "$" also matches before a final newline ("/9%0A").
_ID = r"(?P<id>[^/]+)"
_DATA = r"(?P<dataId>[^/]+)"

api_urls: list[URLPattern | URLResolver] = [
    re_path(r"^personas(?:/)?\Z", _persona_list, name="api-personas-list"),
    re_path(rf"^personas/{_ID}(?:/)?\Z", _persona_detail, name="api-personas-detail"),
    re_path(
        rf"^personas/{_ID}/training-data(?:/)?\Z",
        _training_data_list,
        name="api-personas-training-data-list",
    ),
    re_path(
        rf"^personas/{_ID}/training-data/{_DATA}(?:/)?\Z",
        _training_data_detail,
        name="api-personas-training-data-detail",
    ),
]

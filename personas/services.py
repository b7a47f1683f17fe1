"""Every write to personas and their training data, and the rules those writes obey.

The API, the dashboard, the admin and the ``create_persona`` command all call these functions,
so the persona field rules and the training-data rules (docs/personas.md) live here once. A
rule broken raises ``core.errors.InvalidRequest`` whose ``param`` names the field as the API
reports it (``name``, ``default_temperature``, ``type``, ``content``, ``title``, ``metadata``,
``metadata.question``); a form can attach the message to the field of the same name.

Revisions
---------
A rendered persona (its system prompt with the training data) may be cached by its readers.
Every write here bumps the persona's ``revision`` column in the same transaction
(:func:`bump_persona_revision`); readers key their caches by it and read it, with the
persona's visibility, from the database on every request.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import F

from accounts.models import Guard, User
from core.errors import InvalidRequest
from llm.catalog import get_catalog
from personas.models import (
    CATEGORY_MAX_LENGTH,
    CONTENT_MAX_LENGTH,
    DEFAULT_MODEL_ID,
    DESCRIPTION_MAX_LENGTH,
    NAME_MAX_LENGTH,
    TITLE_MAX_LENGTH,
    Persona,
    TrainingDataItem,
)

__all__ = [
    "METADATA_MAX_LENGTH",
    "add_training_item",
    "bump_persona_revision",
    "clean_persona_fields",
    "create_persona",
    "delete_persona",
    "delete_training_item",
    "set_persona_visibility",
    "update_persona",
    "update_training_item",
    "validate_training_item",
]

SYSTEM_PROMPT_MAX_LENGTH = 50_000
# Metadata is free-form but not unbounded: at most this many characters as compact JSON.
METADATA_MAX_LENGTH = 10_000
TRAINING_TYPES = tuple(TrainingDataItem.Type.values)

_PERSONA_FIELDS = (
    "name",
    "description",
    "category",
    "system_prompt",
    "default_model",
    "default_temperature",
    "is_public",
    "guard",
)


class _Unset:
    """Marks an argument the caller did not pass (None is a value for title and metadata)."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


# --- Revisions ---


def bump_persona_revision(persona_id: int) -> None:
    """Mark every cached rendering of the persona stale, in the caller's transaction.

    The revision lives in the persona's own row, so it commits (or rolls back) with the write
    that changed the persona or its training data, and no cache outage can leave a reader on
    an old copy: chat reads the revision and the visibility from the database on every request.
    """
    Persona.objects.filter(pk=persona_id).update(revision=F("revision") + 1)


# --- Validation ---


def _is_utf8(value: str) -> bool:
    # A JSON "\ud800" escape decodes to a lone surrogate, which no database can store.
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _string(value: object, param: str, *, max_length: int, blank: bool, strip: bool) -> str:
    if not isinstance(value, str):
        raise InvalidRequest(f"{param} must be a string.", param=param, code="invalid_type")
    if "\x00" in value or not _is_utf8(value):
        raise InvalidRequest(
            f"{param} must be valid text (no NUL characters or lone surrogates).", param=param
        )
    if strip:
        value = value.strip()
    if not blank and not value.strip():
        raise InvalidRequest(f"{param} must not be blank.", param=param)
    if len(value) > max_length:
        raise InvalidRequest(
            f"{param} must be at most {max_length:,} characters (got {len(value):,}).",
            param=param,
        )
    return value


def _clean_persona_field(field: str, value: Any) -> Any:
    if field == "name":
        return _string(value, field, max_length=NAME_MAX_LENGTH, blank=False, strip=True)
    if field == "description":
        return _string(value, field, max_length=DESCRIPTION_MAX_LENGTH, blank=True, strip=True)
    if field == "category":
        return _string(value, field, max_length=CATEGORY_MAX_LENGTH, blank=True, strip=True)
    if field == "system_prompt":
        return _string(value, field, max_length=SYSTEM_PROMPT_MAX_LENGTH, blank=False, strip=False)
    if field == "default_model":
        if not isinstance(value, str) or value not in get_catalog():
            choices = ", ".join(get_catalog().ids())
            raise InvalidRequest(
                f"default_model must be one of the catalog's models: {choices}.",
                param="default_model",
            )
        return value
    if field == "default_temperature":
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
            or not 0 <= value <= 2
        ):
            raise InvalidRequest(
                "default_temperature must be a number between 0 and 2.",
                param="default_temperature",
            )
        return float(value)
    if field == "is_public":
        if not isinstance(value, bool):
            raise InvalidRequest("is_public must be a boolean.", param="is_public")
        return value
    if field == "guard":
        if value not in Guard.values:
            raise InvalidRequest(f"guard must be one of {', '.join(Guard.values)}.", param="guard")
        return str(value)
    raise InvalidRequest(f"Unknown persona field {field!r}.", param=field)


def clean_persona_fields(fields: Mapping[str, Any]) -> dict[str, Any]:
    """Check and normalise persona fields (any subset); InvalidRequest on the first bad one.

    name 1-100 characters, description up to 500, category up to 50 (all stripped);
    system_prompt non-blank; default_model a catalog id; default_temperature 0..2.
    """
    return {field: _clean_persona_field(field, fields[field]) for field in fields}


def validate_training_item(
    *, type: Any, content: Any, title: Any = "", metadata: Any = None
) -> tuple[str, str, str, dict[str, Any]]:
    """Check one training-data item as it will be stored (docs/personas.md, Training data).

    Returns the normalised ``(type, content, title, metadata)``: a None title becomes "" and
    None metadata {}. Raises InvalidRequest with ``param`` ``type``, ``content``, ``title``,
    ``metadata`` or ``metadata.question``, checked in that order.
    """
    if not isinstance(type, str) or type not in TRAINING_TYPES:
        raise InvalidRequest(f"type must be one of: {', '.join(TRAINING_TYPES)}.", param="type")
    content = _string(content, "content", max_length=CONTENT_MAX_LENGTH, blank=False, strip=False)
    title = "" if title is None else title
    title = _string(title, "title", max_length=TITLE_MAX_LENGTH, blank=True, strip=True)
    metadata = {} if metadata is None else metadata
    if not isinstance(metadata, dict):
        raise InvalidRequest(
            "metadata must be a JSON object.", param="metadata", code="invalid_type"
        )
    try:
        # allow_nan=False: 1e400 parses as infinity, which is not JSON and jsonb refuses.
        encoded = json.dumps(metadata, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        raise InvalidRequest("metadata must be plain, finite JSON.", param="metadata") from None
    if len(encoded) > METADATA_MAX_LENGTH:
        raise InvalidRequest(
            f"metadata must be at most {METADATA_MAX_LENGTH:,} characters as JSON.",
            param="metadata",
        )
    # PostgreSQL's jsonb cannot store U+0000 or lone surrogates; refuse them before saving.
    if "\x00" in encoded or "\\u0000" in encoded or not _is_utf8(encoded):
        raise InvalidRequest(
            "metadata must be valid text (no NUL characters or lone surrogates).",
            param="metadata",
        )
    if type == TrainingDataItem.Type.QA_PAIR:
        question = metadata.get("question")
        if not isinstance(question, str) or not question.strip():
            raise InvalidRequest(
                "A qa_pair needs metadata.question: the question, as a non-blank string.",
                param="metadata.question",
            )
    return type, content, title, metadata


# --- Personas ---


def create_persona(
    *,
    owner: User,
    name: str,
    description: str,
    system_prompt: str,
    category: str = "general",
    default_model: str = DEFAULT_MODEL_ID,
    default_temperature: float = 0.7,
    is_public: bool = False,
    guard: str = Guard.OFF,
) -> Persona:
    """A new persona owned by ``owner`` (personas without an owner are the built-ins only)."""
    fields = clean_persona_fields(
        {
            "name": name,
            "description": description,
            "category": category,
            "system_prompt": system_prompt,
            "default_model": default_model,
            "default_temperature": default_temperature,
            "is_public": is_public,
            "guard": guard,
        }
    )
    with transaction.atomic():
        persona = Persona.objects.create(owner=owner, **fields)
        bump_persona_revision(persona.pk)
    return persona


def update_persona(*, persona: Persona, **fields: Any) -> Persona:
    """Change any of name, description, category, system_prompt, default_model,
    default_temperature, is_public and guard. A built-in persona cannot be made private."""
    unknown = sorted(set(fields) - set(_PERSONA_FIELDS))
    if unknown:
        raise TypeError(f"update_persona() got unexpected fields: {', '.join(unknown)}")
    cleaned = clean_persona_fields(fields)
    if persona.is_builtin and cleaned.get("is_public") is False:
        raise InvalidRequest("A built-in persona is always public.", param="is_public")
    with transaction.atomic():
        for field, value in cleaned.items():
            setattr(persona, field, value)
        persona.save(update_fields=[*cleaned, "updated_at"])
        bump_persona_revision(persona.pk)
    return persona


def set_persona_visibility(*, persona: Persona, is_public: bool) -> Persona:
    """Make a persona public or private (operators, through the admin)."""
    return update_persona(persona=persona, is_public=is_public)


def delete_persona(*, persona: Persona) -> None:
    """Delete the persona and its training data (usage records keep a null persona)."""
    persona_id = persona.pk
    with transaction.atomic():
        persona.delete()
        bump_persona_revision(persona_id)


# --- Training data ---


def add_training_item(
    *,
    persona: Persona,
    type: str,
    content: str,
    title: str | None = "",
    metadata: dict[str, Any] | None = None,
) -> TrainingDataItem:
    """Add an item to the persona. The caller has checked ownership (selectors)."""
    type, content, title, metadata = validate_training_item(
        type=type, content=content, title=title, metadata=metadata
    )
    with transaction.atomic():
        item = TrainingDataItem.objects.create(
            persona=persona, type=type, content=content, title=title, metadata=metadata
        )
        bump_persona_revision(persona.pk)
    return item


def update_training_item(
    *,
    item: TrainingDataItem,
    type: Any = UNSET,
    content: Any = UNSET,
    title: Any = UNSET,
    metadata: Any = UNSET,
    replace: bool = False,
) -> TrainingDataItem:
    """Change an item. By default a partial update (PATCH): omitted fields keep their value.

    With ``replace=True`` (PUT) the item is replaced: ``type`` and ``content`` are required,
    an omitted ``title`` becomes "" and an omitted ``metadata`` {}. Either way the resulting
    item is validated as a whole, so a PATCH that turns an item into a qa_pair needs
    ``metadata.question`` too.
    """
    if replace:
        if type is UNSET:
            raise InvalidRequest(
                "type is required.", param="type", code="missing_required_parameter"
            )
        if content is UNSET:
            raise InvalidRequest(
                "content is required.", param="content", code="missing_required_parameter"
            )
        title = "" if title is UNSET else title
        metadata = {} if metadata is UNSET else metadata
    new_type, new_content, new_title, new_metadata = validate_training_item(
        type=item.type if type is UNSET else type,
        content=item.content if content is UNSET else content,
        title=item.title if title is UNSET else title,
        metadata=item.metadata if metadata is UNSET else metadata,
    )
    with transaction.atomic():
        item.type = new_type
        item.content = new_content
        item.title = new_title
        item.metadata = new_metadata
        item.save(update_fields=["type", "content", "title", "metadata", "updated_at"])
        bump_persona_revision(item.persona_id)
    return item


def delete_training_item(*, item: TrainingDataItem) -> None:
    persona_id = item.persona_id
    with transaction.atomic():
        item.delete()
        bump_persona_revision(persona_id)

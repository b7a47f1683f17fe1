"""Reads of personas and training data that encode who may see what (contract §4, §5).

Visibility: a persona is visible to a user when it is public or the user owns it. Anything
else answers exactly like a missing persona (404), so ids of private personas do not leak.
Managing training data needs ownership on top: a persona the caller can see but does not own
(someone else's public persona, or a built-in) is a 403.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from core.errors import NotFound, PermissionDenied
from personas.models import Persona, TrainingDataItem

__all__ = [
    "PERSONAS_PAGE_SIZE",
    "PersonaPage",
    "get_owned_persona_for",
    "get_persona_for",
    "get_training_item_for",
    "parse_id",
    "personas_page",
    "personas_visible_to",
    "training_items_for",
]

# Ids are BigAutoFields: anything larger cannot exist, and PostgreSQL would reject the literal.
_MAX_ID = 2**63 - 1
_DIGITS = re.compile(r"[0-9]{1,19}")


def parse_id(value: Any) -> int | None:
    """A positive database id from a path segment or JSON value; None when it cannot be one.

    Only ASCII digits with nothing around them are accepted (``int()`` would also take "١",
    " 7 " or "7\\n", the last one from a path ending in %0A), and booleans are not integers
    here.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and _DIGITS.fullmatch(value):
        number = int(value)
    else:
        return None
    return number if 0 < number <= _MAX_ID else None


def _user_id(user: Any) -> int | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return int(user.pk)


def personas_visible_to(user: Any) -> QuerySet[Persona]:
    """Every public persona plus the user's own private ones, ordered by id.

    Each row carries ``has_training_data`` (an EXISTS subquery, so listing costs one query
    whatever the number of rows). An anonymous user sees the public personas only.
    """
    user_id = _user_id(user)
    visible = Q(is_public=True)
    if user_id is not None:
        visible |= Q(owner_id=user_id)
    return (
        Persona.objects.filter(visible)
        .annotate(
            has_training_data=Exists(TrainingDataItem.objects.filter(persona_id=OuterRef("pk")))
        )
        .order_by("id")
    )


PERSONAS_PAGE_SIZE = 50


@dataclass(frozen=True)
class PersonaPage:
    personas: list[Persona]
    total: int
    has_more: bool


def personas_page(
    user: Any,
    *,
    page: int = 1,
    category: str | None = None,
    owned: bool | None = None,
    page_size: int = PERSONAS_PAGE_SIZE,
) -> PersonaPage:
    """One page (from 1) of :func:`personas_visible_to`, optionally filtered by category and by
    ownership (``owned=True``: the user's own; ``False``: everyone else's). Two queries (count,
    rows), one when the page is past the end."""
    personas = personas_visible_to(user)
    if category:
        personas = personas.filter(category=category)
    if owned is not None:
        user_id = _user_id(user)
        mine = Q(owner_id=user_id) if user_id is not None else Q(pk__in=[])
        personas = personas.filter(mine) if owned else personas.exclude(mine)
    total = personas.count()
    offset = (page - 1) * page_size
    rows = list(personas[offset : offset + page_size]) if offset < total else []
    return PersonaPage(personas=rows, total=total, has_more=offset + len(rows) < total)


def get_persona_for(user: Any, persona_id: Any) -> Persona:
    """The persona with this id if ``user`` may see it.

    Raises NotFound when the id is malformed, when there is no such persona and when it is
    private to someone else: the three cases are indistinguishable on purpose (contract §4).
    The message names only the id the caller sent.
    """
    pk = parse_id(persona_id)
    persona = personas_visible_to(user).filter(pk=pk).first() if pk is not None else None
    if persona is None:
        raise NotFound(f"No persona with id {str(persona_id)[:40]!r}.")
    return persona


def get_owned_persona_for(user: Any, persona_id: Any) -> Persona:
    """The persona if ``user`` owns it: what every training-data operation requires.

    Raises NotFound as :func:`get_persona_for` does, and PermissionDenied (403) when the
    persona is visible but not the user's: someone else's public persona or a built-in.
    """
    persona = get_persona_for(user, persona_id)
    if persona.owner_id is None or persona.owner_id != _user_id(user):
        raise PermissionDenied("Only the persona's owner can read or change its training data.")
    return persona


def training_items_for(persona: Persona) -> QuerySet[TrainingDataItem]:
    """The persona's training data in id order (the order it was added)."""
    return TrainingDataItem.objects.filter(persona_id=persona.pk).order_by("id")


def get_training_item_for(persona: Persona, data_id: Any) -> TrainingDataItem:
    """The item with this id if it belongs to ``persona``; NotFound otherwise (or malformed)."""
    pk = parse_id(data_id)
    item = training_items_for(persona).filter(pk=pk).first() if pk is not None else None
    if item is None:
        raise NotFound(f"No training data item with id {str(data_id)[:40]!r} for this persona.")
    return item

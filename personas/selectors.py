"""Reads of personas and training data that encode who may see what.

The rules are in docs/personas.md (Visibility, Training data) and in code once, in
personas.models: :meth:`PersonaQuerySet.visible_to` for queries, :func:`persona_visible` and
:func:`persona_owned` for a row already read. A persona the caller may not see answers exactly
like a missing one (NotFound), so ids of private personas do not leak; managing training data
needs ownership on top, and a persona the caller sees but does not own is PermissionDenied.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import Exists, OuterRef, QuerySet

from core.errors import NotFound, PermissionDenied
from core.ids import parse_id
from personas.models import Persona, PersonaQuerySet, TrainingDataItem, user_id_of

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser

    AnyUser = AbstractBaseUser | AnonymousUser | None

__all__ = [
    "PERSONAS_PAGE_SIZE",
    "PersonaPage",
    "get_owned_persona_for",
    "get_persona_for",
    "get_training_item_for",
    "personas_page",
    "personas_visible_to",
    "training_items_for",
]


def personas_visible_to(user: AnyUser) -> PersonaQuerySet:
    """Every public persona plus the user's own private ones, ordered by id.

    Each row carries ``has_training_data`` (an EXISTS subquery, so listing costs one query
    whatever the number of rows). An anonymous user sees the public personas only.
    """
    return (
        Persona.objects.visible_to(user)
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
    user: AnyUser,
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
        personas = personas.owned_by(user) if owned else personas.not_owned_by(user)
    total = personas.count()
    offset = (page - 1) * page_size
    rows = list(personas[offset : offset + page_size]) if offset < total else []
    return PersonaPage(personas=rows, total=total, has_more=offset + len(rows) < total)


def get_persona_for(user: AnyUser, persona_id: Any) -> Persona:
    """The persona with this id if ``user`` may see it.

    Raises NotFound when the id is malformed, when there is no such persona and when it is
    private to someone else: the three cases are indistinguishable on purpose, so probing ids
    reveals nothing. The message names only the id the caller sent.
    """
    pk = parse_id(persona_id)
    persona = personas_visible_to(user).filter(pk=pk).first() if pk is not None else None
    if persona is None:
        raise NotFound(f"No persona with id {str(persona_id)[:40]!r}.")
    return persona


def get_owned_persona_for(user: AnyUser, persona_id: Any) -> Persona:
    """The persona if ``user`` owns it: what every training-data operation requires.

    Raises NotFound as :func:`get_persona_for` does, and PermissionDenied (403) when the
    persona is visible but not the user's: someone else's public persona or a built-in.
    """
    persona = get_persona_for(user, persona_id)
    if not persona.is_owned_by(user_id_of(user)):
        raise PermissionDenied("Only the persona's owner can read or change its training data.")
    return persona


def training_items_for(persona: Persona) -> QuerySet[TrainingDataItem]:
    """The persona's training data in id order (the order it was added). Read through the
    persona, so each item's ``persona`` is that object rather than another query."""
    return persona.training_items.order_by("id")


def get_training_item_for(persona: Persona, data_id: Any) -> TrainingDataItem:
    """The item with this id if it belongs to ``persona``; NotFound otherwise (or malformed)."""
    pk = parse_id(data_id)
    item = training_items_for(persona).filter(pk=pk).first() if pk is not None else None
    if item is None:
        raise NotFound(f"No training data item with id {str(data_id)[:40]!r} for this persona.")
    return item

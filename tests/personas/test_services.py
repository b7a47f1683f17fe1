"""Persona and training-data services: the rules shared by the API, dashboard, admin and CLI."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from accounts.models import User
from core.errors import InvalidRequest, NotFound, PermissionDenied
from personas.models import Persona, TrainingDataItem
from personas.selectors import (
    get_owned_persona_for,
    get_persona_for,
    get_training_item_for,
    personas_page,
    personas_visible_to,
)
from personas.services import (
    add_training_item,
    create_persona,
    delete_persona,
    delete_training_item,
    set_persona_visibility,
    update_persona,
    update_training_item,
    validate_training_item,
)
from tests.factories import PersonaFactory, TrainingDataItemFactory

pytestmark = pytest.mark.django_db


def _persona_kwargs(**overrides: Any) -> dict[str, Any]:
    return {
        "name": "Helper",
        "description": "Helps.",
        "system_prompt": "You help.",
        **overrides,
    }


def test_create_persona_with_defaults(user: User) -> None:
    persona = create_persona(owner=user, **_persona_kwargs(name="  Helper  "))
    assert persona.name == "Helper"
    assert (persona.category, persona.default_model, persona.default_temperature) == (
        "general",
        "nova-local",
        0.7,
    )
    assert persona.is_public is False
    assert persona.pk >= 6


@pytest.mark.parametrize(
    ("overrides", "param"),
    [
        ({"name": ""}, "name"),
        ({"name": "   "}, "name"),
        ({"name": "n" * 101}, "name"),
        ({"name": 3}, "name"),
        ({"description": "d" * 501}, "description"),
        ({"category": "c" * 51}, "category"),
        ({"system_prompt": "  "}, "system_prompt"),
        ({"system_prompt": "a\x00b"}, "system_prompt"),
        ({"default_model": "gpt-nope"}, "default_model"),
        ({"default_temperature": 2.01}, "default_temperature"),
        ({"default_temperature": -0.1}, "default_temperature"),
        ({"default_temperature": float("nan")}, "default_temperature"),
        ({"default_temperature": True}, "default_temperature"),
        ({"is_public": "yes"}, "is_public"),
    ],
)
def test_create_persona_rejects_bad_fields(
    user: User, overrides: dict[str, Any], param: str
) -> None:
    with pytest.raises(InvalidRequest) as excinfo:
        create_persona(owner=user, **_persona_kwargs(**overrides))
    assert excinfo.value.param == param
    assert not Persona.objects.filter(owner=user).exists()


def test_temperature_bounds_are_inclusive(user: User) -> None:
    assert create_persona(owner=user, **_persona_kwargs(default_temperature=0)).pk
    assert create_persona(owner=user, **_persona_kwargs(default_temperature=2)).pk


def test_update_persona_changes_fields(user: User) -> None:
    persona = PersonaFactory.create(owner=user)
    update_persona(persona=persona, name="New", is_public=True, default_temperature=1.5)
    persona.refresh_from_db()
    assert (persona.name, persona.is_public, persona.default_temperature) == ("New", True, 1.5)


def test_update_persona_rejects_unknown_fields(user: User) -> None:
    with pytest.raises(TypeError):
        update_persona(persona=PersonaFactory.create(owner=user), owner=None)


def test_builtin_persona_cannot_be_made_private() -> None:
    builtin = PersonaFactory.create(owner=None, is_public=True)
    with pytest.raises(InvalidRequest) as excinfo:
        update_persona(persona=builtin, is_public=False)
    assert excinfo.value.param == "is_public"


def test_delete_persona_removes_its_training_data(user: User) -> None:
    persona = PersonaFactory.create(owner=user)
    TrainingDataItemFactory.create_batch(2, persona=persona)
    delete_persona(persona=persona)
    assert not TrainingDataItem.objects.filter(persona_id=persona.pk).exists()


# --- Training items ---


def test_add_and_update_training_item(user: User) -> None:
    persona = PersonaFactory.create(owner=user)
    item = add_training_item(persona=persona, type="text", content="Hello", title=None)
    assert (item.title, item.metadata) == ("", {})
    update_training_item(item=item, title="Greeting")
    item.refresh_from_db()
    assert (item.type, item.content, item.title) == ("text", "Hello", "Greeting")


def test_update_with_replace_resets_omitted_fields(user: User) -> None:
    item = TrainingDataItemFactory.create(
        persona=PersonaFactory.create(owner=user),
        type="qa_pair",
        title="T",
        metadata={"question": "Q?"},
    )
    update_training_item(item=item, type="text", content="New", replace=True)
    item.refresh_from_db()
    assert (item.type, item.content, item.title, item.metadata) == ("text", "New", "", {})


def test_replace_requires_type_and_content(user: User) -> None:
    item = TrainingDataItemFactory.create(persona=PersonaFactory.create(owner=user))
    with pytest.raises(InvalidRequest) as excinfo:
        update_training_item(item=item, content="x", replace=True)
    assert excinfo.value.param == "type"
    with pytest.raises(InvalidRequest) as excinfo:
        update_training_item(item=item, type="text", replace=True)
    assert excinfo.value.param == "content"


def test_validate_training_item_checks_in_field_order() -> None:
    with pytest.raises(InvalidRequest) as excinfo:
        validate_training_item(type="bad", content="", title="t" * 300, metadata=[])
    assert excinfo.value.param == "type"
    with pytest.raises(InvalidRequest) as excinfo:
        validate_training_item(type="qa_pair", content="x", title="t" * 300, metadata=[])
    assert excinfo.value.param == "title"
    assert validate_training_item(
        type="qa_pair", content="A", title=" T ", metadata={"question": "Q"}
    ) == ("qa_pair", "A", "T", {"question": "Q"})


def test_delete_training_item(user: User) -> None:
    item = TrainingDataItemFactory.create(persona=PersonaFactory.create(owner=user))
    delete_training_item(item=item)
    assert not TrainingDataItem.objects.filter(pk=item.pk).exists()


# --- Revisions ---


def _revision(persona: Persona) -> int:
    return Persona.objects.values_list("revision", flat=True).get(pk=persona.pk)


def test_every_write_bumps_the_revision(user: User) -> None:
    persona = PersonaFactory.create(owner=user)
    revisions = [_revision(persona)]
    writes = [
        lambda: update_persona(persona=persona, name="Renamed"),
        lambda: add_training_item(persona=persona, type="text", content="x"),
        lambda: update_training_item(item=persona.training_items.get(), content="y"),
        lambda: delete_training_item(item=persona.training_items.get()),
        lambda: set_persona_visibility(persona=persona, is_public=True),
    ]
    for write in writes:
        write()
        revisions.append(_revision(persona))
    assert revisions == sorted(set(revisions))  # strictly increasing


def test_a_write_that_rolls_back_leaves_the_revision(user: User) -> None:
    persona = PersonaFactory.create(owner=user)
    before = _revision(persona)
    with pytest.raises(RuntimeError), transaction.atomic():
        update_persona(persona=persona, name="Renamed")
        raise RuntimeError
    assert _revision(persona) == before


# --- Selectors ---


def test_visible_personas_have_training_flag(user: User, other_user: User) -> None:
    mine = PersonaFactory.create(owner=user)
    TrainingDataItemFactory.create(persona=mine)
    hidden = PersonaFactory.create(owner=other_user)
    visible = {persona.pk: persona for persona in personas_visible_to(user)}
    assert visible[mine.pk].has_training_data is True  # type: ignore[attr-defined]
    assert hidden.pk not in visible


def test_anonymous_users_see_public_personas_only(user: User) -> None:
    from django.contrib.auth.models import AnonymousUser

    PersonaFactory.create(owner=user)
    public = PersonaFactory.create(owner=user, is_public=True)
    ids = set(personas_visible_to(AnonymousUser()).values_list("pk", flat=True))
    assert public.pk in ids
    assert all(Persona.objects.get(pk=pk).is_public for pk in ids)


def test_get_persona_for_hides_private_personas(user: User, other_user: User) -> None:
    private = PersonaFactory.create(owner=other_user)
    with pytest.raises(NotFound):
        get_persona_for(user, private.pk)
    assert get_persona_for(other_user, str(private.pk)) == private


def test_get_owned_persona_for_is_403_for_visible_but_not_owned(
    user: User, other_user: User
) -> None:
    public = PersonaFactory.create(owner=other_user, is_public=True)
    with pytest.raises(PermissionDenied):
        get_owned_persona_for(user, public.pk)
    assert get_owned_persona_for(other_user, public.pk) == public


def test_get_training_item_for_checks_the_persona(user: User) -> None:
    persona, sibling = PersonaFactory.create_batch(2, owner=user)
    item = TrainingDataItemFactory.create(persona=sibling)
    with pytest.raises(NotFound):
        get_training_item_for(persona, item.pk)
    assert get_training_item_for(sibling, str(item.pk)) == item


def test_personas_page_filters(user: User, other_user: User) -> None:
    mine = PersonaFactory.create(owner=user, category="support")
    PersonaFactory.create(owner=other_user, is_public=True, category="support")
    page = personas_page(user, category="support", owned=True)
    assert [p.pk for p in page.personas] == [mine.pk]
    assert (page.total, page.has_more) == (1, False)


def test_a_training_item_read_for_its_persona_needs_no_query_for_the_persona(
    user: User, django_assert_num_queries: Any
) -> None:
    persona = PersonaFactory.create(owner=user)
    item = TrainingDataItemFactory.create(persona=persona)
    with django_assert_num_queries(1):
        found = get_training_item_for(persona, item.pk)
        assert found.persona is persona

"""Operators manage personas in the admin: search, filters, inline data, public/private."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from personas.models import Persona
from tests.factories import PersonaFactory, TrainingDataItemFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("builtin_personas")]

CHANGELIST = "/admin/personas/persona/"


def _action(client: Any, action: str, personas: list[Persona]) -> Any:
    return client.post(
        CHANGELIST,
        {"action": action, "_selected_action": [p.pk for p in personas]},
        follow=True,
    )


def test_make_public_action(admin_client: Any, user: User) -> None:
    first, second = PersonaFactory.create_batch(2, owner=user)
    revision = first.revision
    response = _action(admin_client, "make_public", [first, second])
    assert response.status_code == 200
    assert "2 persona(s) made public." in response.content.decode()
    assert set(
        Persona.objects.filter(pk__in=[first.pk, second.pk]).values_list("is_public", flat=True)
    ) == {True}
    first.refresh_from_db()
    assert first.revision > revision  # went through the service


def test_make_private_skips_builtins(admin_client: Any, user: User) -> None:
    public = PersonaFactory.create(owner=user, is_public=True)
    builtin = Persona.objects.get(pk=1)
    response = _action(admin_client, "make_private", [public, builtin])
    content = response.content.decode()
    assert "1 persona(s) made private." in content
    assert "Built-in personas are always public" in content
    public.refresh_from_db()
    builtin.refresh_from_db()
    assert public.is_public is False
    assert builtin.is_public is True


def test_changelist_search_and_filters(admin_client: Any, user: User, other_user: User) -> None:
    PersonaFactory.create(owner=user, name="Zebra Expert", category="animals")
    PersonaFactory.create(owner=other_user, name="Other One", is_public=True)
    content = admin_client.get(CHANGELIST, {"q": "zebra"}).content.decode()
    assert "Zebra Expert" in content
    assert "Other One" not in content
    by_owner = admin_client.get(CHANGELIST, {"q": "charlie"}).content.decode()
    assert "Other One" in by_owner
    assert "Zebra Expert" not in by_owner
    public = admin_client.get(CHANGELIST, {"is_public__exact": "1"}).content.decode()
    assert "Other One" in public
    assert "Zebra Expert" not in public
    owned = admin_client.get(CHANGELIST, {"owner__id__exact": str(user.pk)}).content.decode()
    assert "Zebra Expert" in owned
    assert admin_client.get(CHANGELIST, {"category": "animals"}).status_code == 200


def test_change_page_shows_training_data_inline(admin_client: Any, user: User) -> None:
    persona = PersonaFactory.create(owner=user)
    TrainingDataItemFactory.create(persona=persona, content="Inline canary fact.")
    response = admin_client.get(f"{CHANGELIST}{persona.pk}/change/")
    assert response.status_code == 200
    assert "Inline canary fact." in response.content.decode()


def test_changelist_query_count_is_constant(
    admin_client: Any, user: User, django_assert_max_num_queries: Any
) -> None:
    PersonaFactory.create_batch(3, owner=user)
    admin_client.get(CHANGELIST)
    with django_assert_max_num_queries(12) as captured:
        admin_client.get(CHANGELIST)
    few = len(captured)
    PersonaFactory.create_batch(10, owner=user)
    with django_assert_max_num_queries(few) as captured:
        admin_client.get(CHANGELIST)

"""Who may see and who owns a persona: the one rule, as a filter and for a row already read."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db.models import QuerySet

from accounts.models import User
from personas.models import Persona, persona_owned, persona_visible, user_id_of
from tests.factories import PersonaFactory


@pytest.mark.parametrize(
    ("is_public", "owner_id", "user_id", "owned", "visible"),
    [
        (False, 7, 7, True, True),  # own private persona
        (True, 7, 7, True, True),  # own public persona
        (False, 7, 8, False, False),  # someone else's private persona
        (True, 7, 8, False, True),  # someone else's public persona
        (True, None, 7, False, True),  # a built-in: public, nobody's
        (True, None, None, False, True),  # a built-in, anonymous caller
        (False, 7, None, False, False),  # a private persona, anonymous caller
        (True, 7, None, False, True),  # a public persona, anonymous caller
    ],
)
def test_persona_rule(
    is_public: bool, owner_id: int | None, user_id: int | None, owned: bool, visible: bool
) -> None:
    assert persona_owned(owner_id=owner_id, user_id=user_id) is owned
    assert persona_visible(is_public=is_public, owner_id=owner_id, user_id=user_id) is visible
    persona = Persona(is_public=is_public, owner_id=owner_id)
    assert persona.is_owned_by(user_id) is owned
    assert persona.is_visible_to(user_id) is visible


def test_a_built_in_is_owned_by_no_user_id_not_even_none() -> None:
    builtin = Persona(is_public=True, owner_id=None)
    assert builtin.is_builtin
    assert builtin.is_owned_by(None) is False


@pytest.mark.django_db
def test_user_id_of(user: User) -> None:
    assert user_id_of(user) == user.pk
    assert user_id_of(AnonymousUser()) is None
    assert user_id_of(None) is None


def _ids(personas: QuerySet[Persona]) -> set[int]:
    return set(personas.values_list("pk", flat=True))


@pytest.mark.django_db
def test_the_filters_agree_with_the_row_rule(user: User, other_user: User) -> None:
    PersonaFactory.create(owner=user)
    PersonaFactory.create(owner=user, is_public=True)
    PersonaFactory.create(owner=other_user)
    PersonaFactory.create(owner=other_user, is_public=True)
    PersonaFactory.create(owner=None, is_public=True)
    personas = list(Persona.objects.all())
    for caller in (user, other_user, AnonymousUser()):
        user_id = user_id_of(caller)
        visible = {p.pk for p in personas if p.is_visible_to(user_id)}
        owned = {p.pk for p in personas if p.is_owned_by(user_id)}
        assert _ids(Persona.objects.visible_to(caller)) == visible
        assert _ids(Persona.objects.owned_by(caller)) == owned
        assert _ids(Persona.objects.not_owned_by(caller)) == {p.pk for p in personas} - owned
        # Each caller sees something and, signed in, owns something: the sets are not vacuous.
        assert visible and (owned or user_id is None)


@pytest.mark.django_db
def test_an_anonymous_caller_sees_the_public_personas_only(user: User) -> None:
    PersonaFactory.create(owner=user)
    public = PersonaFactory.create(owner=user, is_public=True)
    visible = Persona.objects.visible_to(AnonymousUser())
    assert public in visible
    assert not visible.filter(is_public=False).exists()
    assert not Persona.objects.owned_by(AnonymousUser()).exists()

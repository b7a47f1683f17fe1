"""A persona's chat guard, set by its owner in the dashboard and by operators in the admin."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from core.errors import InvalidRequest
from personas.models import Persona
from personas.services import create_persona, update_persona

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


def _form_data(**overrides: Any) -> dict[str, Any]:
    data = {
        "name": "Chef",
        "description": "Cooks things.",
        "category": "cooking",
        "system_prompt": "You are a chef.",
        "default_model": "nova-local",
        "default_temperature": "0.4",
        "guard": "output",
    }
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


def _persona(owner: User, **fields: Any) -> Persona:
    return create_persona(
        owner=owner, name="Rust mentor", description="Rust.", system_prompt="You teach.", **fields
    )


def test_owner_creates_a_guarded_persona(alice: Client, user: User) -> None:
    page = alice.get(reverse("personas:create")).content.decode()
    assert 'name="guard"' in page and '<option value="both"' in page
    response = alice.post(reverse("personas:create"), _form_data())
    assert response.status_code == 302
    persona = Persona.objects.get(name="Chef")
    assert persona.guard == "output"
    detail = alice.get(response["Location"]).content.decode()
    assert "Chat guard" in detail and "Output (the reply, streams included)" in detail


def test_owner_changes_the_guard_and_the_revision_moves(alice: Client, user: User) -> None:
    persona = _persona(user)
    assert persona.guard == "off"
    revision = Persona.objects.get(pk=persona.pk).revision
    page = alice.get(reverse("personas:edit", args=[persona.pk]))
    assert page.context["form"]["guard"].value() == "off"
    alice.post(reverse("personas:edit", args=[persona.pk]), _form_data(guard="both"))
    persona.refresh_from_db()
    assert persona.guard == "both"
    assert persona.revision != revision  # cached chat snapshots are replaced


def test_an_edit_posted_without_the_guard_keeps_it(alice: Client, user: User) -> None:
    persona = _persona(user, guard="input")
    alice.post(reverse("personas:edit", args=[persona.pk]), _form_data(guard=None))
    persona.refresh_from_db()
    assert persona.guard == "input"


def test_an_unknown_guard_is_a_form_error(alice: Client, user: User) -> None:
    response = alice.post(reverse("personas:create"), _form_data(guard="strict"))
    assert response.status_code == 200
    assert list(response.context["form"].errors) == ["guard"]
    assert not Persona.objects.filter(name="Chef").exists()


def test_the_service_refuses_an_unknown_guard(user: User) -> None:
    persona = _persona(user)
    with pytest.raises(InvalidRequest) as caught:
        update_persona(persona=persona, guard="sometimes")
    assert caught.value.param == "guard"


def test_others_cannot_change_the_guard(client: Client, user: User, other_user: User) -> None:
    persona = _persona(user, is_public=True, guard="input")
    client.force_login(other_user)
    response = client.post(reverse("personas:edit", args=[persona.pk]), _form_data(guard="off"))
    assert response.status_code == 404
    persona.refresh_from_db()
    assert persona.guard == "input" and persona.name == "Rust mentor"


def test_admin_sets_a_persona_guard(admin_client: Any, user: User) -> None:
    persona = _persona(user)
    url = f"/admin/personas/persona/{persona.pk}/change/"
    page = admin_client.get(url).content.decode()
    assert 'name="guard"' in page
    response = admin_client.post(
        url,
        {
            "owner": user.pk,
            "name": persona.name,
            "description": persona.description,
            "category": persona.category,
            "system_prompt": persona.system_prompt,
            "default_model": persona.default_model,
            "default_temperature": "0.7",
            "guard": "input",
            "training_items-TOTAL_FORMS": "0",
            "training_items-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    persona.refresh_from_db()
    assert persona.guard == "input"
    listing = admin_client.get("/admin/personas/persona/?guard__exact=input").content.decode()
    assert "Rust mentor" in listing

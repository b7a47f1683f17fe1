from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from personas.models import CONTENT_MAX_LENGTH, Persona, TrainingDataItem
from personas.services import add_training_item, create_persona

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


def _persona(owner: User, **fields: Any) -> Persona:
    values: dict[str, Any] = {
        "name": "Rust mentor",
        "description": "Helps with Rust.",
        "system_prompt": "SECRET-PROMPT: you teach Rust.",
    }
    values.update(fields)
    return create_persona(owner=owner, **values)


def _form_data(**overrides: Any) -> dict[str, Any]:
    data = {
        "name": "Chef",
        "description": "Cooks things.",
        "category": "cooking",
        "system_prompt": "You are a chef.\r\n  Indented line.",
        "default_model": "nova-local",
        "default_temperature": "0.4",
        "is_public": "",
    }
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


# --- Personas ---


def test_create_persona_through_the_form(alice: Client, user: User) -> None:
    form_page = alice.get(reverse("personas:create"))
    assert form_page.status_code == 200
    assert b'<option value="nova-local"' in form_page.content

    response = alice.post(reverse("personas:create"), _form_data(is_public="on"))

    persona = Persona.objects.get(name="Chef")
    assert response.status_code == 302
    assert response["Location"] == reverse("personas:detail", args=[persona.id])
    assert persona.owner == user
    assert persona.category == "cooking"
    assert persona.system_prompt == "You are a chef.\n  Indented line."
    assert persona.default_model == "nova-local"
    assert persona.default_temperature == pytest.approx(0.4)
    assert persona.is_public is True
    assert persona.id >= 6


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("default_temperature", "3"),
        ("default_temperature", "-0.1"),
        ("default_model", "no-such-model"),
        ("name", ""),
        ("system_prompt", "   "),
    ],
)
def test_invalid_persona_form_shows_the_error_beside_the_field(
    alice: Client, field: str, value: str
) -> None:
    response = alice.post(reverse("personas:create"), _form_data(**{field: value}))

    assert response.status_code == 200
    form = response.context["form"]
    assert list(form.errors) == [field]
    html = response.content.decode()
    field_html = html[html.index(f'id="field-{field}"') :]
    field_html = field_html[: field_html.index("</div>")]
    assert 'class="errorlist"' in field_html
    assert not Persona.objects.filter(name="Chef").exists()


def test_edit_persona(alice: Client, user: User) -> None:
    persona = _persona(user)
    page = alice.get(reverse("personas:edit", args=[persona.id]))
    assert page.status_code == 200
    assert page.context["form"]["name"].value() == "Rust mentor"

    response = alice.post(
        reverse("personas:edit", args=[persona.id]),
        _form_data(name="Rust guru", default_temperature="1.5"),
    )

    assert response.status_code == 302
    persona.refresh_from_db()
    assert persona.name == "Rust guru"
    assert persona.default_temperature == pytest.approx(1.5)


def test_edit_with_invalid_temperature_keeps_the_persona(alice: Client, user: User) -> None:
    persona = _persona(user)
    response = alice.post(
        reverse("personas:edit", args=[persona.id]), _form_data(default_temperature="3")
    )
    assert response.status_code == 200
    assert "default_temperature" in response.context["form"].errors
    persona.refresh_from_db()
    assert persona.name == "Rust mentor"


def test_delete_persona_asks_then_deletes(alice: Client, user: User) -> None:
    persona = _persona(user)
    confirm = alice.get(reverse("personas:delete_confirm", args=[persona.id]))
    assert confirm.status_code == 200
    assert alice.get(reverse("personas:delete", args=[persona.id])).status_code == 405
    assert Persona.objects.filter(pk=persona.pk).exists()

    response = alice.post(reverse("personas:delete", args=[persona.id]))

    assert response.status_code == 302
    assert response["Location"] == reverse("personas:list")
    assert not Persona.objects.filter(pk=persona.pk).exists()


def test_list_shows_my_personas_and_public_ones(
    alice: Client, user: User, other_user: User
) -> None:
    mine = _persona(user, name="Mine private")
    theirs_public = _persona(other_user, name="Theirs public", is_public=True)
    _persona(other_user, name="Theirs private")

    response = alice.get(reverse("personas:list"))

    assert response.status_code == 200
    assert response.context["mine"] == [mine]
    public_names = [persona.name for persona in response.context["public"]]
    assert "Theirs public" in public_names
    assert theirs_public in response.context["public"]
    html = response.content.decode()
    assert "Theirs private" not in html
    assert "SECRET-PROMPT" not in html


def test_owner_sees_system_prompt_and_training_data(alice: Client, user: User) -> None:
    persona = _persona(user)
    add_training_item(persona=persona, type="text", content="OWNER-ONLY-DATA")

    response = alice.get(reverse("personas:detail", args=[persona.id]))

    assert response.status_code == 200
    html = response.content.decode()
    assert "SECRET-PROMPT" in html
    assert "OWNER-ONLY-DATA" in html
    assert 'data-char-limit="10000"' in html


def test_public_persona_of_someone_else_hides_prompt_and_training_data(
    alice: Client, other_user: User
) -> None:
    persona = _persona(other_user, is_public=True)
    add_training_item(persona=persona, type="text", content="THEIR-TRAINING-DATA")

    response = alice.get(reverse("personas:detail", args=[persona.id]))

    assert response.status_code == 200
    html = response.content.decode()
    assert "Rust mentor" in html
    assert "SECRET-PROMPT" not in html
    assert "THEIR-TRAINING-DATA" not in html
    assert reverse("personas:edit", args=[persona.id]) not in html
    assert "items" not in response.context


def test_builtin_persona_is_read_only(alice: Client) -> None:
    builtin = Persona.objects.filter(owner__isnull=True).order_by("id").first()
    assert builtin is not None
    response = alice.get(reverse("personas:detail", args=[builtin.id]))
    assert response.status_code == 200
    assert builtin.system_prompt not in response.content.decode()
    assert alice.get(reverse("personas:edit", args=[builtin.id])).status_code == 404
    assert alice.post(reverse("personas:delete", args=[builtin.id])).status_code == 404
    assert Persona.objects.filter(pk=builtin.pk).exists()


def _foreign_urls(persona: Persona, item: TrainingDataItem) -> list[tuple[str, str]]:
    return [
        ("get", reverse("personas:detail", args=[persona.id])),
        ("get", reverse("personas:edit", args=[persona.id])),
        ("post", reverse("personas:edit", args=[persona.id])),
        ("get", reverse("personas:delete_confirm", args=[persona.id])),
        ("post", reverse("personas:delete", args=[persona.id])),
        ("get", reverse("personas:training_add", args=[persona.id])),
        ("post", reverse("personas:training_add", args=[persona.id])),
        ("get", reverse("personas:training_edit", args=[persona.id, item.id])),
        ("post", reverse("personas:training_edit", args=[persona.id, item.id])),
        ("get", reverse("personas:training_delete_confirm", args=[persona.id, item.id])),
        ("post", reverse("personas:training_delete", args=[persona.id, item.id])),
    ]


def test_private_persona_of_another_user_is_404_everywhere(alice: Client, other_user: User) -> None:
    persona = _persona(other_user)
    item = add_training_item(persona=persona, type="text", content="THEIR-DATA")
    data = {**_form_data(name="Hijacked"), "type": "text", "content": "injected"}

    for method, url in _foreign_urls(persona, item):
        response = getattr(alice, method)(url, data)
        assert response.status_code == 404, (method, url)
        assert b"SECRET-PROMPT" not in response.content
        assert b"THEIR-DATA" not in response.content

    persona.refresh_from_db()
    assert persona.name == "Rust mentor"
    assert list(persona.training_items.values_list("content", flat=True)) == ["THEIR-DATA"]


def test_public_persona_of_another_user_cannot_be_changed(alice: Client, other_user: User) -> None:
    persona = _persona(other_user, is_public=True)
    item = add_training_item(persona=persona, type="text", content="THEIR-DATA")
    data = {**_form_data(name="Hijacked"), "type": "text", "content": "injected"}

    for method, url in _foreign_urls(persona, item)[1:]:
        response = getattr(alice, method)(url, data)
        assert response.status_code == 404, (method, url)

    persona.refresh_from_db()
    assert persona.name == "Rust mentor"
    assert persona.training_items.count() == 1


def test_unknown_persona_is_404(alice: Client) -> None:
    assert alice.get(reverse("personas:detail", args=[987654])).status_code == 404


def test_item_of_another_persona_is_404(alice: Client, user: User) -> None:
    first = _persona(user)
    second = _persona(user, name="Second")
    item = add_training_item(persona=second, type="text", content="x")

    url = reverse("personas:training_edit", args=[first.id, item.id])
    assert alice.get(url).status_code == 404
    url = reverse("personas:training_delete", args=[first.id, item.id])
    assert alice.post(url).status_code == 404
    assert TrainingDataItem.objects.filter(pk=item.pk).exists()


# --- Training data ---


@pytest.mark.parametrize("item_type", ["text", "example", "document", "knowledge"])
def test_add_training_data_of_each_type(alice: Client, user: User, item_type: str) -> None:
    persona = _persona(user)

    response = alice.post(
        reverse("personas:training_add", args=[persona.id]),
        {"type": item_type, "title": "A title", "question": "", "content": "Line one\r\nTwo"},
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("personas:detail", args=[persona.id])
    item = persona.training_items.get()
    assert (item.type, item.title, item.content, item.metadata) == (
        item_type,
        "A title",
        "Line one\nTwo",
        {},
    )
    assert "Line one" in alice.get(response["Location"]).content.decode()


def test_add_qa_pair_stores_the_question_in_metadata(alice: Client, user: User) -> None:
    persona = _persona(user)

    response = alice.post(
        reverse("personas:training_add", args=[persona.id]),
        {"type": "qa_pair", "title": "", "question": "What is ownership?", "content": "A rule."},
    )

    assert response.status_code == 302
    item = persona.training_items.get()
    assert item.type == "qa_pair"
    assert item.metadata == {"question": "What is ownership?"}
    assert item.content == "A rule."
    html = alice.get(reverse("personas:detail", args=[persona.id])).content.decode()
    assert "What is ownership?" in html


def test_qa_pair_without_question_shows_the_error_beside_the_question(
    alice: Client, user: User
) -> None:
    persona = _persona(user)

    response = alice.post(
        reverse("personas:training_add", args=[persona.id]),
        {"type": "qa_pair", "title": "", "question": "  ", "content": "An answer."},
    )

    assert response.status_code == 200
    assert list(response.context["form"].errors) == ["question"]
    html = response.content.decode()
    question_html = html[html.index('id="field-question"') :]
    assert 'class="errorlist"' in question_html[: question_html.index("</div>")]
    # In plain words, not the API's field path.
    assert "fill in Question" in question_html[: question_html.index("</div>")]
    assert "metadata.question" not in html
    assert not persona.training_items.exists()


def test_a_long_paste_is_not_cut_by_the_browser_but_refused_with_the_limit(
    alice: Client, user: User
) -> None:
    persona = _persona(user)
    page = alice.get(reverse("personas:training_add", args=[persona.id])).content.decode()
    content_tag = page[page.index('name="content"') - 200 : page.index('name="content"') + 200]
    assert "maxlength" not in content_tag  # a browser would cut 12,000 pasted characters
    assert "/ 10,000 characters" in page  # the limit is stated before anything is pasted
    response = alice.post(
        reverse("personas:training_add", args=[persona.id]),
        {"type": "text", "content": "x" * 12_000},
    )
    assert response.status_code == 200
    assert "10000" in str(response.context["form"].errors["content"]) or "10,000" in str(
        response.context["form"].errors["content"]
    )
    assert not persona.training_items.exists()


@pytest.mark.parametrize(
    ("content", "expected_error"),
    [("", "content"), ("x" * (CONTENT_MAX_LENGTH + 1), "content")],
)
def test_training_content_is_required_and_limited(
    alice: Client, user: User, content: str, expected_error: str
) -> None:
    persona = _persona(user)
    response = alice.post(
        reverse("personas:training_add", args=[persona.id]),
        {"type": "text", "content": content},
    )
    assert response.status_code == 200
    assert list(response.context["form"].errors) == [expected_error]
    assert not persona.training_items.exists()


def test_content_at_the_limit_with_crlf_line_breaks_is_accepted(alice: Client, user: User) -> None:
    persona = _persona(user)
    # 10,000 characters as the browser counts them; CRLF on the wire.
    content = ("x" * 99 + "\n") * (CONTENT_MAX_LENGTH // 100)
    response = alice.post(
        reverse("personas:training_add", args=[persona.id]),
        {"type": "text", "content": content.replace("\n", "\r\n")},
    )
    assert response.status_code == 302
    assert len(persona.training_items.get().content) == CONTENT_MAX_LENGTH


def test_edit_training_item(alice: Client, user: User) -> None:
    persona = _persona(user)
    item = add_training_item(
        persona=persona,
        type="qa_pair",
        content="Old answer",
        metadata={"question": "Old?", "source": "api"},
    )
    url = reverse("personas:training_edit", args=[persona.id, item.id])
    page = alice.get(url)
    assert page.status_code == 200
    assert page.context["form"]["question"].value() == "Old?"

    response = alice.post(
        url, {"type": "qa_pair", "title": "T", "question": "New?", "content": "New answer"}
    )

    assert response.status_code == 302
    item.refresh_from_db()
    assert (item.title, item.content) == ("T", "New answer")
    assert item.metadata == {"question": "New?", "source": "api"}


def test_edit_training_item_change_type(alice: Client, user: User) -> None:
    persona = _persona(user)
    item = add_training_item(persona=persona, type="text", content="Plain")
    url = reverse("personas:training_edit", args=[persona.id, item.id])

    response = alice.post(url, {"type": "qa_pair", "question": "", "content": "Plain"})
    assert response.status_code == 200
    assert "question" in response.context["form"].errors

    alice.post(url, {"type": "document", "title": "Doc", "content": "Body"})
    item.refresh_from_db()
    assert (item.type, item.title, item.content) == ("document", "Doc", "Body")


def test_delete_training_item(alice: Client, user: User) -> None:
    persona = _persona(user)
    item = add_training_item(persona=persona, type="text", content="Bye")
    confirm = alice.get(reverse("personas:training_delete_confirm", args=[persona.id, item.id]))
    assert confirm.status_code == 200
    delete_url = reverse("personas:training_delete", args=[persona.id, item.id])
    assert alice.get(delete_url).status_code == 405

    response = alice.post(delete_url)

    assert response.status_code == 302
    assert not TrainingDataItem.objects.filter(pk=item.pk).exists()


# --- Security ---


def test_forged_post_without_csrf_token_is_403(user: User) -> None:
    persona = _persona(user)
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)

    create = client.post(reverse("personas:create"), _form_data(name="Forged"))
    add = client.post(
        reverse("personas:training_add", args=[persona.id]), {"type": "text", "content": "x"}
    )
    delete = client.post(reverse("personas:delete", args=[persona.id]))

    assert (create.status_code, add.status_code, delete.status_code) == (403, 403, 403)
    assert not Persona.objects.filter(name="Forged").exists()
    assert Persona.objects.filter(pk=persona.pk).exists()
    assert not persona.training_items.exists()


def test_persona_name_with_script_is_escaped(alice: Client, user: User, other_user: User) -> None:
    evil = "<script>alert('x')</script>"
    mine = _persona(user, name=evil, description=evil)
    add_training_item(persona=mine, type="text", title=evil, content=evil)
    _persona(other_user, name=evil, is_public=True)

    for url in [reverse("personas:list"), reverse("personas:detail", args=[mine.id])]:
        html = alice.get(url).content.decode()
        assert "<script>alert" not in html
        assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in html


@pytest.mark.parametrize(
    "url",
    [
        reverse("personas:list"),
        reverse("personas:create"),
        reverse("personas:detail", args=[1]),
        reverse("personas:edit", args=[1]),
        reverse("personas:training_add", args=[1]),
    ],
)
def test_pages_require_login(client: Client, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"/login/?next={url}"


def test_mutations_require_login(client: Client, other_user: User) -> None:
    persona = _persona(other_user)
    response = client.post(reverse("personas:delete", args=[persona.id]))
    assert response.status_code == 302
    assert response["Location"].startswith("/login/")
    assert Persona.objects.filter(pk=persona.pk).exists()

"""Dashboard pages for personas and their training data.

Visibility and ownership come from personas.selectors, writes from personas.services. The
dashboard shows a 404 for anything that is not the user's to see or change: someone else's
private persona, and the edit pages of personas the user does not own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, URLResolver, path
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.models import User
from core.errors import ApiError, NotFound, PermissionDenied
from personas import selectors, services
from personas.forms import NovaForm, PersonaForm, TrainingItemForm
from personas.models import Persona, TrainingDataItem

_Written = TypeVar("_Written", Persona, TrainingDataItem)


def _user(request: HttpRequest) -> User:
    # Only called behind @login_required.
    return cast(User, request.user)


def _visible_persona(request: HttpRequest, persona_id: int) -> tuple[Persona, bool]:
    """The persona and whether the user owns it; 404 when the user may not see it."""
    user = _user(request)
    try:
        persona = selectors.get_persona_for(user, persona_id)
    except NotFound as exc:
        raise Http404(exc.message) from exc
    # Someone else's public persona, or a built-in, is shown read-only.
    return persona, persona.is_owned_by(user.pk)


def _owned_persona(request: HttpRequest, persona_id: int) -> Persona:
    """The user's own persona; a 404 for anything else, public personas of others included."""
    try:
        return selectors.get_owned_persona_for(_user(request), persona_id)
    except (NotFound, PermissionDenied) as exc:
        raise Http404(exc.message) from exc


def _owned_item(request: HttpRequest, persona_id: int, data_id: int) -> TrainingDataItem:
    persona = _owned_persona(request, persona_id)
    try:
        return selectors.get_training_item_for(persona, data_id)
    except NotFound as exc:
        raise Http404(exc.message) from exc


def _submit(request: HttpRequest, form: NovaForm, write: Callable[[], _Written]) -> _Written | None:
    """What ``write`` (a service call) returns for a valid POST; None when the page must be
    shown again: a GET, an invalid form, or a rule the service refused, shown on the form."""
    if request.method != "POST" or not form.is_valid():
        return None
    try:
        return write()
    except ApiError as exc:
        form.add_service_error(exc)
        return None


def _add_form(request: HttpRequest) -> TrainingItemForm:
    wanted = request.GET.get("type", "")
    valid = {value for value, _ in TrainingDataItem.Type.choices}
    return TrainingItemForm(initial={"type": wanted if wanted in valid else "text"})


# --- Personas ---


@login_required
@require_safe
def persona_list(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    mine: list[Persona] = []
    public: list[Persona] = []
    for persona in selectors.personas_visible_to(user):
        (mine if persona.is_owned_by(user.pk) else public).append(persona)
    return render(request, "personas/list.html", {"mine": mine, "public": public})


def _persona_form(request: HttpRequest, persona: Persona | None) -> HttpResponse:
    """The form page that creates a persona (``persona`` None) or edits the user's own."""
    form = PersonaForm(
        request.POST or None,
        initial=PersonaForm.initial_for(persona) if persona is not None else None,
        current_model=persona.default_model if persona is not None else None,
    )

    def write() -> Persona:
        if persona is None:
            return services.create_persona(owner=_user(request), **form.cleaned_data)
        return services.update_persona(persona=persona, **form.cleaned_data)

    saved = _submit(request, form, write)
    if saved is not None:
        done = "created" if persona is None else "saved"
        messages.success(request, f"Persona “{saved.name}” {done}.")
        return redirect("personas:detail", persona_id=saved.pk)
    return render(request, "personas/form.html", {"form": form, "persona": persona})


@login_required
@require_http_methods(["GET", "POST"])
def persona_create(request: HttpRequest) -> HttpResponse:
    return _persona_form(request, None)


@login_required
@require_safe
def persona_detail(request: HttpRequest, persona_id: int) -> HttpResponse:
    persona, is_owner = _visible_persona(request, persona_id)
    context: dict[str, Any] = {"persona": persona, "is_owner": is_owner}
    if is_owner:
        # A persona's system prompt and training data are shown to its owner only.
        context["items"] = selectors.training_items_for(persona)
        context["add_form"] = _add_form(request)
    return render(request, "personas/detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def persona_edit(request: HttpRequest, persona_id: int) -> HttpResponse:
    return _persona_form(request, _owned_persona(request, persona_id))


@login_required
@require_safe
def persona_delete_confirm(request: HttpRequest, persona_id: int) -> HttpResponse:
    persona = _owned_persona(request, persona_id)
    item_count = selectors.training_items_for(persona).count()
    return render(
        request, "personas/delete_confirm.html", {"persona": persona, "item_count": item_count}
    )


@login_required
@require_POST
def persona_delete(request: HttpRequest, persona_id: int) -> HttpResponse:
    persona = _owned_persona(request, persona_id)
    name = persona.name
    services.delete_persona(persona=persona)
    messages.success(request, f"Persona “{name}” deleted.")
    return redirect("personas:list")


# --- Training data ---


@login_required
@require_http_methods(["GET", "POST"])
def training_add(request: HttpRequest, persona_id: int) -> HttpResponse:
    persona = _owned_persona(request, persona_id)
    form = TrainingItemForm(request.POST) if request.method == "POST" else _add_form(request)
    item = _submit(
        request,
        form,
        lambda: services.add_training_item(persona=persona, **form.item_fields()),
    )
    if item is not None:
        messages.success(request, f"Added {item.get_type_display().lower()} item.")
        return redirect("personas:detail", persona_id=persona.pk)
    return render(
        request, "personas/training_form.html", {"form": form, "persona": persona, "item": None}
    )


@login_required
@require_http_methods(["GET", "POST"])
def training_edit(request: HttpRequest, persona_id: int, data_id: int) -> HttpResponse:
    item = _owned_item(request, persona_id, data_id)
    form = TrainingItemForm(request.POST or None, initial=TrainingItemForm.initial_for(item))
    saved = _submit(
        request, form, lambda: services.update_training_item(item=item, **form.item_fields(item))
    )
    if saved is not None:
        messages.success(request, "Training data saved.")
        return redirect("personas:detail", persona_id=saved.persona_id)
    return render(
        request,
        "personas/training_form.html",
        {"form": form, "persona": item.persona, "item": item},
    )


@login_required
@require_safe
def training_delete_confirm(request: HttpRequest, persona_id: int, data_id: int) -> HttpResponse:
    item = _owned_item(request, persona_id, data_id)
    return render(
        request, "personas/training_delete_confirm.html", {"item": item, "persona": item.persona}
    )


@login_required
@require_POST
def training_delete(request: HttpRequest, persona_id: int, data_id: int) -> HttpResponse:
    item = _owned_item(request, persona_id, data_id)
    services.delete_training_item(item=item)
    messages.success(request, "Training data deleted.")
    return redirect("personas:detail", persona_id=persona_id)


web_urls: list[URLPattern | URLResolver] = [
    path("", persona_list, name="list"),
    path("new/", persona_create, name="create"),
    path("<int:persona_id>/", persona_detail, name="detail"),
    path("<int:persona_id>/edit/", persona_edit, name="edit"),
    path("<int:persona_id>/delete/confirm/", persona_delete_confirm, name="delete_confirm"),
    path("<int:persona_id>/delete/", persona_delete, name="delete"),
    path("<int:persona_id>/training/new/", training_add, name="training_add"),
    path("<int:persona_id>/training/<int:data_id>/edit/", training_edit, name="training_edit"),
    path(
        "<int:persona_id>/training/<int:data_id>/delete/confirm/",
        training_delete_confirm,
        name="training_delete_confirm",
    ),
    path(
        "<int:persona_id>/training/<int:data_id>/delete/",
        training_delete,
        name="training_delete",
    ),
]

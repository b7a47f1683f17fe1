"""Dashboard pages for accounts: sign up, home, API keys. Rules live in accounts.services."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, cast

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.forms import (
    ApiKeyCreateForm,
    ApiKeyGuardForm,
    ApiKeyLoggingForm,
    ApiKeyRateLimitForm,
    SignupForm,
    SpendLimitForm,
)
from accounts.limits import key_spend, set_key_limit
from accounts.models import ApiKey, User
from accounts.services import (
    create_api_key,
    create_user,
    get_key_for,
    revoke_api_key,
    update_api_key,
)
from core.errors import ApiError, NotFound

# Several backends are configured (axes first); a fresh sign-up is a plain model login.
_LOGIN_BACKEND = "django.contrib.auth.backends.ModelBackend"


# Session entry: the tokens of key-creation forms already used, with the key each created.
_USED_KEY_FORMS = "used_key_forms"
_USED_KEY_FORMS_KEPT = 20


def _user(request: HttpRequest) -> User:
    # Only called behind @login_required.
    return cast(User, request.user)


def _own_key(request: HttpRequest, key_id: int) -> ApiKey:
    try:
        return get_key_for(_user(request), key_id)
    except NotFound as exc:
        raise Http404(exc.message) from exc


def _keys_page(request: HttpRequest, form: ApiKeyCreateForm) -> HttpResponse:
    keys = _user(request).api_keys.all()
    return render(request, "accounts/keys.html", {"form": form, "keys": keys})


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("accounts:home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = create_user(
                username=form.cleaned_data["username"],
                email=form.cleaned_data.get("email") or "",
                password=form.cleaned_data["password1"],
            )
        except IntegrityError:
            # Someone took the name between the form's uniqueness check and the insert.
            form.add_error("username", "A user with that username already exists.")
        else:
            login(request, user, backend=_LOGIN_BACKEND)
            messages.success(request, f"Welcome to Nova, {user.username}.")
            return redirect("accounts:home")
    return render(request, "accounts/signup.html", {"form": form})


class HomeSection(Protocol):
    def __call__(self, *, user: User) -> Mapping[str, object]: ...


# What apps above accounts add to the home page's context, registered from their
# AppConfig.ready() (billing adds the balance): accounts reads them without importing those apps.
_home_sections: list[HomeSection] = []


def add_home_section(section: HomeSection) -> None:
    """Have the home page merge ``section(user=...)`` into its template context."""
    if section not in _home_sections:
        _home_sections.append(section)


@login_required
@require_safe
def home(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    context: dict[str, object] = {"keys": user.api_keys.all()}
    for section in _home_sections:
        context.update(section(user=user))
    return render(request, "accounts/home.html", context)


@login_required
@require_safe
def keys(request: HttpRequest) -> HttpResponse:
    return _keys_page(request, ApiKeyCreateForm())


@login_required
@require_POST
@never_cache
def key_create(request: HttpRequest) -> HttpResponse:
    """Creates a key and shows the raw key on this response only.

    The page is rendered straight from the POST (never via the session or a redirect) and
    marked uncacheable, so the raw key exists nowhere after this response.
    """
    form = ApiKeyCreateForm(request.POST)
    if not form.is_valid():
        return _keys_page(request, form)
    token = form.cleaned_data["form_token"]
    used: dict[str, int] = request.session.get(_USED_KEY_FORMS, {})
    if token and token in used:
        # The same form again (the browser re-sent it on a reload): no second key, and the
        # raw key, which exists nowhere any more, is not shown again.
        return render(
            request,
            "accounts/key_created.html",
            {"key": _own_key(request, used[token]), "raw_key": None},
        )
    try:
        issued = create_api_key(
            user=_user(request),
            name=form.cleaned_data["name"],
            detailed_logging=form.cleaned_data["detailed_logging"],
            rpm_limit=form.cleaned_data["rpm_limit"],
        )
    except ApiError as exc:
        form.add_error(exc.param if exc.param in form.fields else None, exc.message)
        return _keys_page(request, form)
    if token:
        # Only the form's token and the key's id are kept, never the raw key.
        recent = list(used.items())[-(_USED_KEY_FORMS_KEPT - 1) :]
        request.session[_USED_KEY_FORMS] = {**dict(recent), token: issued.key.pk}
    return render(
        request,
        "accounts/key_created.html",
        {
            "key": issued.key,
            "raw_key": issued.raw_key,
            "api_base": request.build_absolute_uri("/v1"),
        },
    )


@login_required
@require_safe
def key_revoke_confirm(request: HttpRequest, key_id: int) -> HttpResponse:
    return render(request, "accounts/key_revoke_confirm.html", {"key": _own_key(request, key_id)})


@login_required
@require_POST
def key_revoke(request: HttpRequest, key_id: int) -> HttpResponse:
    key = revoke_api_key(key=_own_key(request, key_id))
    messages.success(request, f"Key {key.prefix}… is revoked; requests with it now get 401.")
    return redirect("accounts:keys")


@login_required
@require_POST
def key_set_logging(request: HttpRequest, key_id: int) -> HttpResponse:
    key = _own_key(request, key_id)
    form = ApiKeyLoggingForm(request.POST)
    form.is_valid()  # a single optional checkbox: always valid
    key = update_api_key(key=key, detailed_logging=form.cleaned_data["detailed_logging"])
    state = "on" if key.detailed_logging else "off"
    messages.success(request, f"Detailed Logging is {state} for {key.prefix}….")
    return redirect("accounts:keys")


@login_required
@require_POST
def key_set_rate_limit(request: HttpRequest, key_id: int) -> HttpResponse:
    key = _own_key(request, key_id)
    form = ApiKeyRateLimitForm(request.POST)
    if form.is_valid():
        try:
            key = update_api_key(key=key, rpm_limit=form.cleaned_data["rpm_limit"])
        except ApiError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request, f"{key.prefix}… may now make {key.rpm_limit} requests per minute."
            )
    else:
        errors = form.errors.get("rpm_limit") or ["Enter a whole number."]
        messages.error(request, f"Rate limit not changed: {errors[0]}")
    return redirect("accounts:keys")


def _key_page(
    request: HttpRequest,
    key: ApiKey,
    form: SpendLimitForm,
    guard_form: ApiKeyGuardForm | None = None,
) -> HttpResponse:
    # The same figures as GET /v1/key (one selector behind accounts.limits.key_spend).
    return render(
        request,
        "accounts/key_detail.html",
        {
            "key": key,
            "spend": key_spend(key),
            "form": form,
            "guard_form": guard_form or ApiKeyGuardForm(initial={"guard": key.guard}),
        },
    )


@login_required
@require_safe
def key_detail(request: HttpRequest, key_id: int) -> HttpResponse:
    key = _own_key(request, key_id)
    form = SpendLimitForm(initial={"limit": key.limit, "limit_reset": key.limit_reset})
    return _key_page(request, key, form)


@login_required
@require_POST
def key_set_guard(request: HttpRequest, key_id: int) -> HttpResponse:
    key = _own_key(request, key_id)
    form = ApiKeyGuardForm(request.POST)
    if not form.is_valid():
        limits = SpendLimitForm(initial={"limit": key.limit, "limit_reset": key.limit_reset})
        return _key_page(request, key, limits, guard_form=form)
    key = update_api_key(key=key, guard=form.cleaned_data["guard"])
    messages.success(request, f"Chat guard for {key.prefix}…: {key.get_guard_display()}.")
    return redirect("accounts:key_detail", key_id=key.pk)


@login_required
@require_POST
def key_set_limit(request: HttpRequest, key_id: int) -> HttpResponse:
    key = _own_key(request, key_id)
    form = SpendLimitForm(request.POST)
    if not form.is_valid():
        return _key_page(request, key, form)
    try:
        key = set_key_limit(
            key=key,
            limit=form.cleaned_data["limit"],
            limit_reset=form.cleaned_data["limit_reset"],
        )
    except ApiError as exc:
        form.add_error(exc.param if exc.param in form.fields else None, exc.message)
        return _key_page(request, key, form)
    if key.limit is None:
        messages.success(request, f"{key.prefix}… has no spend limit now.")
    else:
        messages.success(
            request, f"{key.prefix}… may now spend {key.limit:f} USD ({key.limit_reset})."
        )
    return redirect("accounts:key_detail", key_id=key.pk)

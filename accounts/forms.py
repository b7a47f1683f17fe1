"""Dashboard forms for accounts: they check the shape of input; services own the rules."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import password_validation
from django.contrib.auth.forms import UserCreationForm

from accounts.models import ApiKey, User

# PositiveIntegerField fits 2**31 - 1 on PostgreSQL; anything near that is a typo anyway.
RPM_LIMIT_MAX = 100_000


class SignupForm(UserCreationForm):
    """Username, optional email, password twice (Django's validators and uniqueness checks).

    The view never calls ``save()``: ``accounts.services.create_user`` creates the user, so
    the balance row exists from the start.
    """

    class Meta:
        model = User
        fields = ("username", "email")
        help_texts = {"email": "Optional."}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Django's default help text here is HTML; ours is plain text, so templates never
        # need |safe.
        self.fields["password1"].help_text = " ".join(
            password_validation.password_validators_help_texts()
        )


class ApiKeyCreateForm(forms.Form):
    name = forms.CharField(
        max_length=ApiKey._meta.get_field("name").max_length,
        required=False,
        help_text="Something to tell your keys apart, e.g. “laptop” or “CI”.",
    )
    detailed_logging = forms.BooleanField(
        required=False,
        label="Detailed Logging",
        help_text="Store the full text of requests and replies made with this key.",
    )
    rpm_limit = forms.IntegerField(
        min_value=1,
        max_value=RPM_LIMIT_MAX,
        initial=settings.DEFAULT_RPM_LIMIT,
        label="Rate limit (requests per minute)",
    )


class ApiKeyLoggingForm(forms.Form):
    """The toggle posts the wanted state, so a repeated submit is harmless."""

    detailed_logging = forms.BooleanField(required=False)


class ApiKeyRateLimitForm(forms.Form):
    rpm_limit = forms.IntegerField(
        min_value=1, max_value=RPM_LIMIT_MAX, label="Requests per minute"
    )

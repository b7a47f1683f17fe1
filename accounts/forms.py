"""Dashboard forms for accounts: they check the shape of input; services own the rules."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from django import forms
from django.conf import settings
from django.contrib.auth import password_validation
from django.contrib.auth.forms import UserCreationForm

from accounts.limits import MAX_LIMIT
from accounts.models import ApiKey, Guard, LimitReset, User

# Django's form classes take type arguments in django-stubs only, not at run time.
if TYPE_CHECKING:
    _UserCreationForm = UserCreationForm[User]
else:
    _UserCreationForm = UserCreationForm


def _rpm_limit_field(**kwargs: Any) -> forms.IntegerField:
    """Requests per minute, 1 to ``settings.MAX_KEY_RPM`` (read per form, not at import)."""
    return forms.IntegerField(min_value=1, max_value=settings.MAX_KEY_RPM, **kwargs)


class SignupForm(_UserCreationForm):
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

    # A fresh random value per rendered form: the same form posted again (a reload of the
    # "new key" page) is recognised and creates no second key.
    form_token = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["rpm_limit"] = _rpm_limit_field(
            initial=settings.DEFAULT_RPM_LIMIT, label="Rate limit (requests per minute)"
        )
        if not self.is_bound:
            self.initial["form_token"] = secrets.token_urlsafe(24)


class ApiKeyLoggingForm(forms.Form):
    """The toggle posts the wanted state, so a repeated submit is harmless."""

    detailed_logging = forms.BooleanField(required=False)


class ApiKeyRateLimitForm(forms.Form):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["rpm_limit"] = _rpm_limit_field(label="Requests per minute")


class ApiKeyGuardForm(forms.Form):
    guard = forms.ChoiceField(
        choices=Guard.choices,
        initial=Guard.OFF,
        label="Chat guard",
        help_text="Input: a blocked message is refused (400 content_blocked) before anything "
        "is generated or charged. Output: the reply is moderated as it is produced and cut "
        "off (finish_reason content_filter) where it turns unsafe.",
    )


class SpendLimitForm(forms.Form):
    """A key's spend limit: empty for none. The shape only; ``accounts.limits`` decides."""

    limit = forms.DecimalField(
        required=False,
        min_value=0,
        max_value=MAX_LIMIT,
        max_digits=20,
        decimal_places=8,
        label="Spend limit (USD)",
        help_text="Leave empty for no limit. Requests are refused (402) once the spend in the "
        "current window reaches it.",
    )
    limit_reset = forms.ChoiceField(
        choices=LimitReset.choices,
        initial=LimitReset.NEVER,
        label="Resets",
        help_text="Windows start at 00:00 UTC; weeks start on Monday.",
    )

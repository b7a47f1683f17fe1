"""Dashboard forms for personas and training data.

They check the shape of input (types, lengths, catalog choices) so errors appear beside the
fields; the rules themselves live in personas.services, whose errors the views attach to the
field named by ``ApiError.param`` (see :meth:`NovaForm.add_service_error`).
"""

from __future__ import annotations

from typing import Any

from django import forms

from accounts.models import Guard
from core.errors import ApiError
from llm.catalog import get_catalog
from personas.models import (
    CATEGORY_MAX_LENGTH,
    CONTENT_MAX_LENGTH,
    DESCRIPTION_MAX_LENGTH,
    NAME_MAX_LENGTH,
    TITLE_MAX_LENGTH,
    Persona,
    TrainingDataItem,
)
from personas.services import SYSTEM_PROMPT_MAX_LENGTH


class MultilineField(forms.CharField):
    """Keeps leading whitespace (code, poems) and counts a line break as one character.

    Browsers submit textarea line breaks as CRLF while their ``maxlength`` and our live counter
    count them as one, so without this a text that fits in the browser would fail here.
    """

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("strip", False)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> str:
        text = super().to_python(value) or ""
        return text.replace("\r\n", "\n").replace("\r", "\n")


class NovaForm(forms.Form):
    # Service error params that are not form field names.
    param_fields: dict[str, str] = {}

    def add_service_error(self, error: ApiError) -> None:
        """Show a service's InvalidRequest beside the field it names (or above the form)."""
        field = self.param_fields.get(error.param or "", error.param)
        self.add_error(field if field in self.fields else None, error.message)


def _model_choices() -> list[tuple[str, str]]:
    return get_catalog().choices()


class PersonaForm(NovaForm):
    name = forms.CharField(max_length=NAME_MAX_LENGTH)
    description = forms.CharField(
        max_length=DESCRIPTION_MAX_LENGTH,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="One or two sentences on what this persona is good at. Shown in listings.",
    )
    category = forms.CharField(
        max_length=CATEGORY_MAX_LENGTH,
        required=False,
        initial="general",
        help_text="A single word or two, e.g. programming, writing, support.",
    )
    system_prompt = MultilineField(
        max_length=SYSTEM_PROMPT_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 8}),
        help_text="Instructions the model gets before every conversation. Only you can see it.",
    )
    default_model = forms.ChoiceField(choices=_model_choices, label="Default model")
    default_temperature = forms.FloatField(
        min_value=0,
        max_value=2,
        initial=0.7,
        label="Default temperature",
        help_text="0 is focused and repeatable, 2 is very creative.",
        widget=forms.NumberInput(attrs={"step": "0.1", "min": "0", "max": "2"}),
    )
    is_public = forms.BooleanField(
        required=False,
        label="Public",
        help_text="Everyone can find and chat with a public persona. Its system prompt and "
        "training data stay private to you.",
    )
    guard = forms.ChoiceField(
        choices=Guard.choices,
        initial=Guard.OFF,
        required=False,
        label="Chat guard",
        help_text="Moderate every chat with this persona, whoever's key is used: the user's "
        "message (blocked with a 400), the reply (cut off with finish_reason "
        "content_filter), or both. A key's own guard adds to this one.",
    )

    def __init__(self, *args: Any, current_model: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["default_model"]
        assert isinstance(field, forms.ChoiceField)
        choices = _model_choices()
        if current_model and current_model not in {model_id for model_id, _ in choices}:
            # Keep showing a model that left the catalog rather than silently switching it;
            # saving it is then refused by the service, beside this field.
            choices.append((current_model, f"{current_model} (no longer available)"))
        field.choices = choices

    def clean_guard(self) -> str:
        # A form posted without the field (one written before the guard existed) keeps the
        # persona's setting.
        return str(self.cleaned_data.get("guard") or self.initial.get("guard") or Guard.OFF)

    @classmethod
    def initial_for(cls, persona: Persona) -> dict[str, Any]:
        return {name: getattr(persona, name) for name in cls.base_fields}


class TrainingItemForm(NovaForm):
    param_fields = {"metadata.question": "question", "metadata": "question"}

    type = forms.ChoiceField(
        choices=TrainingDataItem.Type.choices,
        widget=forms.Select(attrs={"data-type-select": ""}),
    )
    title = forms.CharField(
        max_length=TITLE_MAX_LENGTH,
        required=False,
        help_text="Optional. Documents and examples read better with one.",
    )
    question = MultilineField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="For a question and answer: the question. The content below is the answer.",
    )
    content = MultilineField(
        max_length=CONTENT_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 10, "data-char-limit": str(CONTENT_MAX_LENGTH)}),
        help_text=f"At most {CONTENT_MAX_LENGTH:,} characters.",
    )

    # Plain words for the service's errors that name API fields.
    friendly_messages = {
        "metadata.question": "A question and answer needs its question: fill in Question.",
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # No maxlength in the page: a browser cuts a longer paste silently. The counter shows
        # the limit as one types or pastes, and the form refuses what is over it, saying so.
        self.fields["content"].widget.attrs.pop("maxlength", None)

    def add_service_error(self, error: ApiError) -> None:
        message = self.friendly_messages.get(error.param or "")
        if message is None:
            super().add_service_error(error)
        else:
            self.add_error(self.param_fields[error.param or ""], message)

    @property
    def is_qa_pair(self) -> bool:
        return self.cleaned_data.get("type") == TrainingDataItem.Type.QA_PAIR

    def metadata_for(self, item: TrainingDataItem | None = None) -> dict[str, Any] | None:
        """The metadata to store, or None to leave it as it is.

        Only a qa_pair's question is edited here; other keys (set through the API) are kept.
        """
        if not self.is_qa_pair:
            return None
        metadata = dict(item.metadata) if item is not None and item.metadata else {}
        metadata["question"] = self.cleaned_data.get("question", "")
        return metadata

    def item_fields(self, item: TrainingDataItem | None = None) -> dict[str, Any]:
        """The training-data service's keyword arguments: type, title and content, and
        metadata when :meth:`metadata_for` sets it."""
        fields = {name: self.cleaned_data[name] for name in ("type", "title", "content")}
        metadata = self.metadata_for(item)
        if metadata is not None:
            fields["metadata"] = metadata
        return fields

    @staticmethod
    def initial_for(item: TrainingDataItem) -> dict[str, Any]:
        return {
            "type": item.type,
            "title": item.title,
            "question": item.question,
            "content": item.content,
        }

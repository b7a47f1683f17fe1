"""Request and response shapes of the moderation endpoints (docs/moderation.md, "Requests").

Input is strict: strings must be JSON strings (no number or boolean coercion), unknown
parameters are rejected, and every error names its field as `param` (``policy``, ``input[2]``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, TypedDict

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from moderation.engine import PolicyParseError, Verdict, parse_policies
from moderation.engine.verdict import UsageDict, VerdictDict
from moderation.engine.vocabulary import (
    ACTIONS,
    AMBIGUITY_REASONS,
    CATEGORIES,
    SEVERITIES,
    STATUSES,
)

CONTENT_MAX_CHARS = 100_000
POLICY_MAX_CHARS = 10_000
INSTRUCTIONS_MAX_CHARS = 10_000
# The OpenAI-shaped endpoint: how many texts one request may carry, and their total size.
MODERATIONS_MAX_INPUTS = 32
MODERATIONS_MAX_TOTAL_CHARS = 200_000

# A line that has the right shape but was still refused: its number is a duplicate.
_POLICY_HEAD = re.compile(r"#policy ([1-9]\d{0,8}): *\S")

# OpenAI's moderation categories, in the order its API lists them.
OPENAI_CATEGORIES: tuple[str, ...] = (
    "harassment",
    "harassment/threatening",
    "hate",
    "hate/threatening",
    "illicit",
    "illicit/violent",
    "self-harm",
    "self-harm/instructions",
    "self-harm/intent",
    "sexual",
    "sexual/minors",
    "violence",
    "violence/graphic",
)


def _fail(param: str, message: str, code: str = "invalid") -> serializers.ValidationError:
    """A ValidationError whose first error sits at `param` (a path such as input[2])."""
    return serializers.ValidationError({param: [serializers.ErrorDetail(message, code=code)]})


def _check_text(value: Any, param: str, *, max_chars: int, allow_blank: bool) -> str:
    if not isinstance(value, str):
        raise _fail(param, f"{param} must be a string.", code="invalid_type")
    if not allow_blank and not value.strip():
        raise _fail(param, f"{param} must not be blank.")
    if len(value) > max_chars:
        raise _fail(
            param, f"{param} must be at most {max_chars:,} characters (got {len(value):,})."
        )
    return value


def _policy_error(exc: PolicyParseError) -> str:
    """Name the bad line (1-based) and say what is wrong with it."""
    match = _POLICY_HEAD.match(exc.line.strip())
    if match:
        return (
            f"policy line {exc.line_number} reuses policy number {int(match.group(1))}: "
            "each <n> must be unique."
        )
    return (
        f"policy line {exc.line_number} must look like '#policy <n>: <description>' "
        "with <n> a positive integer."
    )


def _check_body(data: Any, known: tuple[str, ...], required: str) -> dict[str, Any]:
    """The body as a JSON object with only `known` parameters and the `required` one."""
    if not isinstance(data, dict):
        raise serializers.ValidationError(
            {"non_field_errors": ["The request body must be a JSON object."]}
        )
    for name in data:
        if name not in known:
            raise _fail(
                str(name),
                f"{str(name)[:100]} is not a parameter of this endpoint "
                f"(accepted: {', '.join(known)}).",
                code="unknown_parameter",
            )
    if required not in data:
        raise serializers.ValidationError(
            {required: [serializers.ErrorDetail(f"{required} is required.", code="required")]}
        )
    return data


class ModerationRequest(TypedDict):
    """The validated body of `POST /v1/moderation` (blank policy or instructions: None)."""

    content: str
    policy: str | None
    instructions: str | None


class ModerationsRequest(TypedDict):
    """The validated body of `POST /v1/moderations`: the texts, in order."""

    input: list[str]
    model: str | None


class OpenAIModerationResult(TypedDict):
    flagged: bool
    categories: dict[str, bool]
    category_scores: dict[str, float]
    category_applied_input_types: dict[str, list[str]]


class ModerationsResponse(TypedDict):
    id: str
    model: str
    results: list[OpenAIModerationResult]


class ModerationRequestSerializer(serializers.Serializer[ModerationRequest]):
    """Text to moderate, optional custom policies and instructions; no other fields."""

    # The fields document the schema; to_internal_value checks them strictly, by hand.

    content = serializers.CharField(
        max_length=CONTENT_MAX_CHARS, help_text="Text to assess: a non-blank string."
    )
    policy = serializers.CharField(
        required=False,
        allow_null=True,
        allow_blank=True,
        max_length=POLICY_MAX_CHARS,
        help_text=(
            "Custom rules on top of the built-in policy, one '#policy <n>: <description>' per "
            "line (n a positive integer, unique). A breach adds POLICY_<n> to detected_signals."
        ),
    )
    instructions = serializers.CharField(
        required=False,
        allow_null=True,
        allow_blank=True,
        max_length=INSTRUCTIONS_MAX_CHARS,
        help_text=(
            "Free-text guidance, e.g. 'allow profanity', 'be strict', "
            "'treat \"Acme\" as spam', 'hate speech threshold 0.3'."
        ),
    )

    FIELDS = ("content", "policy", "instructions")

    def to_internal_value(self, data: Any) -> ModerationRequest:
        data = _check_body(data, self.FIELDS, "content")
        validated: ModerationRequest = {
            "content": _check_text(
                data["content"], "content", max_chars=CONTENT_MAX_CHARS, allow_blank=False
            ),
            "policy": None,
            "instructions": None,
        }
        policy = data.get("policy")
        if policy is not None:
            policy = _check_text(policy, "policy", max_chars=POLICY_MAX_CHARS, allow_blank=True)
            try:
                parse_policies(policy)
            except PolicyParseError as exc:
                raise _fail("policy", _policy_error(exc)) from None
            validated["policy"] = policy if policy.strip() else None
        instructions = data.get("instructions")
        if instructions is not None:
            instructions = _check_text(
                instructions, "instructions", max_chars=INSTRUCTIONS_MAX_CHARS, allow_blank=True
            )
            validated["instructions"] = instructions if instructions.strip() else None
        return validated


class ModerationUsageSerializer(serializers.Serializer[UsageDict]):
    prompt_tokens = serializers.IntegerField()
    completion_tokens = serializers.IntegerField()
    total_tokens = serializers.IntegerField()


class ModerationVerdictSerializer(serializers.Serializer[VerdictDict]):
    """A moderation verdict; every field is always present."""

    status = serializers.ChoiceField(
        choices=STATUSES, help_text="ALLOWED exactly when action is ALLOW or LOG_ONLY."
    )
    category = serializers.ChoiceField(choices=CATEGORIES)
    severity = serializers.ChoiceField(choices=SEVERITIES)
    action = serializers.ChoiceField(choices=ACTIONS)
    banned_days = serializers.IntegerField(
        allow_null=True, help_text="Suggested ban in days; null unless action is BANNED."
    )
    reason = serializers.CharField()
    confidence = serializers.FloatField(min_value=0, max_value=1)
    uncertainty_flag = serializers.BooleanField()
    ambiguity_reason = serializers.ChoiceField(choices=AMBIGUITY_REASONS)
    escalation_required = serializers.BooleanField()
    auto_fail = serializers.BooleanField()
    detected_signals = serializers.ListField(
        child=serializers.CharField(),
        help_text="Categories, finer triggers (THREAT, PII_EMAIL) and POLICY_<n> breaches.",
    )
    policy_version = serializers.CharField()
    timestamp = serializers.DateTimeField(help_text="ISO 8601, UTC.")
    usage = ModerationUsageSerializer()
    scores = serializers.DictField(
        child=serializers.FloatField(),
        help_text="A probability per category (every category but SAFE), for own thresholds.",
    )
    redacted_content = serializers.CharField(
        required=False, help_text="Only when action is REDACT: the content with PII masked."
    )


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "minLength": 1, "maxLength": CONTENT_MAX_CHARS},
            {
                "type": "array",
                "minItems": 1,
                "maxItems": MODERATIONS_MAX_INPUTS,
                "items": {
                    "oneOf": [
                        {"type": "string", "minLength": 1, "maxLength": CONTENT_MAX_CHARS},
                        {
                            "type": "object",
                            "required": ["type", "text"],
                            "properties": {
                                "type": {"type": "string", "enum": ["text"]},
                                "text": {"type": "string", "minLength": 1},
                            },
                        },
                    ]
                },
            },
        ]
    }
)
class ModerationInputField(serializers.JSONField):
    """`input` of the OpenAI-shaped endpoint (validated in ModerationsRequestSerializer)."""


class ModerationsRequestSerializer(serializers.Serializer[ModerationsRequest]):
    """OpenAI-compatible moderation request. Unknown fields are rejected."""

    # Checked by hand in to_internal_value, so each error names its path (input[2]).
    input = ModerationInputField(
        help_text=(
            "A string, or an array of up to 32 strings (or OpenAI text parts "
            '{"type": "text", "text": ...}); each non-blank and at most 100,000 characters.'
        )
    )
    model = serializers.CharField(
        required=False,
        help_text="Accepted for compatibility and ignored: Nova answers with its own engine.",
    )

    FIELDS = ("input", "model")

    def to_internal_value(self, data: Any) -> ModerationsRequest:
        data = _check_body(data, self.FIELDS, "input")
        model = data.get("model")
        if model is not None and not isinstance(model, str):
            raise _fail("model", "model must be a string.", code="invalid_type")
        raw = data["input"]
        if isinstance(raw, str):
            texts = [_check_text(raw, "input", max_chars=CONTENT_MAX_CHARS, allow_blank=False)]
        elif isinstance(raw, list):
            if not raw:
                raise _fail("input", "input must not be an empty array.")
            if len(raw) > MODERATIONS_MAX_INPUTS:
                raise _fail(
                    "input",
                    f"input accepts at most {MODERATIONS_MAX_INPUTS} items (got {len(raw)}).",
                )
            texts = [self._item(item, f"input[{index}]") for index, item in enumerate(raw)]
        else:
            raise _fail(
                "input", "input must be a string or an array of strings.", code="invalid_type"
            )
        total = sum(len(text) for text in texts)
        if total > MODERATIONS_MAX_TOTAL_CHARS:
            raise _fail(
                "input",
                f"input must total at most {MODERATIONS_MAX_TOTAL_CHARS:,} characters "
                f"(got {total:,}).",
            )
        return {"input": texts, "model": model}

    def _item(self, item: Any, param: str) -> str:
        if isinstance(item, dict):
            kind = item.get("type")
            if kind == "image_url":
                raise _fail(f"{param}.type", "Image inputs are not supported; send text.")
            if kind != "text":
                raise _fail(f"{param}.type", f"{param}.type must be 'text'.")
            return _check_text(
                item.get("text"), f"{param}.text", max_chars=CONTENT_MAX_CHARS, allow_blank=False
            )
        return _check_text(item, param, max_chars=CONTENT_MAX_CHARS, allow_blank=False)


class OpenAIModerationCategoriesSerializer(serializers.Serializer[dict[str, bool]]):
    """One boolean per OpenAI category (fields added below: their names hold '/' and '-')."""


class OpenAIModerationScoresSerializer(serializers.Serializer[dict[str, float]]):
    """One score in [0, 1] per OpenAI category."""


class OpenAIModerationInputTypesSerializer(serializers.Serializer[dict[str, list[str]]]):
    """Which input types each category was applied to (always ["text"])."""


for _name in OPENAI_CATEGORIES:
    OpenAIModerationCategoriesSerializer._declared_fields[_name] = serializers.BooleanField()
    OpenAIModerationScoresSerializer._declared_fields[_name] = serializers.FloatField()
    OpenAIModerationInputTypesSerializer._declared_fields[_name] = serializers.ListField(
        child=serializers.CharField()
    )


class OpenAIModerationResultSerializer(serializers.Serializer[OpenAIModerationResult]):
    flagged = serializers.BooleanField()
    categories = OpenAIModerationCategoriesSerializer()
    category_scores = OpenAIModerationScoresSerializer()
    category_applied_input_types = OpenAIModerationInputTypesSerializer()


class ModerationsResponseSerializer(serializers.Serializer[ModerationsResponse]):
    id = serializers.CharField(help_text="modr-<hex>")
    model = serializers.CharField(help_text="The engine's policy version, e.g. nova-moderation-…")
    results = OpenAIModerationResultSerializer(many=True)


# --- OpenAI shape ----------------------------------------------------------------------------

# Intimidation (what the writer knows or will expose of the reader, with pressure) threatens
# serious harm without naming violence: OpenAI's harassment/threatening.
_THREAT_SIGNALS = frozenset(
    {"THREAT", "MILD_THREAT", "TERROR_THREAT", "VIOLENCE_PLANNING", "INTIMIDATION"}
)
_VIOLENT_ILLICIT_SIGNALS = frozenset(
    {"WEAPON_TRADE", "WEAPONS_INSTRUCTIONS", "VIOLENCE_PLANNING", "TERROR_THREAT"}
)
_SELF_HARM_INSTRUCTION_SIGNALS = frozenset({"SELF_HARM_INSTRUCTIONS"})
_GRAPHIC_SIGNALS = frozenset({"GRAPHIC_VIOLENCE", "GORE"})


@dataclass(frozen=True)
class _OpenAIRule:
    sources: tuple[str, ...]  # Nova categories behind it; the score is their highest
    qualifiers: frozenset[str] | None = None  # signals a sub-category also needs
    # Unqualified sub-category: min(first source's score, this Nova category's score), or
    # half the score when None.
    fallback: str | None = None


# How OpenAI's categories are read from Nova's verdict (documented in openai_result).
OPENAI_RULES: dict[str, _OpenAIRule] = {
    "harassment": _OpenAIRule(("HARASSMENT",)),
    "harassment/threatening": _OpenAIRule(
        ("HARASSMENT", "VIOLENCE"), _THREAT_SIGNALS, fallback="VIOLENCE"
    ),
    "hate": _OpenAIRule(("HATE_SPEECH",)),
    "hate/threatening": _OpenAIRule(("HATE_SPEECH",), _THREAT_SIGNALS, fallback="VIOLENCE"),
    "illicit": _OpenAIRule(("ILLEGAL",)),
    "illicit/violent": _OpenAIRule(
        ("ILLEGAL", "EXTREMISM"), _VIOLENT_ILLICIT_SIGNALS | {"EXTREMISM"}, fallback="VIOLENCE"
    ),
    "self-harm": _OpenAIRule(("SELF_HARM",)),
    "self-harm/instructions": _OpenAIRule(
        ("SELF_HARM",), _SELF_HARM_INSTRUCTION_SIGNALS, fallback="ILLEGAL"
    ),
    "self-harm/intent": _OpenAIRule(("SELF_HARM",)),
    "sexual": _OpenAIRule(("SEXUAL", "CHILD_SAFETY")),
    "sexual/minors": _OpenAIRule(("CHILD_SAFETY",)),
    "violence": _OpenAIRule(("VIOLENCE", "EXTREMISM")),
    "violence/graphic": _OpenAIRule(("VIOLENCE",), _GRAPHIC_SIGNALS),
}


def openai_result(verdict: Verdict) -> OpenAIModerationResult:
    """One OpenAI `results[]` entry for a Nova verdict.

    Category map (OpenAI <- Nova):

    ========================  =========================================================
    harassment                HARASSMENT
    harassment/threatening    HARASSMENT or VIOLENCE, with a threat signal (THREAT,
                              MILD_THREAT, TERROR_THREAT, VIOLENCE_PLANNING)
    hate                      HATE_SPEECH
    hate/threatening          HATE_SPEECH with a threat signal
    illicit                   ILLEGAL
    illicit/violent           ILLEGAL with WEAPON_TRADE / WEAPONS_INSTRUCTIONS /
                              VIOLENCE_PLANNING / TERROR_THREAT, or EXTREMISM
    self-harm                 SELF_HARM
    self-harm/intent          SELF_HARM (the engine's self-harm rules are intent rules)
    self-harm/instructions    SELF_HARM with SELF_HARM_INSTRUCTIONS
    sexual                    SEXUAL or CHILD_SAFETY
    sexual/minors             CHILD_SAFETY
    violence                  VIOLENCE or EXTREMISM
    violence/graphic          VIOLENCE with GRAPHIC_VIOLENCE / GORE
    ========================  =========================================================

    PROFANITY, SPAM and PII have no OpenAI counterpart and do not show here (use
    `POST /v1/moderation` for them). A category is true when its Nova category is the
    verdict's category or one of its detected signals, the verdict is DISALLOWED, and any
    qualifying signal is present; `flagged` is true when any category is. A score is the
    highest Nova score behind it. Without its qualifying signal a sub-category's score is the
    lower of its main Nova score and a related one (VIOLENCE for the threatening ones and
    illicit/violent, ILLEGAL for self-harm/instructions), or half of it for violence/graphic,
    so it stays below its parent unless both are high.
    """
    signals = set(verdict.detected_signals) | {verdict.category}
    disallowed = verdict.status == "DISALLOWED"
    scores = {name: float(p) for name, p in verdict.scores.items()}
    categories: dict[str, bool] = {}
    category_scores: dict[str, float] = {}
    for name in OPENAI_CATEGORIES:
        rule = OPENAI_RULES[name]
        score = max(scores.get(source, 0.0) for source in rule.sources)
        qualified = rule.qualifiers is None or bool(rule.qualifiers & signals)
        if not qualified:
            main = scores.get(rule.sources[0], 0.0)
            score = main / 2 if rule.fallback is None else min(main, scores.get(rule.fallback, 0.0))
        categories[name] = disallowed and qualified and any(s in signals for s in rule.sources)
        category_scores[name] = round(min(max(score, 0.0), 1.0), 4)
    return {
        "flagged": any(categories.values()),
        "categories": categories,
        "category_scores": category_scores,
        "category_applied_input_types": {name: ["text"] for name in OPENAI_CATEGORIES},
    }

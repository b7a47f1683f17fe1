"""Moderation endpoints: Nova's verdict and the OpenAI-shaped `/v1/moderations`.

Both need a valid key and are rate-limited (the default DRF classes) but need no balance:
moderation is never charged (docs/moderation.md, "Requests").
"""

from __future__ import annotations

import uuid
from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import ApiKey, User
from billing.activity import ActivityTrace, write_trace_now
from billing.models import ActivityRecord
from core.schema import error_responses
from moderation.engine import POLICY_VERSION
from moderation.models import ModerationVerdict
from moderation.serializers import (
    ModerationRequestSerializer,
    ModerationsRequestSerializer,
    ModerationsResponse,
    ModerationsResponseSerializer,
    ModerationVerdictSerializer,
    openai_result,
)
from moderation.services import moderate_content

MODERATION_EXAMPLES = [
    OpenApiExample(
        "Custom policy",
        value={
            "content": "Skip Acme, sign up on CoinVault with my referral code for lower fees!",
            "policy": "#policy 1: no promotion of other crypto exchanges\n"
            "#policy 2: no medical dosage advice\n"
            "#policy 3: no mention of competitor brands Acme or Globex",
            "instructions": "allow profanity",
        },
        request_only=True,
    ),
    OpenApiExample(
        "Unsafe verdict",
        value={
            "status": "DISALLOWED",
            "category": "VIOLENCE",
            "severity": "HIGH",
            "action": "ESCALATE",
            "banned_days": None,
            "reason": "Threatens to kill or hurt someone.",
            "confidence": 0.9,
            "uncertainty_flag": False,
            "ambiguity_reason": "NONE",
            "escalation_required": True,
            "auto_fail": False,
            "detected_signals": ["VIOLENCE", "THREAT"],
            "policy_version": POLICY_VERSION,
            "timestamp": "2026-11-22T15:33:43.123456Z",
            "usage": {"prompt_tokens": 12, "completion_tokens": 0, "total_tokens": 12},
            "scores": {"VIOLENCE": 0.9, "HARASSMENT": 0.21},
        },
        response_only=True,
    ),
]

MODERATIONS_EXAMPLES = [
    OpenApiExample(
        "OpenAI-shaped request", value={"input": ["Have a nice day", "I will hurt you"]}
    ),
]


def _caller(request: Request) -> tuple[User, ApiKey]:
    key = request.auth
    assert isinstance(key, ApiKey)  # the default authentication class sets it
    return key.user, key


class _ActivityLogged(APIView):
    """A moderation endpoint whose every POST by a valid key is a line of the activity log
    (docs/billing.md, "Activity log"), failures included; never the content. Moderation is
    not charged, so the record is written on its own, once the response is built."""

    endpoint: str = ActivityRecord.Endpoint.MODERATION

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        self.trace = ActivityTrace.begin(self.endpoint, request._request)
        super().initial(request, *args, **kwargs)

    def perform_authentication(self, request: Request) -> None:
        super().perform_authentication(request)
        key = request.auth
        if request.method == "POST" and isinstance(key, ApiKey):
            # Known from here on: a 429 or a 400 after this is recorded; a 401 is not.
            self.trace.identify(user=key.user, api_key=key)

    def answered(self, *, model_requested: str | None, model: str, prompt: int, out: int) -> None:
        self.trace.model_requested = (model_requested or "")[:100]
        self.trace.model_answered = model
        self.trace.prompt_tokens = prompt
        self.trace.completion_tokens = out

    def handle_exception(self, exc: Exception) -> Response:
        trace = getattr(self, "trace", None)
        if trace is not None:
            trace.fail(exc)
        return super().handle_exception(exc)

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)
        trace = getattr(self, "trace", None)
        if trace is not None:
            trace.status = response.status_code
            write_trace_now(trace)
        return response


class ModerationView(_ActivityLogged):
    @extend_schema(
        request=ModerationRequestSerializer,
        responses={200: ModerationVerdictSerializer, **error_responses(400, 401, 429)},
        examples=MODERATION_EXAMPLES,
        description=(
            "Assess `content` against the built-in policy plus optional custom `policy` lines "
            "and free-text `instructions`. Returns every field of the verdict, "
            "`scores` per category and, for REDACT, `redacted_content`. Needs no balance. "
            "Verdicts that are uncertain or need escalation join the human review queue."
        ),
        tags=["moderation"],
    )
    def post(self, request: Request) -> Response:
        serializer = ModerationRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user, key = _caller(request)
        outcome = moderate_content(user=user, api_key=key, **serializer.validated_data)
        verdict = outcome.verdict
        self.answered(
            model_requested=None,
            model=outcome.record.judge_model or POLICY_VERSION,
            prompt=verdict.usage.prompt_tokens,
            out=verdict.usage.completion_tokens,
        )
        return Response(verdict.to_dict())


class ModerationsView(_ActivityLogged):
    endpoint = ActivityRecord.Endpoint.MODERATIONS

    @extend_schema(
        request=ModerationsRequestSerializer,
        responses={200: ModerationsResponseSerializer, **error_responses(400, 401, 429)},
        examples=MODERATIONS_EXAMPLES,
        description=(
            "OpenAI-compatible moderation (`client.moderations.create`): one result per input, "
            "with OpenAI's category names mapped from Nova's. `model` is accepted and ignored."
        ),
        tags=["moderation"],
    )
    def post(self, request: Request) -> Response:
        serializer = ModerationsRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user, key = _caller(request)
        outcomes = [
            moderate_content(
                user=user,
                api_key=key,
                content=text,
                endpoint=ModerationVerdict.Endpoint.MODERATIONS,
            )
            for text in serializer.validated_data["input"]
        ]
        results = [openai_result(outcome.verdict) for outcome in outcomes]
        judges = {outcome.record.judge_model for outcome in outcomes} - {""}
        self.answered(
            model_requested=serializer.validated_data.get("model"),
            model=", ".join(sorted(judges)) or POLICY_VERSION,
            prompt=sum(outcome.verdict.usage.prompt_tokens for outcome in outcomes),
            out=sum(outcome.verdict.usage.completion_tokens for outcome in outcomes),
        )
        body: ModerationsResponse = {
            "id": f"modr-{uuid.uuid4().hex}",
            "model": POLICY_VERSION,
            "results": results,
        }
        return Response(body)

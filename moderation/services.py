"""Moderation writes: assess content, record every verdict, work the review queue."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from accounts.models import ApiKey, User
from core.errors import InvalidRequest
from core.text import storable_text
from moderation.engine import PolicyParseError, Verdict, moderate, parse_policies
from moderation.engine.vocabulary import DECISION_STATE, Decision
from moderation.judge import ask_judge, judge_model, should_judge
from moderation.models import ModerationVerdict, ReviewItem

if TYPE_CHECKING:
    from conversations.models import Conversation


@dataclass(frozen=True)
class ModerationOutcome:
    verdict: Verdict
    record: ModerationVerdict


def moderate_content(
    *,
    user: User,
    api_key: ApiKey | None,
    content: str,
    policy: str | None = None,
    instructions: str | None = None,
    endpoint: str = ModerationVerdict.Endpoint.MODERATION,
) -> ModerationOutcome:
    """Assess `content` with the engine (and the LLM judge when configured), then record it.

    Raises InvalidRequest (param "policy") for a bad policy line. The judge call happens
    outside any transaction; only the recording is atomic.
    """
    try:
        policies = parse_policies(policy) if policy else []
    except PolicyParseError as exc:
        raise InvalidRequest(
            f"policy line {exc.line_number}: {exc.message}", param="policy"
        ) from None
    verdict = moderate(content, policy=policy, instructions=instructions)
    judge_id = ""
    spec = judge_model()
    if spec is not None and should_judge(verdict, policy=policy, instructions=instructions):
        verdict = ask_judge(
            verdict, content=content, policies=policies, instructions=instructions, spec=spec
        )
        judge_id = spec.id
    record = record_verdict(
        user=user,
        api_key=api_key,
        verdict=verdict,
        content=content,
        policy=policy,
        instructions=instructions,
        endpoint=endpoint,
        judge_model=judge_id,
    )
    return ModerationOutcome(verdict=verdict, record=record)


def record_verdict(
    *,
    user: User,
    api_key: ApiKey | None,
    verdict: Verdict,
    content: str,
    policy: str | None = None,
    instructions: str | None = None,
    endpoint: str = ModerationVerdict.Endpoint.MODERATION,
    judge_model: str = "",
    conversation: Conversation | None = None,
) -> ModerationVerdict:
    """Record a verdict without its content; queue it, with the content, when it needs review.

    The content (and the policy and instructions it was judged under) is stored only on the
    ReviewItem, which exists only for verdicts with uncertainty_flag or escalation_required
    (docs/moderation.md, "What is stored"). The record keeps the verdict's values as the
    client received them (confidence, scores and signals of `Verdict.to_dict()`).
    """
    policy_count = len(parse_policies(policy)) if policy else 0
    answered = verdict.to_dict()
    with transaction.atomic():
        record = ModerationVerdict.objects.create(
            user=user,
            api_key=api_key,
            endpoint=endpoint,
            conversation=conversation,
            status=verdict.status,
            category=verdict.category,
            severity=verdict.severity,
            action=verdict.action,
            banned_days=verdict.banned_days,
            confidence=answered["confidence"],
            uncertainty_flag=verdict.uncertainty_flag,
            ambiguity_reason=verdict.ambiguity_reason,
            escalation_required=verdict.escalation_required,
            auto_fail=verdict.auto_fail,
            detected_signals=answered["detected_signals"],
            scores=answered["scores"],
            policy_version=verdict.policy_version,
            custom_policy_count=policy_count,
            judge_model=judge_model,
            prompt_tokens=verdict.usage.prompt_tokens,
            completion_tokens=verdict.usage.completion_tokens,
            created_at=verdict.timestamp,
        )
        if record.needs_review:
            # The content may hold NUL or a lone surrogate, which no database text column
            # takes: the item is still queued, with those characters cleaned.
            ReviewItem.objects.create(
                verdict=record,
                content=storable_text(content),
                policy=storable_text(policy or ""),
                instructions=storable_text(instructions or ""),
                reason=storable_text(verdict.reason),
                created_at=verdict.timestamp,
            )
    return record


def review_item(
    *, item: ReviewItem, reviewer: User, decision: Decision, note: str = ""
) -> ReviewItem:
    """Confirm or overturn a pending review item, recording who decided and when.

    Takes the item's row lock, so two operators deciding at once cannot both win. Raises
    InvalidRequest for an unknown decision or an item that was already decided. An empty
    note keeps the note the item has.
    """
    state = DECISION_STATE.get(decision)
    if state is None:
        raise InvalidRequest("decision must be 'confirm' or 'overturn'.", param="decision")
    with transaction.atomic():
        locked = ReviewItem.objects.select_for_update().get(pk=item.pk)
        if locked.state != ReviewItem.State.PENDING:
            raise InvalidRequest(
                f"Review item {locked.pk} was already {locked.state}.", code="already_reviewed"
            )
        locked.decide(state=state, reviewer=reviewer, note=note or locked.note, at=timezone.now())
        locked.save(update_fields=["state", "reviewer", "reviewed_at", "note"])
    item.refresh_from_db()
    return item

"""`manage.py export_review_queue [--state pending|confirmed|overturned|all] [--format jsonl|csv]`

Writes the moderation review queue to stdout, oldest first: one JSON object per line, or CSV
with a header row. Each row holds the content under review, the verdict and the review.
"""

from __future__ import annotations

import csv
import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from moderation.engine.vocabulary import REVIEW_STATES
from moderation.models import ReviewItem
from moderation.selectors import review_queue

ALL_STATES = "all"


# The keys of every exported row, in order; also the CSV header.
COLUMNS = (
    "id",
    "verdict_id",
    "created_at",
    "user",
    "api_key",
    "endpoint",
    "status",
    "category",
    "severity",
    "action",
    "confidence",
    "uncertainty_flag",
    "ambiguity_reason",
    "escalation_required",
    "auto_fail",
    "detected_signals",
    "policy_version",
    "judge_model",
    "reason",
    "content",
    "policy",
    "instructions",
    "state",
    "reviewer",
    "reviewed_at",
    "note",
)


def _row(item: ReviewItem) -> dict[str, Any]:
    verdict = item.verdict
    return {
        "id": item.pk,
        "verdict_id": verdict.pk,
        "created_at": item.created_at.isoformat(),
        "user": verdict.user.username,
        "api_key": verdict.api_key.prefix if verdict.api_key else None,
        "endpoint": verdict.endpoint,
        "status": verdict.status,
        "category": verdict.category,
        "severity": verdict.severity,
        "action": verdict.action,
        "confidence": verdict.confidence,
        "uncertainty_flag": verdict.uncertainty_flag,
        "ambiguity_reason": verdict.ambiguity_reason,
        "escalation_required": verdict.escalation_required,
        "auto_fail": verdict.auto_fail,
        "detected_signals": list(verdict.detected_signals),
        "policy_version": verdict.policy_version,
        "judge_model": verdict.judge_model or None,
        "reason": item.reason,
        "content": item.content,
        "policy": item.policy or None,
        "instructions": item.instructions or None,
        "state": item.state,
        "reviewer": item.reviewer.username if item.reviewer else None,
        "reviewed_at": item.reviewed_at.isoformat() if item.reviewed_at else None,
        "note": item.note,
    }


class Command(BaseCommand):
    help = "Export the moderation review queue to stdout as JSON lines or CSV."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--state",
            choices=(*REVIEW_STATES, ALL_STATES),
            default=ReviewItem.State.PENDING.value,
            help="Which items (default: pending).",
        )
        parser.add_argument(
            "--format", choices=("jsonl", "csv"), default="jsonl", help="Default: jsonl."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        state = None if options["state"] == ALL_STATES else options["state"]
        items = review_queue(state=state).iterator(chunk_size=500)
        if options["format"] == "jsonl":
            for item in items:
                self.stdout.write(json.dumps(_row(item), ensure_ascii=False))
            return
        writer = csv.DictWriter(self.stdout, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        for item in items:
            row = _row(item)
            row["detected_signals"] = " ".join(row["detected_signals"])
            writer.writerow(row)

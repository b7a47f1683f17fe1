from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from billing.money import DECIMAL_PLACES, MAX_DIGITS, ZERO, money_string


class Balance(models.Model):
    """The user's prepaid balance in USD; changed only by billing services, under a row lock."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="balance"
    )
    amount = models.DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, default=ZERO)
    # The sum of the open holds (requests being generated): a request is admitted only while
    # amount - reserved is positive, so a balance ends at worst one request's hold below zero.
    reserved = models.DecimalField(
        max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, default=ZERO
    )
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        # Plain notation at 8 places: a zero balance reads "0.00000000", never "0E-8".
        return f"Balance of {self.user}: {money_string(self.amount)} USD"


class Hold(models.Model):
    """Credit held for one request from admission until it is charged (a pending charge).

    Placed before generation with the most the request can cost, deleted by the charge that
    settles it (``billing.services.charge_usage``) or by its release when nothing was generated.
    One still open long after its request (the process died in between) is settled by
    ``manage.py settle_holds``: charged from the pending-charge record the process wrote when
    it could not charge, else released.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="holds"
    )
    api_key = models.ForeignKey(
        "accounts.ApiKey", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    model_id = models.CharField(max_length=100)
    persona = models.ForeignKey(
        "personas.Persona", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    amount = models.DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=models.Q(amount__gte=0), name="hold_not_negative")
        ]

    def __str__(self) -> str:
        return f"hold {money_string(self.amount)} USD for {self.model_id}"


class UsageRecord(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="usage_records"
    )
    api_key = models.ForeignKey(
        "accounts.ApiKey", on_delete=models.SET_NULL, null=True, blank=True, related_name="usage"
    )
    model_id = models.CharField(max_length=100)
    persona = models.ForeignKey(
        "personas.Persona", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    conversation = models.ForeignKey(
        "conversations.Conversation",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="usage_records",
    )
    prompt_tokens = models.PositiveIntegerField()
    completion_tokens = models.PositiveIntegerField()
    cost = models.DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES)
    # Set by the charge from billing's clock (billing.windows), the instant its UsageDay is
    # counted on, rather than by auto_now_add, which would read another clock a moment later.
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["user", "-created_at"], name="usage_user_created"),
            models.Index(fields=["api_key", "-created_at"], name="usage_key_created"),
        ]

    def __str__(self) -> str:
        return (
            f"{self.model_id} {self.prompt_tokens}+{self.completion_tokens} = "
            f"{money_string(self.cost)}"
        )

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class UsageDay(models.Model):
    """The usage records of one UTC day, summed per key, model and persona.

    Written by the charge that writes the usage record, in the same transaction and under the
    same balance lock, so the sums always equal the records'. Spend limits, ``GET /v1/key`` and
    the usage API read these rows instead of the records: a window or a year is one row per
    day and group, however many requests it held (docs/billing.md, "Spend per window").

    ``api_key_ref`` and ``persona_ref`` are the ids as they were when charged, 0 for none
    (the playground has no key, general chat no persona): plain numbers rather than foreign
    keys so that the unique key has no NULLs, and a deleted key's or persona's spend stays.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="usage_days"
    )
    day = models.DateField()
    api_key_ref = models.BigIntegerField(default=0)
    model_id = models.CharField(max_length=100)
    persona_ref = models.BigIntegerField(default=0)
    requests = models.PositiveIntegerField(default=0)
    prompt_tokens = models.PositiveBigIntegerField(default=0)
    completion_tokens = models.PositiveBigIntegerField(default=0)
    cost = models.DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, default=ZERO)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "day", "api_key_ref", "model_id", "persona_ref"],
                name="usage_day_unique",
            ),
        ]
        # A user's window: the unique index above. A key's window: this one.
        indexes = [models.Index(fields=["api_key_ref", "day"], name="usage_day_key")]

    def __str__(self) -> str:
        return f"{self.day} {self.model_id}: {self.requests} requests, {self.cost} USD"


class LedgerEntry(models.Model):
    """An immutable movement of money; the entries of a user always sum to the balance."""

    class Kind(models.TextChoices):
        TOPUP = "topup", "Top-up"
        CHARGE = "charge", "Charge"
        ADJUSTMENT = "adjustment", "Adjustment"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ledger_entries"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    amount = models.DecimalField(
        max_digits=MAX_DIGITS,
        decimal_places=DECIMAL_PLACES,
        help_text="Signed: charges are negative.",
    )
    balance_after = models.DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES)
    note = models.CharField(max_length=200, blank=True, default="")
    usage = models.OneToOneField(
        UsageRecord, on_delete=models.PROTECT, null=True, blank=True, related_name="ledger_entry"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "ledger entries"
        indexes = [models.Index(fields=["user", "-created_at"], name="ledger_user_created")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind__in=["topup", "charge", "adjustment"]),
                name="ledger_kind_valid",
            ),
            models.CheckConstraint(
                condition=~models.Q(kind="topup") | models.Q(amount__gt=0),
                name="ledger_topup_positive",
            ),
            models.CheckConstraint(
                condition=~models.Q(kind="charge") | models.Q(amount__lte=0),
                name="ledger_charge_not_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.amount}"


class ActivityRecord(models.Model):
    """One API request of a user's to a model endpoint, kept whatever its outcome (the
    dashboard's Activity log, docs/billing.md, "Activity log"): when, which key, which model,
    how it ended, how long it took, its tokens and cost. Never any message text, whether or not
    the key's Detailed Logging is on.

    A chat's record is written by its charge, in the same statement (PostgreSQL) or transaction
    (``billing.services.charge_usage``); a request that is not charged (it failed before
    generating anything) writes it on its own (``billing.services.record_activity``).
    """

    class Endpoint(models.TextChoices):
        CHAT = "chat", "/v1/chat/completions"
        AGENTS = "agents", "/v1/agents/chat/completions"
        MODERATION = "moderation", "/v1/moderation"
        MODERATIONS = "moderations", "/v1/moderations"
        PLAYGROUND = "playground", "Playground"

    # When the request arrived.
    created_at = models.DateTimeField(default=timezone.now)
    # The (user, created) index below serves this foreign key too.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="activity_records",
        db_index=False,
    )
    # None for the playground (``endpoint``) and once the key is deleted. The (key, created)
    # index serves the key filter and the key's deletion.
    api_key = models.ForeignKey(
        "accounts.ApiKey",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="activity_records",
        db_index=False,
    )
    endpoint = models.CharField(max_length=20, choices=Endpoint.choices)
    # As the request named it ("" when it named none), and the model that answered (a fallback
    # may answer for it; "" when none did).
    model_requested = models.CharField(max_length=100, blank=True, default="")
    model_answered = models.CharField(max_length=100, blank=True, default="")
    persona = models.ForeignKey(
        "personas.Persona", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The status the request ended with: the status line, or for a stream that failed after it
    # was sent, the status of the error event it ended with; 499 when the client left first.
    status = models.PositiveSmallIntegerField()
    # The contract §3 envelope's type and code of a failure ("" for a success).
    error_type = models.CharField(max_length=40, blank=True, default="")
    error_code = models.CharField(max_length=60, blank=True, default="")
    # The chat's finish_reason (stop, length, tool_calls, content_filter); "" when none.
    finish_reason = models.CharField(max_length=20, blank=True, default="")
    latency_ms = models.PositiveIntegerField(default=0)
    prompt_tokens = models.PositiveIntegerField(default=0)
    completion_tokens = models.PositiveIntegerField(default=0)
    cost = models.DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, default=ZERO)
    # The response's X-Request-Id (contract §14).
    request_id = models.CharField(max_length=128, blank=True, default="")
    stream = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["user", "-created_at", "-id"], name="activity_user_created"),
            models.Index(fields=["api_key", "-created_at", "-id"], name="activity_key_created"),
        ]

    def __str__(self) -> str:
        return f"{self.status} {self.model_requested or self.model_answered} {self.request_id}"

    @property
    def failed(self) -> bool:
        return self.status >= 400

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

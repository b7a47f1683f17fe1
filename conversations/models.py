from __future__ import annotations

from django.conf import settings
from django.db import models

from core.models import TimestampedModel

TITLE_MAX_LENGTH = 200
# The history API names conversation 42 "conv_42"; chat responses name it 42.
PUBLIC_ID_PREFIX = "conv_"


class Conversation(TimestampedModel):
    class Mode(models.TextChoices):
        # The labels say where the chat happened, and with a persona or straight with a
        # model (History, the admin); the stored values stay (docs/conversations.md).
        CHAT = "chat", "Playground · model"
        AGENTS = "agents", "Playground · shared persona"
        PERSONAL = "personal", "Playground · your persona"
        API = "api", "API · model"
        API_AGENTS = "api_agents", "API · persona"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="conversations"
    )
    api_key = models.ForeignKey(
        "accounts.ApiKey", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    mode = models.CharField(max_length=20, choices=Mode.choices)
    persona = models.ForeignKey(
        "personas.Persona", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    model_id = models.CharField(max_length=100, blank=True, default="")
    title = models.CharField(max_length=TITLE_MAX_LENGTH, blank=True, default="")

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [
            models.Index(fields=["user", "-updated_at", "-id"], name="conv_user_updated"),
            models.Index(
                fields=["user", "mode", "-updated_at", "-id"], name="conv_user_mode_updated"
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(mode__in=["chat", "agents", "personal", "api", "api_agents"]),
                name="conversation_mode_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"conv_{self.pk}: {self.title}"

    @property
    def public_id(self) -> str:
        return f"{PUBLIC_ID_PREFIX}{self.pk}"


# A chat with a persona continues only a persona conversation, and a chat without one only a
# general conversation (docs/conversations.md, Continuing a conversation).
PERSONA_MODES: tuple[str, ...] = (
    Conversation.Mode.AGENTS,
    Conversation.Mode.PERSONAL,
    Conversation.Mode.API_AGENTS,
)
GENERAL_MODES: tuple[str, ...] = (Conversation.Mode.CHAT, Conversation.Mode.API)


class Message(models.Model):
    class Role(models.TextChoices):
        SYSTEM = "system", "System"
        USER = "user", "User"
        ASSISTANT = "assistant", "Assistant"
        TOOL = "tool", "Tool"

    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="messages"
    )
    role = models.CharField(max_length=20, choices=Role.choices)
    content = models.TextField(blank=True, default="")
    model = models.CharField(max_length=100, blank=True, default="")
    prompt_tokens = models.PositiveIntegerField(null=True, blank=True)
    completion_tokens = models.PositiveIntegerField(null=True, blank=True)
    # An assistant message's tool calls, in OpenAI's shape: [{"id", "type": "function",
    # "function": {"name", "arguments"}}]; null on every other message and on an assistant
    # message that called no tool.
    tool_calls = models.JSONField(null=True, blank=True)
    # A tool message's answer to one of those calls; "" on every other message. Text, not a
    # bounded CharField: the id is the client's or the upstream's, and replaying it must match.
    tool_call_id = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["conversation", "id"], name="message_conv_id")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(role__in=["system", "user", "assistant", "tool"]),
                name="message_role_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.role}: {self.content[:40]}"

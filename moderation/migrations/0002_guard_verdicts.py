import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("conversations", "0002_message_tool_calls"),
        ("moderation", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="moderationverdict",
            name="conversation",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="moderation_verdicts",
                to="conversations.conversation",
            ),
        ),
        migrations.AlterField(
            model_name="moderationverdict",
            name="endpoint",
            field=models.CharField(
                choices=[
                    ("moderation", "POST /v1/moderation"),
                    ("moderations", "POST /v1/moderations (OpenAI shape)"),
                    ("chat_input", "Chat guard: the user's message"),
                    ("chat_output", "Chat guard: the reply"),
                ],
                max_length=20,
            ),
        ),
    ]

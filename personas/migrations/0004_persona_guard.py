from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("personas", "0003_persona_revision"),
    ]

    operations = [
        migrations.AddField(
            model_name="persona",
            name="guard",
            field=models.CharField(
                choices=[
                    ("off", "Off"),
                    ("input", "Input (the user's latest message)"),
                    ("output", "Output (the reply, streams included)"),
                    ("both", "Input and output"),
                ],
                default="off",
                help_text="Moderate chats: the user's latest message (input), the reply "
                "(output), or both (docs/moderation.md, Chat guard).",
                max_length=10,
            ),
        ),
        migrations.AddConstraint(
            model_name="persona",
            constraint=models.CheckConstraint(
                condition=models.Q(("guard__in", ["off", "input", "output", "both"])),
                name="persona_guard_valid",
            ),
        ),
    ]

from decimal import Decimal

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models
from django.db.models import Count, Sum
from django.db.models.functions import Coalesce, TruncDate


def sum_existing_usage(apps, schema_editor):
    """One UsageDay row per day, key, model and persona of the usage records already stored."""
    UsageRecord = apps.get_model("billing", "UsageRecord")
    UsageDay = apps.get_model("billing", "UsageDay")
    rows = (
        UsageRecord.objects.using(schema_editor.connection.alias)
        .annotate(
            day=TruncDate("created_at"),
            key_ref=Coalesce("api_key_id", 0),
            persona_ref_=Coalesce("persona_id", 0),
        )
        .values("user_id", "day", "key_ref", "model_id", "persona_ref_")
        .annotate(
            n=Count("id"),
            prompt=Sum("prompt_tokens"),
            completion=Sum("completion_tokens"),
            total=Sum("cost"),
        )
        .order_by()
    )
    UsageDay.objects.using(schema_editor.connection.alias).bulk_create(
        (
            UsageDay(
                user_id=row["user_id"],
                day=row["day"],
                api_key_ref=row["key_ref"],
                model_id=row["model_id"],
                persona_ref=row["persona_ref_"],
                requests=row["n"],
                prompt_tokens=row["prompt"],
                completion_tokens=row["completion"],
                cost=Decimal(row["total"]).quantize(Decimal("0.00000001")),
            )
            for row in rows.iterator()
        ),
        batch_size=1000,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("billing", "0002_holds"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="UsageDay",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("day", models.DateField()),
                ("api_key_ref", models.BigIntegerField(default=0)),
                ("model_id", models.CharField(max_length=100)),
                ("persona_ref", models.BigIntegerField(default=0)),
                ("requests", models.PositiveIntegerField(default=0)),
                ("prompt_tokens", models.PositiveBigIntegerField(default=0)),
                ("completion_tokens", models.PositiveBigIntegerField(default=0)),
                (
                    "cost",
                    models.DecimalField(decimal_places=8, default=Decimal("0E-8"), max_digits=20),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="usage_days",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "indexes": [models.Index(fields=["api_key_ref", "day"], name="usage_day_key")],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("user", "day", "api_key_ref", "model_id", "persona_ref"),
                        name="usage_day_unique",
                    )
                ],
            },
        ),
        migrations.AlterField(
            model_name="usagerecord",
            name="created_at",
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
        migrations.AddIndex(
            model_name="usagerecord",
            index=models.Index(fields=["api_key", "-created_at"], name="usage_key_created"),
        ),
        migrations.RunPython(sum_existing_usage, migrations.RunPython.noop),
    ]

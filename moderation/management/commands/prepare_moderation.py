"""Build the moderation encoder's int8 graph now rather than on the first request.

    python manage.py prepare_moderation

`make run` calls it. The graph is built from the installed weights into ENCODER_CACHE_DIR
(`var/cache`) in a few seconds, once per machine; when it is there, this does nothing more than
load it.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from moderation.engine import encoder


class Command(BaseCommand):
    help = "Build (once) and load the moderation encoder's int8 graph."

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.monotonic()
        path = encoder.prepare()
        self.stdout.write(f"Moderation encoder ready: {path} ({time.monotonic() - started:.1f} s)")

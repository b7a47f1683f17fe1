"""ASGI entry point served by daphne: HTTP (including SSE streams) through Channels."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402  (needs the app registry ready)

application = ProtocolTypeRouter({"http": django_asgi_app})

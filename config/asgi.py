"""ASGI entry point served by daphne: HTTP (including SSE streams) through Channels."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

# Imported after the app registry is ready.
from channels.routing import ProtocolTypeRouter  # noqa: E402

from chat.gateway import ChatGateway  # noqa: E402
from config.server import install_protocol  # noqa: E402
from llm.catalog import validate_catalog_or_exit  # noqa: E402

# daphne imports this module before it builds its server: from here on it parses HTTP with
# config.server, which answers what Twisted refuses (oversized or malformed requests) with
# the JSON error envelope instead of a dropped connection or an HTML page.
install_protocol()

# System checks do not run under daphne: a bad catalog stops the server here, at start-up,
# instead of failing requests later (docs/api.md, Models and providers).
validate_catalog_or_exit()

# Chat-completion POSTs skip Django's request cycle (chat/gateway.py); the rest is Django's.
application = ProtocolTypeRouter({"http": ChatGateway(django_asgi_app)})

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts.urls import web_urls as accounts_web_urls
from billing.urls import api_urls as billing_api_urls
from billing.urls import web_urls as billing_web_urls
from chat.models_page import models_page
from chat.urls import api_urls as chat_api_urls
from chat.urls import web_urls as chat_web_urls
from conversations.urls import api_urls as conversations_api_urls
from conversations.urls import web_urls as conversations_web_urls
from core import views as core_views
from moderation.urls import api_urls as moderation_api_urls
from personas.urls import api_urls as personas_api_urls
from personas.urls import web_urls as personas_web_urls

v1_urls = [*personas_api_urls, *chat_api_urls, *moderation_api_urls, *billing_api_urls]

urlpatterns = [
    path("healthz", core_views.healthz, name="healthz"),
    path("favicon.ico", core_views.favicon, name="favicon"),
    path("readyz", core_views.readyz, name="readyz"),
    re_path(r"^api/schema/?\Z", SpectacularAPIView.as_view(), name="schema"),
    re_path(r"^api/docs/?\Z", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="docs"),
    # Every API resource under both prefixes (docs/api.md, Endpoints).
    path("v1/", include(v1_urls)),
    path("api/v1/", include(v1_urls)),
    path("nova-api/v1/", include(conversations_api_urls)),
    path("api/nova-api/v1/", include(conversations_api_urls)),
    # Anything else under an API prefix is a JSON 404, key or no key; "(?s:.*)" and "\Z" so
    # that a path with a newline in it (".../completions%0A") is one too.
    re_path(r"^(?:api|v1|nova-api)(?:/(?s:.*))?\Z", core_views.api_not_found),
    path("admin/", admin.site.urls),
    path("", include((accounts_web_urls, "accounts"))),
    path("", include((billing_web_urls, "billing"))),
    path("personas/", include((personas_web_urls, "personas"))),
    path("", include((chat_web_urls, "chat"))),
    path("conversations/", include((conversations_web_urls, "conversations"))),
    path("models/", models_page, name="models"),
]

handler400 = "core.views.handler400"
handler404 = "core.views.handler404"
handler500 = "core.views.handler500"

"""The real URLconf plus probe views that fail the way a lost database connection does."""

from __future__ import annotations

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.urls import path
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.urls import urlpatterns as real_urlpatterns

DB_ERRORS: dict[str, type[Exception]] = {
    "operational": OperationalError,
    "interface": InterfaceError,
}
LEAKY = "connection to server at 127.0.0.1 port 5432 failed: password for nova-secret"


class DatabaseDownView(APIView):
    """A DRF view: the error reaches core.errors.exception_handler."""

    authentication_classes: list[type] = []
    permission_classes: list[type] = []

    def get(self, request: Request, kind: str) -> Response:
        raise DB_ERRORS[kind](LEAKY)


async def async_database_down(request: HttpRequest, kind: str) -> HttpResponse:
    """A plain async view (like streaming chat): the error reaches the middleware."""
    raise DB_ERRORS[kind](LEAKY)


def plain_database_down(request: HttpRequest, kind: str) -> HttpResponse:
    raise DB_ERRORS[kind](LEAKY)


urlpatterns = [
    path("v1/_faults/drf/<str:kind>", DatabaseDownView.as_view()),
    path("v1/_faults/plain/<str:kind>", plain_database_down),
    path("v1/_faults/async/<str:kind>", async_database_down),
    path("_faults/page/<str:kind>", plain_database_down),
    *real_urlpatterns,
]

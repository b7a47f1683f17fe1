"""The real URLconf plus a few probe views, so error paths can be exercised end to end."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.urls import urlpatterns as real_urlpatterns
from core import errors

ERRORS = {
    402: errors.InsufficientQuota("Your balance is too low."),
    403: errors.PermissionDenied("Not yours."),
    502: errors.UpstreamError("The model provider returned HTTP 500."),
    503: errors.ServiceUnavailable("Database unavailable."),
    504: errors.UpstreamTimeout("The model provider timed out."),
}


class WhoAmIView(APIView):
    def get(self, request: Request) -> Response:
        return Response({"username": request.user.username})

    def post(self, request: Request) -> Response:
        return Response({"received": request.data})


class BoomView(APIView):
    def get(self, request: Request) -> Response:
        raise RuntimeError("secret internals: /etc/passwd")


class RaiseView(APIView):
    def get(self, request: Request, status: int) -> Response:
        raise ERRORS[status]


def plain_boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("secret internals in a plain view")


urlpatterns = [
    path("v1/_probe/whoami", WhoAmIView.as_view()),
    path("v1/_probe/boom", BoomView.as_view()),
    path("v1/_probe/raise/<int:status>", RaiseView.as_view()),
    path("v1/_probe/plain-boom", plain_boom),
    *real_urlpatterns,
]

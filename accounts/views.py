from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from billing.selectors import get_balance


@login_required
def home(request: HttpRequest) -> HttpResponse:
    keys = request.user.api_keys.all()  # type: ignore[union-attr]
    return render(
        request,
        "accounts/home.html",
        {"balance": get_balance(request.user), "keys": keys},  # type: ignore[arg-type]
    )

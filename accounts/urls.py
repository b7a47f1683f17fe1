from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, path

from accounts import views

web_urls: list[URLPattern | URLResolver] = [
    path("", views.home, name="home"),
    path("login/", auth_views.LoginView.as_view(template_name="accounts/login.html"), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("signup/", views.signup, name="signup"),
    path("keys/", views.keys, name="keys"),
    path("keys/new/", views.key_create, name="key_create"),
    path("keys/<int:key_id>/", views.key_detail, name="key_detail"),
    path("keys/<int:key_id>/limit/", views.key_set_limit, name="key_set_limit"),
    path("keys/<int:key_id>/guard/", views.key_set_guard, name="key_set_guard"),
    path(
        "keys/<int:key_id>/revoke/confirm/",
        views.key_revoke_confirm,
        name="key_revoke_confirm",
    ),
    path("keys/<int:key_id>/revoke/", views.key_revoke, name="key_revoke"),
    path("keys/<int:key_id>/logging/", views.key_set_logging, name="key_set_logging"),
    path("keys/<int:key_id>/rate-limit/", views.key_set_rate_limit, name="key_set_rate_limit"),
]

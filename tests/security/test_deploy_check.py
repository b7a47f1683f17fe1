"""Security pass: `manage.py check --deploy` is clean with production settings."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def _check_deploy(*extra: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(48)[:60],
        "ALLOWED_HOSTS": "nova.example.com",
    }
    env.pop("SECURE_SSL_REDIRECT", None)
    env.pop("SECURE_HSTS_SECONDS", None)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING", *extra],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_deploy_security_checks_are_clean_with_production_settings() -> None:
    result = _check_deploy("--tag", "security")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
    assert "WARNING" not in result.stderr


def test_whole_deploy_check_is_clean_with_production_settings() -> None:
    result = _check_deploy()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
    assert "WARNING" not in result.stderr


def test_production_settings_refuse_the_development_secret_key() -> None:
    env = {**os.environ, "DEBUG": "false", "ALLOWED_HOSTS": "nova.example.com"}
    env.pop("SECRET_KEY", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr

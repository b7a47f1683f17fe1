from __future__ import annotations

import importlib

import pytest
from django.apps import apps


@pytest.fixture
def builtin_personas(db: None) -> None:
    # A transactional test elsewhere in the run flushes the tables, data migration included.
    migration = importlib.import_module("personas.migrations.0002_builtin_personas")
    migration.seed_builtin_personas(apps, None)


@pytest.fixture(params=["/v1", "/api/v1"])
def prefix(request: pytest.FixtureRequest) -> str:
    """Both mounts of the API."""
    return str(request.param)


@pytest.fixture(params=["", "/"])
def slash(request: pytest.FixtureRequest) -> str:
    """Every route answers with and without a trailing slash."""
    return str(request.param)

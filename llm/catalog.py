"""The model catalog: which models exist, who serves them and what they cost.

The catalog is a TOML file read once per process; its format and rules are in docs/api.md,
Models and providers. It is validated as a whole at start-up (``manage.py check`` through
:func:`check_catalog`, the ASGI server through :func:`validate_catalog_or_exit`), so a bad entry
stops the server instead of failing a request later. Every error names the file, the entry and
the field.
"""

from __future__ import annotations

import functools
import math
import os
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Literal

from django.conf import settings
from django.core.checks import CheckMessage, Error

__all__ = [
    "Catalog",
    "CatalogError",
    "ModelSpec",
    "check_catalog",
    "get_catalog",
    "load_catalog",
    "reset_catalog_cache",
    "validate_catalog_or_exit",
]

PROVIDERS = ("local", "openai")
_PER_MTOK = Decimal(1_000_000)


class CatalogError(ValueError):
    """A catalog file that cannot be used; the message names the file, entry and field."""


@dataclass(frozen=True)
class ModelSpec:
    id: str
    provider: Literal["local", "openai"]
    base_url: str | None
    api_key_env: str | None
    upstream_model: str
    context_window: int
    input_price_per_mtok: Decimal
    output_price_per_mtok: Decimal
    vision: bool
    reasoning: bool
    connect_timeout: float = 5.0
    read_timeout: float = 60.0
    description: str = ""
    # Whether the model takes `tools` / a non-text `response_format`; a request that needs
    # what the model lacks is refused (400), never sent without it.
    tools: bool = False
    structured_outputs: bool = False
    # OpenAI's model-object fields: who serves it, and when it entered the catalog (Unix time).
    owned_by: str = "nova"
    created: int = 0

    def price(self, prompt_tokens: int, completion_tokens: int) -> Decimal:
        """USD for this usage at the catalog prices, exact: billing rounds it to money
        (``billing.money.usage_cost``)."""
        return (
            Decimal(prompt_tokens) * self.input_price_per_mtok
            + Decimal(completion_tokens) * self.output_price_per_mtok
        ) / _PER_MTOK

    def api_key(self) -> str | None:
        """The upstream key from the environment, read per call so a rotated key is picked up."""
        if not self.api_key_env:
            return None
        return os.environ.get(self.api_key_env) or None


class Catalog:
    """The models in file order, looked up by id.

    Iterating yields the ModelSpecs themselves (what ``GET /v1/models`` and the dashboard
    pickers need); ``in``, ``[]`` and :meth:`get` take a model id.
    """

    def __init__(self, models: list[ModelSpec]) -> None:
        self._models: dict[str, ModelSpec] = {model.id: model for model in models}

    def get(self, model_id: str) -> ModelSpec | None:
        return self._models.get(model_id)

    def __getitem__(self, model_id: str) -> ModelSpec:
        return self._models[model_id]

    def __contains__(self, model_id: object) -> bool:
        return model_id in self._models

    def __iter__(self) -> Iterator[ModelSpec]:
        return iter(self._models.values())

    def __len__(self) -> int:
        return len(self._models)

    def ids(self) -> list[str]:
        return list(self._models)

    def choices(self) -> list[tuple[str, str]]:
        """(id, label) pairs for a Django ChoiceField."""
        return [
            (model.id, f"{model.id} – {model.description}" if model.description else model.id)
            for model in self
        ]

    def __repr__(self) -> str:
        return f"Catalog({self.ids()!r})"


_FIELDS = {
    "id",
    "provider",
    "base_url",
    "api_key_env",
    "upstream_model",
    "context_window",
    "input_price_per_mtok",
    "output_price_per_mtok",
    "vision",
    "reasoning",
    "connect_timeout",
    "read_timeout",
    "description",
    "tools",
    "structured_outputs",
    "owned_by",
    "created",
}
_REQUIRED = ("id", "provider", "context_window", "input_price_per_mtok", "output_price_per_mtok")


def _display_path(path: Path) -> str:
    # Relative to the working directory when possible: "config/models.toml" reads better in a
    # start-up error than an absolute path, and says the same thing.
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


class _Entry:
    """Reads and checks the fields of one [[models]] table, with errors that say where."""

    def __init__(self, file: str, index: int, table: dict[str, Any]) -> None:
        self.file = file
        self.index = index
        self.table = table
        raw_id = table.get("id")
        self.where = f"models[{index}]"
        if isinstance(raw_id, str) and raw_id:
            self.where += f' (id "{raw_id}")'

    def error(self, field: str, problem: str) -> CatalogError:
        return CatalogError(f'{self.file}: {self.where}: field "{field}" {problem}')

    def string(self, field: str, *, default: str | None = None) -> str | None:
        value = self.table.get(field, default)
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            raise self.error(field, "must be a non-empty string")
        if value != value.strip():
            raise self.error(field, "must not start or end with whitespace")
        return value

    def text(self, field: str) -> str:
        value = self.table.get(field, "")
        if not isinstance(value, str):
            raise self.error(field, "must be a string")
        return value.strip()

    def boolean(self, field: str, *, default: bool) -> bool:
        value = self.table.get(field, default)
        if not isinstance(value, bool):
            raise self.error(field, "must be true or false")
        return value

    def positive_int(self, field: str) -> int:
        value = self.table.get(field)
        # bool is an int subclass: `context_window = true` must not read as 1.
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise self.error(field, "must be a positive integer")
        return value

    def non_negative_int(self, field: str, *, default: int) -> int:
        value = self.table.get(field, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise self.error(field, "must be a whole number, at least 0")
        return value

    def positive_number(self, field: str, *, default: float) -> float:
        value = self.table.get(field, default)
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
            or value <= 0
        ):
            raise self.error(field, "must be a positive number of seconds")
        return float(value)

    def price(self, field: str) -> Decimal:
        value = self.table.get(field)
        problem = 'must be a decimal string such as "1.50" or a number, at least 0'
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise self.error(field, problem)
        try:
            # str() first: a TOML float 0.1 must become Decimal("0.1"), not its binary expansion.
            price = Decimal(str(value).strip())
        except InvalidOperation:
            raise self.error(field, problem) from None
        if not price.is_finite() or price < 0:
            raise self.error(field, problem)
        return price


def _parse_entry(file: str, index: int, table: Any) -> ModelSpec:
    if not isinstance(table, dict):
        raise CatalogError(f"{file}: models[{index}]: must be a table ([[models]])")
    entry = _Entry(file, index, table)
    for field in table:
        if field not in _FIELDS:
            raise entry.error(field, "is not a known field")
    for field in _REQUIRED:
        if field not in table:
            raise entry.error(field, "is required")

    model_id = entry.string("id")
    assert model_id is not None  # required above
    provider = table["provider"]
    if provider not in PROVIDERS:
        raise entry.error("provider", 'must be "local" or "openai"')
    base_url = entry.string("base_url")
    api_key_env = entry.string("api_key_env")
    if provider == "openai":
        if base_url is None:
            raise entry.error("base_url", 'is required when provider is "openai"')
        if not base_url.startswith(("http://", "https://")):
            raise entry.error("base_url", "must be an http:// or https:// URL")
        # Requests go to f"{base_url}/chat/completions": drop a trailing slash once, here.
        base_url = base_url.rstrip("/")
    else:
        # The embedded model talks to nothing; a URL or key here is a mistake worth reporting.
        for field in ("base_url", "api_key_env"):
            if field in table:
                raise entry.error(field, 'is only used when provider is "openai"')

    upstream_model = entry.string("upstream_model", default=model_id)
    assert upstream_model is not None
    return ModelSpec(
        id=model_id,
        provider=provider,
        base_url=base_url,
        api_key_env=api_key_env,
        upstream_model=upstream_model,
        context_window=entry.positive_int("context_window"),
        input_price_per_mtok=entry.price("input_price_per_mtok"),
        output_price_per_mtok=entry.price("output_price_per_mtok"),
        vision=entry.boolean("vision", default=False),
        reasoning=entry.boolean("reasoning", default=False),
        connect_timeout=entry.positive_number("connect_timeout", default=5.0),
        read_timeout=entry.positive_number("read_timeout", default=60.0),
        description=entry.text("description"),
        # An OpenAI-compatible server takes tools and response formats unless told otherwise;
        # the embedded model takes neither.
        tools=entry.boolean("tools", default=provider == "openai"),
        structured_outputs=entry.boolean("structured_outputs", default=provider == "openai"),
        owned_by=entry.string("owned_by", default="nova") or "nova",
        created=entry.non_negative_int("created", default=0),
    )


def load_catalog(path: Path) -> Catalog:
    """Read and validate a catalog file; raise CatalogError naming the file, entry and field."""
    path = Path(path)
    file = _display_path(path)
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        raise CatalogError(f"{file}: file not found (MODELS_FILE)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CatalogError(f"{file}: cannot be read: {exc.__class__.__name__}") from None
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"{file}: not valid TOML: {exc}") from None

    for key in data:
        if key != "models":
            raise CatalogError(f'{file}: unknown top-level key "{key}" (expected [[models]])')
    tables = data.get("models")
    if not isinstance(tables, list) or not tables:
        raise CatalogError(f"{file}: must list at least one model as [[models]]")

    models: list[ModelSpec] = []
    seen: dict[str, int] = {}
    for index, table in enumerate(tables):
        model = _parse_entry(file, index, table)
        if model.id in seen:
            raise CatalogError(
                f'{file}: models[{index}] (id "{model.id}"): field "id" duplicates '
                f"models[{seen[model.id]}]"
            )
        seen[model.id] = index
        models.append(model)
    return Catalog(models)


@functools.cache
def _cached_catalog(path: Path) -> Catalog:
    return load_catalog(path)


def get_catalog() -> Catalog:
    """The catalog of ``settings.MODELS_FILE``, loaded once per process and path."""
    return _cached_catalog(Path(settings.MODELS_FILE))


def reset_catalog_cache() -> None:
    """Forget loaded catalogs (tests that rewrite a file or switch MODELS_FILE)."""
    _cached_catalog.cache_clear()


def check_catalog(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """Django system check: a bad catalog fails ``manage.py check`` and ``migrate``."""
    try:
        get_catalog()
    except CatalogError as exc:
        return [
            Error(
                str(exc),
                hint="Fix the model catalog (MODELS_FILE); see config/models.example.toml.",
                id="nova.E001",
            )
        ]
    return []


def validate_catalog_or_exit() -> None:
    """Refuse to serve with a bad catalog: daphne imports config.asgi, which calls this.

    System checks do not run under daphne, so the ASGI module validates the catalog itself
    and exits with the error instead of failing requests later.
    """
    try:
        get_catalog()
    except CatalogError as exc:
        sys.stderr.write(f"Nova cannot start: {exc}\n")
        sys.stderr.flush()
        raise SystemExit(1) from None

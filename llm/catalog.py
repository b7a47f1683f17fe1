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
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from django.conf import settings
from django.core.checks import CheckMessage, Error

__all__ = [
    "Catalog",
    "CatalogError",
    "Deployment",
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
class Deployment:
    """One server of a model (``[[models.deployments]]``, or the model's own ``base_url``)."""

    base_url: str | None
    api_key_env: str | None
    upstream_model: str
    weight: float = 1.0
    # Requests / tokens per minute this deployment may take; None: no limit.
    rpm: int | None = None
    tpm: int | None = None

    @property
    def name(self) -> str:
        """What logs and ``models_status`` call it: host and port, never a key (a user:password
        in the URL is left out)."""
        if self.base_url is None:
            return "local"
        parts = urlsplit(self.base_url)
        host = parts.hostname or "?"
        return f"{host}:{parts.port}" if parts.port else host


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
    # Routing (docs/api.md, Models and providers). ``deployments`` is empty for a model served by
    # its own base_url; a model that lists deployments has the first one's base_url, key and
    # upstream_model above, so code that calls its provider directly still reaches a server.
    deployments: tuple[Deployment, ...] = ()
    retries: int = 2
    allowed_fails: int = 3
    cooldown_seconds: float = 30.0
    fallbacks: tuple[str, ...] = ()

    @functools.cached_property
    def routes(self) -> tuple[tuple[Deployment, ModelSpec], ...]:
        """Each deployment with the ModelSpec that reaches it (``get_provider`` and the upstream
        payload read base_url, api_key_env and upstream_model from it).

        Computed once per spec (a frozen dataclass keeps ``cached_property`` values in its
        ``__dict__``, outside equality and hashing)."""
        if not self.deployments:
            own = Deployment(self.base_url, self.api_key_env, self.upstream_model)
            return ((own, self),)
        return tuple(
            (
                deployment,
                replace(
                    self,
                    base_url=deployment.base_url,
                    api_key_env=deployment.api_key_env,
                    upstream_model=deployment.upstream_model,
                    deployments=(),
                    fallbacks=(),
                ),
            )
            for deployment in self.deployments
        )

    @functools.cached_property
    def routed(self) -> bool:
        """Whether a request has a choice to make: several deployments or a fallback. A model
        with one deployment and no fallback goes straight to it, with no shared health state."""
        return len(self.deployments) > 1 or bool(self.fallbacks)

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
    "deployments",
    "retries",
    "allowed_fails",
    "cooldown_seconds",
    "fallbacks",
}
_DEPLOYMENT_FIELDS = {"base_url", "api_key_env", "upstream_model", "weight", "rpm", "tpm"}
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
        # Names a field of a nested table in errors: "deployments[1].base_url".
        self.prefix = ""
        if isinstance(raw_id, str) and raw_id:
            self.where += f' (id "{raw_id}")'

    def error(self, field: str, problem: str) -> CatalogError:
        return CatalogError(f'{self.file}: {self.where}: field "{self.prefix}{field}" {problem}')

    def optional_positive_int(self, field: str) -> int | None:
        if self.table.get(field) is None:
            return None
        return self.positive_int(field)

    def weight(self, field: str) -> float:
        value = self.table.get(field, 1)
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
            or value <= 0
        ):
            raise self.error(field, "must be a positive number")
        return float(value)

    def url(self, field: str) -> str:
        base_url = self.string(field)
        if base_url is None:
            raise self.error(field, "is required")
        if not base_url.startswith(("http://", "https://")):
            raise self.error(field, "must be an http:// or https:// URL")
        # Requests go to f"{base_url}/chat/completions": drop a trailing slash once, here.
        return base_url.rstrip("/")

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
    upstream_model = entry.string("upstream_model", default=model_id)
    assert upstream_model is not None
    api_key_env = entry.string("api_key_env")
    deployments = _parse_deployments(entry, upstream_model, api_key_env)
    base_url: str | None = None
    if deployments:
        if "base_url" in table:
            raise entry.error("base_url", "cannot be given with [[models.deployments]]")
        # The first deployment stands for the model where one server is needed (a direct
        # provider call such as the moderation judge's).
        first = deployments[0]
        base_url, api_key_env, upstream_model = (
            first.base_url,
            first.api_key_env,
            first.upstream_model,
        )
    elif provider == "openai":
        if "base_url" not in table:
            raise entry.error("base_url", 'is required when provider is "openai"')
        base_url = entry.url("base_url")
    else:
        # The embedded model talks to nothing; a URL or key here is a mistake worth reporting.
        for field in ("base_url", "api_key_env"):
            if field in table:
                raise entry.error(field, 'is only used when provider is "openai"')

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
        deployments=deployments,
        retries=entry.non_negative_int("retries", default=2),
        allowed_fails=entry.positive_int("allowed_fails") if "allowed_fails" in table else 3,
        cooldown_seconds=entry.positive_number("cooldown_seconds", default=30.0),
        fallbacks=_parse_fallbacks(entry, model_id),
    )


def _parse_deployments(
    entry: _Entry, upstream_model: str, api_key_env: str | None
) -> tuple[Deployment, ...]:
    """``[[models.deployments]]``: each inherits the model's upstream_model and api_key_env."""
    if "deployments" not in entry.table:
        return ()
    tables = entry.table["deployments"]
    if not isinstance(tables, list) or not tables:
        raise entry.error("deployments", "must list at least one [[models.deployments]] table")
    if entry.table["provider"] != "openai":
        raise entry.error("deployments", 'is only used when provider is "openai"')
    deployments = []
    for index, table in enumerate(tables):
        if not isinstance(table, dict):
            raise entry.error(f"deployments[{index}]", "must be a table ([[models.deployments]])")
        sub = _Entry(entry.file, entry.index, table)
        sub.where = entry.where
        sub.prefix = f"deployments[{index}]."
        for field in table:
            if field not in _DEPLOYMENT_FIELDS:
                raise sub.error(field, "is not a known field")
        deployment_model = sub.string("upstream_model", default=upstream_model)
        assert deployment_model is not None
        deployments.append(
            Deployment(
                base_url=sub.url("base_url"),
                api_key_env=sub.string("api_key_env", default=api_key_env),
                upstream_model=deployment_model,
                weight=sub.weight("weight"),
                rpm=sub.optional_positive_int("rpm"),
                tpm=sub.optional_positive_int("tpm"),
            )
        )
    return tuple(deployments)


def _parse_fallbacks(entry: _Entry, model_id: str) -> tuple[str, ...]:
    """The ids only; that each names another catalog model is checked once all are read."""
    value = entry.table.get("fallbacks", [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise entry.error("fallbacks", "must be a list of model ids")
    if model_id in value:
        raise entry.error("fallbacks", "must not name the model itself")
    if len(set(value)) != len(value):
        raise entry.error("fallbacks", "names a model twice")
    return tuple(value)


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
    for index, model in enumerate(models):
        for position, fallback in enumerate(model.fallbacks):
            if fallback not in seen:
                raise CatalogError(
                    f'{file}: models[{index}] (id "{model.id}"): field "fallbacks" names '
                    f'"{fallback}" (fallbacks[{position}]), which is not in the catalog'
                )
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

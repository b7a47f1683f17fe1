"""Nova settings: one file, every deployment difference comes from the environment."""

from __future__ import annotations

from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()

# --- Core ---
DEBUG = env.bool("DEBUG", default=True)
# With DEBUG on, Django's own error pages (the URL list of a 404, the traceback of a 500) for
# the dashboard only when this is on too; otherwise the styled 404 and 500 pages
# (core.errorpages). API paths answer with the JSON error envelope either way.
DEBUG_PAGES = env.bool("DEBUG_PAGES", default=False)
_DEV_SECRET_KEY = "django-insecure-nova-development-key-do-not-use-in-production"
SECRET_KEY = env.str("SECRET_KEY", default=_DEV_SECRET_KEY)
if not DEBUG and (SECRET_KEY == _DEV_SECRET_KEY or len(SECRET_KEY) < 50):
    raise ImproperlyConfigured("SECRET_KEY must be set (50+ characters) when DEBUG is off")
ALLOWED_HOSTS: list[str] = env.list(
    "ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"]
)
CSRF_FAILURE_VIEW = "core.views.csrf_failure"
CSRF_TRUSTED_ORIGINS: list[str] = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "axes",
    "core",
    "accounts",
    "billing",
    "personas",
    "llm",
    "chat",
    "conversations",
    "moderation",
]

# Every request, the chat completions served by chat.gateway included (core.middleware,
# EdgeChain): hooks only, no I/O. A middleware that must apply to the API goes here.
EDGE_MIDDLEWARE = [
    # First: the X-Request-Id of every response, the answers of the middleware below included.
    "core.middleware.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.common.CommonMiddleware",  # the Host check
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "core.middleware.ApiErrorMiddleware",
]
# The browser site: pages, forms, the dashboard's session login.
SITE_MIDDLEWARE = [
    "core.middleware.StaticFilesMiddleware",  # WhiteNoise, async-capable
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "csp.middleware.CSPMiddleware",
    "axes.middleware.AxesMiddleware",
    # Last: the styled 404 and 500 pages for the dashboard while DEBUG is on.
    "core.errorpages.ErrorPagesMiddleware",
]
MIDDLEWARE = [*EDGE_MIDDLEWARE, *SITE_MIDDLEWARE]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = None
ASGI_APPLICATION = "config.asgi.application"
APPEND_SLASH = False

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database ---
# The connection pool of each process (PostgreSQL only; 0 turns it off).
DB_POOL_MAX_SIZE = env.int("DB_POOL_MAX_SIZE", default=16)
DB_POOL_MIN_SIZE = env.int("DB_POOL_MIN_SIZE", default=2)
DB_POOL_TIMEOUT = env.float("DB_POOL_TIMEOUT", default=10.0)
if DB_POOL_MAX_SIZE < 0 or DB_POOL_MIN_SIZE < 0 or DB_POOL_TIMEOUT <= 0:
    raise ImproperlyConfigured(
        "DB_POOL_MAX_SIZE and DB_POOL_MIN_SIZE must be >= 0 and DB_POOL_TIMEOUT > 0"
    )
DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'nova.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite serialises writers; wait for the lock instead of failing under concurrent requests.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        # BEGIN IMMEDIATE takes the write lock up front, so two money movements cannot both
        # read a balance and then deadlock upgrading their locks.
        {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    )
    # A file, not memory, so tests can start real server processes on the test database.
    _sqlite_file = Path(DATABASES["default"]["NAME"])
    DATABASES["default"]["TEST"] = {
        "NAME": str(_sqlite_file.with_name(f"test_{_sqlite_file.name}"))
    }
else:
    # Under ASGI every sync request runs on a thread of its own, so a persistent connection
    # would be left behind per request: close them at request end (with the pool: hand them
    # back). The chat hot path keeps its own long-lived connections on a few threads, outside
    # the pool (core/asyncdb.py).
    _conn_max_age = env.int("CONN_MAX_AGE", default=0)
    if DB_POOL_MAX_SIZE:
        # Every sync request of the process shares at most DB_POOL_MAX_SIZE connections and
        # waits up to DB_POOL_TIMEOUT for one (then a 503): any number of concurrent requests
        # cannot exhaust PostgreSQL's max_connections.
        if _conn_max_age:
            raise ImproperlyConfigured(
                "CONN_MAX_AGE must be 0 while the connection pool is on (DB_POOL_MAX_SIZE > 0)"
            )
        if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
            # Django's backend, with a pool that answers at once while the database is down.
            DATABASES["default"]["ENGINE"] = "core.postgresql"
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "name": "nova",
            "min_size": min(DB_POOL_MIN_SIZE, DB_POOL_MAX_SIZE),
            "max_size": DB_POOL_MAX_SIZE,
            "timeout": DB_POOL_TIMEOUT,
            # After an outage the pool retries with a doubling delay until this gives up, and
            # only then does the next request start a new attempt: with psycopg's 300 s, Nova
            # came back 22 s after a 40 s PostgreSQL outage ended; with 5 s, 0.6 s.
            "reconnect_timeout": 5.0,
        }
    DATABASES["default"].setdefault("CONN_MAX_AGE", _conn_max_age)
    DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# Request bodies above this are refused with a 413 envelope. Chat requests carry images as
# base64 data URLs, so the limit is well above Django's 2.5 MB default.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("MAX_REQUEST_BYTES", default=20 * 1024 * 1024)
# Chats the database could not charge wait here, as files, until they are (chat/pipeline.py).
PENDING_CHARGES_DIR = env.path("PENDING_CHARGES_DIR", default=VAR_DIR / "pending-charges")

# --- Cache and channel layer ---
REDIS_URL: str | None = env.str("REDIS_URL", default=None) or None
# Seconds: connect and read timeout of every cache call; after a failure the request path
# skips the cache for REDIS_BREAKER_SECONDS, then probes it again.
REDIS_TIMEOUT = env.float("REDIS_TIMEOUT", default=0.25)
REDIS_BREAKER_SECONDS = env.float("REDIS_BREAKER_SECONDS", default=5.0)
if REDIS_TIMEOUT <= 0 or REDIS_BREAKER_SECONDS <= 0:
    raise ImproperlyConfigured("REDIS_TIMEOUT and REDIS_BREAKER_SECONDS must be positive")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env.str("CACHE_KEY_PREFIX", default="nova"),
            # Short: a hung Redis must cost a request no more than this (and then the
            # breaker, REDIS_BREAKER_SECONDS, makes requests skip it: core.sharedcache).
            "OPTIONS": {"socket_connect_timeout": REDIS_TIMEOUT, "socket_timeout": REDIS_TIMEOUT},
        }
    }
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # No read timeout: the layer's receive is a blocking pop. No HTTP request uses it.
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_connect_timeout": REDIS_TIMEOUT}]},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# --- Auth ---
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "accounts:home"
LOGOUT_REDIRECT_URL = "accounts:login"
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_ENABLED = env.bool("AXES_ENABLED", default=True)
# The lock-out page: styled, with how long the lock lasts and a way back.
AXES_LOCKOUT_CALLABLE = "core.views.lockout"

# --- Security ---
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "style-src": ["'self'"],
        "script-src": ["'self'"],
        "connect-src": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'self'"],
    }
}

# --- Internationalisation ---
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files (served by the app itself: no CDN) ---
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "var" / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = DEBUG

# --- API ---
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["accounts.auth.ApiKeyAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_THROTTLE_CLASSES": ["accounts.auth.ApiKeyRateThrottle"],
    "DEFAULT_PARSER_CLASSES": ["core.parsers.BoundedJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "core.errors.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Nova API",
    "DESCRIPTION": "Persona chat, moderation, conversation history and billing.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "SERVE_AUTHENTICATION": [],
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    # reasoning.effort and the legacy reasoning_effort share one set of values.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "core.schema.add_common_error_responses",
    ],
    "ENUM_NAME_OVERRIDES": {
        "ReasoningEffortEnum": "chat.serializers.REASONING_EFFORTS",
        "ToolTypeEnum": "chat.serializers.TOOL_TYPES",
        "ResponseFormatTypeEnum": "chat.serializers.RESPONSE_FORMATS",
    },
}
API_KEY_HASH_SECRET: str = env.str("API_KEY_HASH_SECRET", default=SECRET_KEY)
DEFAULT_RPM_LIMIT = env.int("DEFAULT_RPM_LIMIT", default=60)
# Caps on what a user may give themselves: a key's requests per minute (the limiter also caps
# keys stored above it) and the number of active keys per user.
MAX_KEY_RPM = env.int("MAX_KEY_RPM", default=600)
MAX_KEYS_PER_USER = env.int("MAX_KEYS_PER_USER", default=20)
if not 1 <= DEFAULT_RPM_LIMIT <= MAX_KEY_RPM or MAX_KEYS_PER_USER < 1:
    raise ImproperlyConfigured(
        "Need 1 <= DEFAULT_RPM_LIMIT <= MAX_KEY_RPM and MAX_KEYS_PER_USER >= 1"
    )

# --- Credits ---
# Shown next to a zero or low balance and with "insufficient balance" errors on the dashboard.
CREDITS_CONTACT: str = env.str(
    "CREDITS_CONTACT",
    default="To add credit, ask the operator of this Nova to top up your balance.",
)

# --- Models ---
MODELS_FILE = Path(env.str("MODELS_FILE", default=str(BASE_DIR / "config" / "models.toml")))
MODERATION_MODEL: str | None = env.str("MODERATION_MODEL", default=None) or None

# --- Logging ---
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Every line names the request it was written for (core.requestid), "-" outside one.
    "filters": {"request_id": {"()": "core.requestid.RequestIdFilter"}},
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"}
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["request_id"],
        }
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        "django.request": {"level": "ERROR"},
        "daphne": {"level": "WARNING"},
        "httpx": {"level": "WARNING"},
        "axes": {"level": "WARNING"},
        # The pool logs every checkout and return at INFO.
        "psycopg.pool": {"level": "WARNING"},
    },
}

"""Talon's one settings file, driven by environment variables.

Each variable is read through a small typed helper that fails loudly on a bad value, so a typo in production
stops the start instead of silently running with a default.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import urllib.parse
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

# Lets the admin's classes take the model as a type argument at run time (ModelAdmin[Evening]), as mypy reads them.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r}: expected one of {sorted(_TRUE | _FALSE - {''})}")


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r}: expected a whole number") from None


def env_cache(name: str) -> dict[str, str]:
    """CACHE_URL: redis://host:port/db (or rediss://, unix://) for Django's Redis cache, shared by every process;
    unset or empty for an in-memory cache per process."""
    url = os.environ.get(name, "").strip()
    if not url:
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    if url.split("://", 1)[0] in {"redis", "rediss", "unix"}:
        return {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}
    raise ImproperlyConfigured(f"{name}={url!r}: expected redis://host:port/db, or nothing for a per-process cache")


def env_email(name: str) -> dict[str, Any]:
    """EMAIL_URL: how mail leaves Talon (password resets, e-mail confirmations), as Django's EMAIL_* settings.

    smtp://user:password@host:port sends through that server; ``?tls`` adds STARTTLS (usually port 587), ``?ssl``
    a TLS connection from the start (usually 465); the user and password may be left out, and percent-encoded
    (``%40`` for an @). Unset or empty: the console (mail is printed, never sent), as with DEBUG. docs/deploy.md.
    """
    url = os.environ.get(name, "").strip()
    if not url:
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    parts = urllib.parse.urlsplit(url)
    options = urllib.parse.parse_qs(parts.query, keep_blank_values=True)
    unknown = set(options) - {"tls", "ssl"}
    if parts.scheme != "smtp" or not parts.hostname or unknown or {"tls", "ssl"} <= set(options):
        raise ImproperlyConfigured(f"{name}: expected smtp://user:password@host:port, with ?tls or ?ssl at most")
    try:
        port = parts.port or (465 if "ssl" in options else 587 if "tls" in options else 25)
    except ValueError:
        raise ImproperlyConfigured(f"{name}: the port is not a number") from None
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": port,
        "EMAIL_HOST_USER": urllib.parse.unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": urllib.parse.unquote(parts.password or ""),
        "EMAIL_USE_TLS": "tls" in options,
        "EMAIL_USE_SSL": "ssl" in options,
    }


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env_str("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY is required when DEBUG is off (make run sets DEBUG=1)")
    SECRET_KEY = "insecure-dev-key-only-for-debug"  # noqa: S105 - only ever used with DEBUG on
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    # Accounts (ledger/accounts): sign-up, log-in by name or e-mail, password reset, passkeys. No social log-in.
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "django.contrib.humanize",  # allauth's list of passkeys says when each was last used ("2 hours ago")
    "ledger",
    "ledger.offline",
    "ledger.live",
    "ledger.circles",
    "ledger.stats",
    "ledger.tournaments",
    "ledger.accounts",
    "ledger.people",
    "ledger.invitations",
    "ledger.devices",
    "ledger.seats",
    "ledger.confirmations",
    "ledger.signatures",
    "ledger.demo",
]

MIDDLEWARE = [
    "ledger.boundary.RequestIdMiddleware",  # first: every log line of the request carries its id
    "ledger.boundary.NulMiddleware",  # before anything reads the path, the cookies or the headers
    "ledger.boundary.FormCharsetMiddleware",  # before anything reads a form body (the CSRF check, the 400 page)
    "django.middleware.security.SecurityMiddleware",
    "ledger.middleware.ContentSecurityPolicyMiddleware",
    "ledger.middleware.PrivateNoStoreMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "allauth.account.middleware.AccountMiddleware",  # allauth's log-in steps (a passkey's) and its redirects
    "ledger.tournaments.table_guest.TableGuestMiddleware",  # a tournament table's phone reaches its table only
    "ledger.middleware.LanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns the answer to a log-in refused by the limit into a 429 (ledger/auth.py).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

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
                "ledger.accounts.context_processors.account_link",  # the shell's link to the account page
            ],
        },
    },
]

# SQLite by default (no set-up): a file in the checkout, waiting on a busy lock instead of failing, and taking
# the write lock at the start of each transaction so two scorekeepers never deadlock on an upgrade.
_SQLITE_DEFAULT = f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
# CONN_MAX_AGE: seconds a worker keeps its database connection; config/asgi.py sets 0 (Django's advice under ASGI,
# where each request runs its database work on a thread of its own).
DATABASES = {
    "default": dj_database_url.parse(env_str("DATABASE_URL", _SQLITE_DEFAULT), conn_max_age=env_int("CONN_MAX_AGE", 60))
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # Write-ahead log: readers never wait for the writer, and a commit appends to the log instead of rewriting
    # the database file and its journal (synchronous=NORMAL: durable at each checkpoint, never corrupt; a power
    # cut may lose the last commits, never the file). Backups use SQLite's own backup (docs/backup.md).
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Accounts (django-allauth; ledger/accounts, docs/user-guide.md): a user name and a password, or a user name and a
# passkey, is enough to play; an e-mail address is optional, confirmed when given, and is what a forgotten password
# is reset through. Log-in by user name or e-mail; log-out by POST only.
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_PRESERVE_USERNAME_CASING = False  # "Alice" and "alice" are one account, as the log-in limits count them
ACCOUNT_USERNAME_VALIDATORS = "ledger.accounts.validators.username_validators"  # Django's, and no "deleted-…"
ACCOUNT_LOGOUT_ON_GET = False
ACCOUNT_LOGOUT_REDIRECT_URL = LOGOUT_REDIRECT_URL
ACCOUNT_FORMS = {"login": "ledger.accounts.forms.LoginForm", "signup": "ledger.accounts.forms.SignupForm"}
ACCOUNT_ADAPTER = "ledger.accounts.adapter.AccountAdapter"  # a name held by a sign-up left half-way is free again
# Wrong passwords are counted by the log-in limits below (ledger/auth.py), which never lock the owner out; allauth's
# own count per name would. Its other limits (sign-ups, reset mails, password changes) stay.
ACCOUNT_RATE_LIMITS = {"login": None, "login_failed": None}
# Passkeys (WebAuthn) to log in without a password; ledger/accounts signs up with one (allauth's own passkey sign-up
# demands a confirmed e-mail address). No one-time codes from an app and no recovery codes: a passkey or a password.
MFA_SUPPORTED_TYPES = ["webauthn"]
MFA_PASSKEY_LOGIN_ENABLED = True
MFA_WEBAUTHN_USER_VERIFICATION = "required"

# Mail: the console with DEBUG (or without EMAIL_URL), else through EMAIL_URL (env_email above, docs/deploy.md).
_MAIL = env_email("EMAIL_URL") if not DEBUG else {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
EMAIL_BACKEND = _MAIL["EMAIL_BACKEND"]
EMAIL_HOST = _MAIL.get("EMAIL_HOST", "localhost")
EMAIL_PORT = _MAIL.get("EMAIL_PORT", 25)
EMAIL_HOST_USER = _MAIL.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = _MAIL.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = _MAIL.get("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = _MAIL.get("EMAIL_USE_SSL", False)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Talon <talon@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

LANGUAGE_CODE = "en"
LANGUAGES = [("cs", "Čeština"), ("sk", "Slovenčina"), ("de", "Deutsch"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "Europe/Prague")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT: Path | None = BASE_DIR / "staticfiles"  # None: nothing collected (tests/settings.py)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# Tests and `make run` serve static files straight from the finders; production runs collectstatic.
WHITENOISE_USE_FINDERS = DEBUG

# The JSON API (ledger/api/, docs/api.md). Token first, so a caller without credentials is told 401 and how to
# authenticate; the browser's session works too (with its CSRF check).
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # DRF's JSON, refusing what nothing behind the parser could handle (ledger/api/json_bodies.py).
    "DEFAULT_RENDERER_CLASSES": ["ledger.api.json_bodies.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["ledger.api.json_bodies.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "ledger.api.method_routes.AutoSchema",
    "EXCEPTION_HANDLER": "ledger.api.errors.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Talon API",
    "DESCRIPTION": "Score-keeping and settlement for Mariáš, Šnapser and Skat. Walk-through: docs/api.md.",
    "VERSION": "1",
    "SCHEMA_PATH_PREFIX": "/api/",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_PATCH": False,  # a correction sends the whole hand and its version, never a part
    # A path with one APIView per method (``by_method``) is one operation per method.
    "PREPROCESSING_HOOKS": ["ledger.api.method_routes.split_method_routes"],
    "ENUM_NAME_OVERRIDES": {
        "EveningStatusEnum": "ledger.models.Evening.Status",
        "HandStatusEnum": "ledger.models.Hand.Status",
        "TournamentStatusEnum": "ledger.tournaments.models.Tournament.Status",
        "CircleEntryKindEnum": "ledger.circles.models.CircleEntry.Kind",
        "InviteLinkKindEnum": "ledger.invitations.models.InviteLink.Kind",
    },
    # The docs page's scripts come from the drf-spectacular-sidecar package: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --------------------------------------------------------------------------------------------------------------
# Hardening when DEBUG is off (`manage.py check --deploy` is clean with SECRET_KEY and ALLOWED_HOSTS set).
# Behind a TLS-terminating proxy set SECURE_PROXY_SSL_HEADER=1 so Django trusts X-Forwarded-Proto.
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE  # every cookie the app sets: the language one too
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = True  # htmx sends the token from hx-headers, never reads the cookie
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 60 * 60 * 24 * 30)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
# Joining the browsers' HSTS preload list cannot be undone quickly: an operator opts in, the checks don't nag.
SILENCED_SYSTEM_CHECKS = ["security.W021"]
if env_bool("SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Served by ledger.middleware.ContentSecurityPolicyMiddleware: no inline scripts or styles anywhere.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
    "base-uri 'self'; form-action 'self'; frame-ancestors 'none'; "
    # Said outright, not left to default-src and script-src: the web app's manifest and service worker (/sw.js).
    "manifest-src 'self'; worker-src 'self'"
)
# Failed log-ins (ledger/auth.py, on django-axes): at most LOGIN_RATE_LIMIT attempts with a wrong password per user
# name and client address together in LOGIN_RATE_WINDOW seconds (from the first), and LOGIN_RATE_ADDRESS_LIMIT per
# address whatever the names; after that the address is refused, even with the right password, until the window
# ends. Guessing from elsewhere never locks the owner out. Every password goes through authenticate (the log-in
# page by user name or e-mail, re-authentication, the admin); a passkey checks none; the API takes tokens only.
# Behind LOGIN_RATE_PROXIES trusted proxies (nginx: 1) the client address is read from the right of X-Forwarded-For;
# otherwise every client would share the proxy's address and its counter.
AUTHENTICATION_BACKENDS = ["ledger.auth.LoginLimitBackend"]
LOGIN_RATE_LIMIT = env_int("LOGIN_RATE_LIMIT", 5)
LOGIN_RATE_ADDRESS_LIMIT = env_int("LOGIN_RATE_ADDRESS_LIMIT", 30)
LOGIN_RATE_WINDOW = env_int("LOGIN_RATE_WINDOW", 15 * 60)
LOGIN_RATE_PROXIES = env_int("LOGIN_RATE_PROXIES", 0)
# Per account, whatever the addresses (a guesser with many): past LOGIN_RATE_ACCOUNT_LIMIT attempts in the window,
# one password is checked every LOGIN_RATE_ACCOUNT_SPACING seconds at most; an attempt sooner is refused (429) with
# the seconds to wait. It slows guessing to a crawl without locking the owner out: they get in after a short wait.
LOGIN_RATE_ACCOUNT_LIMIT = env_int("LOGIN_RATE_ACCOUNT_LIMIT", 10)
LOGIN_RATE_ACCOUNT_SPACING = env_int("LOGIN_RATE_ACCOUNT_SPACING", 30)
# Addresses that many people share (a club's Wi-Fi behind one NAT address; addresses or networks, comma-separated):
# their per-address limit is LOGIN_RATE_SHARED_ADDRESS_LIMIT, so one member's typos do not lock out the room; each
# name from there still has its own limit, and each account its own.
LOGIN_RATE_SHARED_ADDRESSES = env_list("LOGIN_RATE_SHARED_ADDRESSES", [])
for _network in LOGIN_RATE_SHARED_ADDRESSES:
    try:  # a wrong entry stops the start, not every log-in later (ledger.auth reads them as networks)
        ipaddress.ip_network(_network, strict=False)
    except ValueError as error:
        raise ImproperlyConfigured(f"LOGIN_RATE_SHARED_ADDRESSES: {error}") from None
LOGIN_RATE_SHARED_ADDRESS_LIMIT = env_int("LOGIN_RATE_SHARED_ADDRESS_LIMIT", 300)
AXES_HANDLER = "ledger.auth.AttemptHandler"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_USERNAME_FORM_FIELD = "login"  # allauth's log-in form: a user name or an e-mail address (ledger.auth.login_name)
AXES_FAILURE_LIMIT = LOGIN_RATE_LIMIT
AXES_COOLOFF_TIME = datetime.timedelta(seconds=LOGIN_RATE_WINDOW)
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # the window runs from the first failure, not the last
AXES_USERNAME_CALLABLE = "ledger.auth.login_name"
AXES_CLIENT_IP_CALLABLE = "ledger.auth.client_address"
AXES_LOCKOUT_CALLABLE = "ledger.auth.lockout_response"
AXES_ENABLE_ADMIN = False  # the counters live in the cache: axes's database tables stay empty
AXES_VERBOSE = False
# The cache carries the log-in counters. One process: the in-memory cache is enough. Several app servers or
# gunicorn workers: set CACHE_URL=redis://127.0.0.1:6379/0 so that they all count together. If Redis stops
# answering, each process counts on its own until it is back (ledger/auth.py).
CACHES = {"default": env_cache("CACHE_URL")}
# Server push (ledger/live/fanout.py: live share pages and standings): PUSH_URL=redis://host:port/db fans a message out
# to the viewers of every app process through Redis pub/sub. Unset: the cache's Redis when CACHE_URL is one;
# empty (PUSH_URL=) or no Redis at all: viewers hear only of changes made in their own process.
PUSH_URL = os.environ.get("PUSH_URL", CACHES["default"].get("LOCATION", "")).strip()
if PUSH_URL and PUSH_URL.split("://", 1)[0] not in {"redis", "rediss", "unix"}:
    raise ImproperlyConfigured(f"PUSH_URL={PUSH_URL!r}: expected redis://host:port/db, or nothing for one process")
# Live lines (…/stream/) open at once in one ASGI process: per client address (read as the log-in limiter reads it,
# LOGIN_RATE_PROXIES) and in all; past either the answer is 429 with Retry-After. A club room's phones often share
# one address (the venue's Wi-Fi): the per-client limit stays above a room's viewers. docs/deploy.md.
STREAM_LIMIT_PER_CLIENT = env_int("STREAM_LIMIT_PER_CLIENT", 600)
STREAM_LIMIT_TOTAL = env_int("STREAM_LIMIT_TOTAL", 3000)
# Statistics (ledger/stats): "request" takes each hand into the summaries after its answer, in the same worker;
# "job" leaves that to `manage.py stats_catch_up --loop`, a process of its own (docs/deploy.md).
STATS_CATCH_UP = env_str("STATS_CATCH_UP", "request")
if STATS_CATCH_UP not in {"request", "job"}:
    raise ImproperlyConfigured(f"STATS_CATCH_UP={STATS_CATCH_UP!r}: expected request or job")
# Wrong table codes (ledger/seats) one client address may type within the window before lookups answer 429.
SEAT_CODE_GUESSES = env_int("SEAT_CODE_GUESSES", 60)
SEAT_CODE_WINDOW = env_int("SEAT_CODE_WINDOW", 600)

# Web Push (ledger/devices/push.py): notifications to the phones that opted in ("Hand #9 needs your OK"), signed with
# the server's VAPID key pair. Make one with `python manage.py vapid_keys` (docs/deploy.md) and keep it: phones
# subscribed with the public key, and a new pair leaves every subscription unusable. WEBPUSH_SUBJECT is how a push
# service reaches the site's operator (mailto: or https:). With no keys set, push is off: no opt-in button anywhere,
# and nothing is sent.
WEBPUSH_VAPID_PUBLIC_KEY = env_str("WEBPUSH_VAPID_PUBLIC_KEY", "").strip()
WEBPUSH_VAPID_PRIVATE_KEY = env_str("WEBPUSH_VAPID_PRIVATE_KEY", "").strip()
WEBPUSH_SUBJECT = env_str("WEBPUSH_SUBJECT", "").strip()
if bool(WEBPUSH_VAPID_PUBLIC_KEY) != bool(WEBPUSH_VAPID_PRIVATE_KEY):
    raise ImproperlyConfigured("WEBPUSH_VAPID_PUBLIC_KEY and WEBPUSH_VAPID_PRIVATE_KEY: set both (push on) or neither")
if WEBPUSH_VAPID_PRIVATE_KEY and not WEBPUSH_SUBJECT:
    raise ImproperlyConfigured("WEBPUSH_SUBJECT: expected mailto:you@example.org or an https:// address with the keys")

# --------------------------------------------------------------------------------------------------------------
# Logging: everything goes to stderr, in every configuration (gunicorn's error log, the terminal of `make run`),
# DEBUG on or off. Django's own default sends errors only to the console with DEBUG on and otherwise mails them to
# ADMINS, so a 500 in production left no trace: here `django.request` errors (every 500, with its traceback) reach
# the root logger's handler. Each line carries the request id (ledger/boundary.py). LOG_LEVEL: WARNING by default
# (errors, and the 4xx answers django.request notes as warnings); INFO or DEBUG say more. docs/development.md.
LOG_LEVEL = env_str("LOG_LEVEL", "WARNING").upper()
if LOG_LEVEL not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
    raise ImproperlyConfigured(f"LOG_LEVEL={LOG_LEVEL!r}: expected DEBUG, INFO, WARNING, ERROR or CRITICAL")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "ledger.boundary.RequestIdFilter"}},
    "formatters": {
        "line": {"format": "%(asctime)s %(levelname)s %(name)s [request %(request_id)s] %(message)s"},
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "filters": ["request_id"],
            "formatter": "line",
        },
    },
    "root": {"handlers": ["stderr"], "level": LOG_LEVEL},
    # Django's default handlers for "django" (console only with DEBUG on, mail to ADMINS) give way to the root's.
    "loggers": {"django": {"handlers": [], "level": LOG_LEVEL, "propagate": True}},
}

"""The installable web app around the table page: its manifest, its service worker and the page shown offline.

The worker's script is ``static/js/sw.js``; it is served from the site's root (``/sw.js``) because a worker controls
only the paths under its own, and the table pages are not under ``/static/``. This view writes into it the app
shell's URLs (hashed names in production) and a version: a hash of the files it precaches, so a release that changes
any of them installs a new worker, which drops the caches of the old one.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import get_template
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

WORKER_SOURCE = "js/sw.js"
# The script `{% htmx_script %}` puts on every page (django-htmx's vendored htmx 2); tests/ledger/offline/test_pwa.py
# checks the tag still names it, so an upgrade of django-htmx that moves it cannot leave the shell without htmx.
HTMX = "django_htmx/htmx-2.min.js"
ICONS = {"192": "img/icon-192.png", "512": "img/icon-512.png", "maskable": "img/icon-maskable-512.png"}
# The static files every page needs, cached when the worker installs: a page opened offline draws with them.
SHELL_STATIC = ("css/talon.css", "js/talon.js", "js/pwa.js", HTMX, "img/talon.svg", *ICONS.values())
# Templates the offline page is drawn from: a change to them is a change to the shell.
SHELL_TEMPLATES = ("base.html", "ledger/offline/offline.html")
# talon.css's light theme: --accent (the top bar) and --bg (the page).
THEME_COLOR = "#14532d"
BACKGROUND_COLOR = "#f6f4ee"

# Placeholders in static/js/sw.js, each a valid JavaScript value so the file stays valid as it is stored.
VERSION_MARK = '"__TALON_VERSION__"'
SHELL_MARK = '["__TALON_SHELL__"]'
OFFLINE_MARK = '"__TALON_OFFLINE__"'
PYODIDE_MARK = '"__TALON_PYODIDE__"'
# Pyodide (13 MB, put there by .ci/pyodide with its version in VERSION): kept in a cache of its own, named by its
# version, so that a release of Talon does not make every phone download it again.
PYODIDE_DIR = "vendor/pyodide"


@require_safe
def web_manifest(request: HttpRequest) -> HttpResponse:
    icon = {"type": "image/png"}
    manifest = {
        "id": "/",
        "name": "Talon",
        "short_name": "Talon",
        "description": _("Score and settle Mariáš, Šnapser and Skat at the card table."),
        "lang": translation.get_language(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [
            {**icon, "src": static(ICONS["192"]), "sizes": "192x192", "purpose": "any"},
            {**icon, "src": static(ICONS["512"]), "sizes": "512x512", "purpose": "any"},
            {**icon, "src": static(ICONS["maskable"]), "sizes": "512x512", "purpose": "maskable"},
        ],
    }
    response = HttpResponse(json.dumps(manifest, ensure_ascii=False), content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(_worker_script(), content_type="text/javascript; charset=utf-8")
    # The browser checks for a new worker on every navigation; it must never be handed a stale one.
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def offline_page(request: HttpRequest) -> HttpResponse:
    """What a navigation shows when the network is gone and the page was never opened on this phone.

    The worker keeps one copy for everybody who uses the phone, so it is drawn as for a stranger: no name in the top
    bar, no evening, no table.
    """
    response = render(request, "ledger/offline/offline.html", {"user": AnonymousUser()})
    response["Cache-Control"] = "no-cache"
    return response


def shell_urls() -> list[str]:
    """What the worker caches when it installs: the shell's static files, the manifest and the offline page."""
    return [static(path) for path in SHELL_STATIC] + [reverse("web_manifest"), reverse("offline")]


def worker_version() -> str:
    """A hash of the worker, the shell it precaches and every file of our static/: a new release, a new version.

    Every file, not only the shell's: the worker answers any /static/ file from its cache, and a URL does not always
    change with its file's content (`make run` and the tests serve plain names; Pyodide asks for its files by name).
    """
    digest = hashlib.sha256()
    for path in (WORKER_SOURCE, *SHELL_STATIC):
        digest.update(path.encode())
        digest.update(_static_bytes(path))
    for name in SHELL_TEMPLATES:
        digest.update(Path(str(get_template(name).origin.name)).read_bytes())  # type: ignore[attr-defined]
    digest.update("\n".join(shell_urls()).encode())
    for root, file in _own_static_files():
        if file.is_relative_to(root / PYODIDE_DIR):
            continue  # its own cache, named by its version (pyodide_version)
        stat = file.stat()
        digest.update(str(file.relative_to(root)).encode())
        digest.update(_file_digest(str(file), stat.st_mtime_ns, stat.st_size))
    return digest.hexdigest()[:16]


def _own_static_files() -> list[tuple[Path, Path]]:
    roots = [Path(entry[1] if isinstance(entry, tuple) else entry) for entry in settings.STATICFILES_DIRS]
    return [(root, file) for root in roots for file in sorted(root.rglob("*")) if file.is_file()]


@cache
def _file_digest(path: str, mtime_ns: int, size: int) -> bytes:
    """A file's content hash, read again only when the file changed (with DEBUG the version is asked often)."""
    with open(path, "rb") as file:
        return hashlib.file_digest(file, "sha256").digest()


def _worker_script() -> str:
    # Computed once per process; with DEBUG (`make run`) on every request, so an edited file reaches the phone.
    return _render_worker() if settings.DEBUG else _cached_worker()


@cache
def _cached_worker() -> str:
    return _render_worker()


def _render_worker() -> str:
    source = _static_bytes(WORKER_SOURCE).decode()
    for mark in (VERSION_MARK, SHELL_MARK, OFFLINE_MARK, PYODIDE_MARK):
        if mark not in source:
            raise RuntimeError(f"{WORKER_SOURCE} lost its placeholder {mark}")
    return (
        source.replace(VERSION_MARK, json.dumps(worker_version()))
        .replace(SHELL_MARK, json.dumps(shell_urls()))
        .replace(OFFLINE_MARK, json.dumps(reverse("offline")))
        .replace(PYODIDE_MARK, json.dumps(pyodide_version()))
    )


def pyodide_version() -> str:
    """The vendored Pyodide's version (``static/vendor/pyodide/VERSION``), or "missing" before ``make install``."""
    found = finders.find(f"{PYODIDE_DIR}/VERSION")
    return Path(found).read_text().strip() if isinstance(found, str) else "missing"


def _static_bytes(path: str) -> bytes:
    found = finders.find(path)
    if not isinstance(found, str):
        raise FileNotFoundError(f"static file {path} is missing")
    return Path(found).read_bytes()

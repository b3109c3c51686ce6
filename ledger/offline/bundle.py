"""The zip the offline worker unpacks into Pyodide: Django (the parts forms and templates need), the ``rules``
package, the hand forms and ``ledger/offline/pricing.py``, the templates they draw and the translations.

Built from the files this server runs, once per process, so the browser prices with exactly the server's code.
Its name carries a digest of what it holds (``bundle_name``): the service worker keeps it for good, and a new
release is a new name. The digest is cheap (the project's own files and the installed versions of Django, asgiref
and sqlparse); the zip itself is built only when a browser asks for it.
"""

from __future__ import annotations

import hashlib
import io
import threading
import zipfile
from collections.abc import Iterator
from functools import cache
from importlib import metadata
from pathlib import Path

import asgiref
import django
import sqlparse
from django.conf import settings

LANGUAGES = ("cs", "sk", "de", "en")
# What ledger/offline/pricing.py imports of the ledger, and the templates it draws (with what they include), under
# templates/ledger/.
LEDGER_FILES = (
    "ledger/__init__.py",
    "ledger/offline/__init__.py",
    "ledger/offline/pricing.py",
    "ledger/offline/boot.py",
    "ledger/scoreboard.py",
    "ledger/templatetags/__init__.py",
    "ledger/templatetags/talon.py",
)
TEMPLATES = (
    "_hand_form.html",
    "_hand_field.html",
    "_field_typed.html",
    "_field_notes.html",
    "_record_buttons.html",
    "_scoreboard.html",
    "offline/_offline_queue.html",
    "_next_dealer.html",
)
# Django's parts that forms and templates never import: left out to keep the download small.
DJANGO_LEFT_OUT = ("contrib", "test", "bin", "db/backends/mysql", "db/backends/oracle", "db/backends/postgresql")


def _project_files() -> Iterator[tuple[str, Path]]:
    base = Path(settings.BASE_DIR)
    for name in LEDGER_FILES:
        yield name, base / name
    for path in sorted((base / "ledger" / "hand_forms").glob("*.py")):
        yield f"ledger/hand_forms/{path.name}", path
    for path in sorted((base / "rules").rglob("*.py")):  # the games' packages (rules/skat/, ...) too
        if "__pycache__" not in path.parts:
            yield path.relative_to(base).as_posix(), path
    for language in LANGUAGES:
        yield (
            f"rules/locale/{language}/LC_MESSAGES/rules.mo",
            base / "rules" / "locale" / language / "LC_MESSAGES" / "rules.mo",
        )
        yield f"locale/{language}/LC_MESSAGES/django.mo", base / "locale" / language / "LC_MESSAGES" / "django.mo"
    for name in TEMPLATES:
        yield f"templates/ledger/{name}", base / "templates" / "ledger" / name


def _package_files(package: Path, left_out: tuple[str, ...] = ()) -> Iterator[tuple[str, Path]]:
    for path in sorted(package.rglob("*")):
        relative = path.relative_to(package).as_posix()
        if not path.is_file() or "__pycache__" in path.parts or relative.startswith(left_out):
            continue
        if relative.startswith("conf/locale/"):
            language = relative.split("/")[2]
            if language not in LANGUAGES and language != "__init__.py":
                continue
        if path.suffix in (".py", ".mo", ".html", ".txt", ".json") or path.name == "py.typed":
            yield f"{package.name}/{relative}", path


def _files() -> Iterator[tuple[str, Path]]:
    yield from _project_files()
    yield from _package_files(Path(django.__file__).parent, DJANGO_LEFT_OUT)
    yield from _package_files(Path(asgiref.__file__).parent)
    yield from _package_files(Path(sqlparse.__file__).parent)  # django.forms imports django.db, which imports it


@cache
def bundle_name() -> str:
    """``bundle-<digest>.zip``: the digest of the project's files and of the packages it ships."""
    digest = hashlib.sha256()
    for name, path in _project_files():
        digest.update(name.encode() + b"\0" + path.read_bytes())
    versions = (f"{name} {metadata.version(name)}" for name in ("django", "asgiref", "sqlparse"))
    digest.update(" ".join(versions).encode())
    return f"bundle-{digest.hexdigest()[:16]}.zip"


WORKER_SOURCE = Path(settings.BASE_DIR) / "static" / "js" / "pricing-worker.js"


@cache
def worker_name() -> str:
    """``worker-<digest>`` (served as that ``.js``): a new script is a new name, so the service worker can keep each
    one for good."""
    return f"worker-{hashlib.sha256(WORKER_SOURCE.read_bytes()).hexdigest()[:16]}"


_lock = threading.Lock()
_built: dict[str, bytes] = {}


def bundle() -> bytes:
    """The zip itself, built on the first request of a process (about a second), then kept."""
    with _lock:
        if bundle_name() not in _built:
            _built[bundle_name()] = _zip()
        return _built[bundle_name()]


def _zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, path in _files():
            # A fixed date: the same files make the same bytes.
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()

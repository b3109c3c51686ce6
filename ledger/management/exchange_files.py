"""What the exchange commands share: the importing owner, the document read, the import's refusals, the file
written. One place, so ``import_evening`` and ``import_circle`` (and the two exports) answer alike."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from ledger.exchange import ImportRefused


def owner_named(username: str) -> Any:
    model = get_user_model()
    owner = model.objects.filter(**{model.USERNAME_FIELD: username}).first()
    if owner is None:
        raise CommandError(f"No user {username!r}.")
    return owner


def document_read(file: str) -> Any:
    """The JSON document in ``file`` (``-``: stdin)."""
    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
        return json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        raise CommandError(f"Cannot read {file}: {error}") from None


@contextmanager
def import_refusals() -> Iterator[None]:
    """A refused import is a command error: nothing was imported."""
    try:
        yield
    except ImportRefused as error:
        raise CommandError(f"Nothing imported: {error}") from None
    except DatabaseError as error:
        # A last guard: the import checks what the database can hold, but its transaction is rolled back anyway.
        raise CommandError(f"Nothing imported: the database refused it ({error})") from None


def document_write(command: BaseCommand, document: dict[str, Any], output: str | None, what: str) -> None:
    """The document as JSON to ``output``, saying ``what`` was written there; without ``output``, to stdout."""
    text = json.dumps(document, ensure_ascii=False, indent=1)
    if output:
        Path(output).write_text(text + "\n", encoding="utf-8")
        command.stderr.write(f"{what} written to {output}.")
    else:
        command.stdout.write(text)

"""`manage.py import_circle FILE|- --owner USERNAME`: a talon-circle JSON document as a new circle of the owner."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from ledger.circle_exchange import circle_import
from ledger.exchange import ImportRefused


class Command(BaseCommand):
    help = (
        "Import a circle written by export_circle as a new circle owned by --owner, in one transaction: its "
        "evenings as import_evening does, its tab and pot checked against what the ledger books; otherwise nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the JSON file, or - for stdin")
        parser.add_argument("--owner", required=True, help="user name of the new circle's owner")

    def handle(self, *args: Any, **options: Any) -> None:
        model = get_user_model()
        owner = model.objects.filter(**{model.USERNAME_FIELD: options["owner"]}).first()
        if owner is None:
            raise CommandError(f"No user {options['owner']!r}.")
        try:
            text = sys.stdin.read() if options["file"] == "-" else Path(options["file"]).read_text(encoding="utf-8")
            data = json.loads(text)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
            raise CommandError(f"Cannot read {options['file']}: {error}") from None
        try:
            circle = circle_import(data=data, owner=owner)
        except ImportRefused as error:
            raise CommandError(f"Nothing imported: {error}") from None
        except DatabaseError as error:
            raise CommandError(f"Nothing imported: the database refused it ({error})") from None
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported circle {circle.pk} ({circle}): {circle.memberships.count()} members, "
                f"{circle.evenings.count()} evenings."
            )
        )

"""`manage.py import_evening FILE|- --owner USERNAME`: a talon-evening JSON document as a new evening of the owner."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from ledger.exchange import ImportRefused, evening_import


class Command(BaseCommand):
    help = (
        "Import an evening written by export_evening as a new evening owned by --owner, in one transaction. "
        "It writes through the ledger's services: every hand (voided ones and old versions too) must price again "
        "to its exported amounts, and the settlement must plan again to its exported balances and transfers; "
        "otherwise nothing is imported."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the JSON file, or - for stdin")
        parser.add_argument("--owner", required=True, help="user name of the new evening's owner")

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
            evening = evening_import(data=data, owner=owner)
        except ImportRefused as error:
            raise CommandError(f"Nothing imported: {error}") from None
        except DatabaseError as error:
            # A last guard: the import checks what the database can hold, but its transaction is rolled back anyway.
            raise CommandError(f"Nothing imported: the database refused it ({error})") from None
        hands = sum(table.hands.count() for table in evening.tables.all())
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported evening {evening.pk} ({evening}): {evening.tables.count()} tables, {hands} hands."
            )
        )

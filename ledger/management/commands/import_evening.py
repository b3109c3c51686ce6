"""`manage.py import_evening FILE|- --owner USERNAME`: a talon-evening JSON document as a new evening of the owner."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ledger.exchange import evening_import
from ledger.management.exchange_files import document_read, import_refusals, owner_named


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
        owner = owner_named(options["owner"])
        data = document_read(options["file"])
        with import_refusals():
            evening = evening_import(data=data, owner=owner)
        hands = sum(table.hands.count() for table in evening.tables.all())
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported evening {evening.pk} ({evening}): {evening.tables.count()} tables, {hands} hands."
            )
        )

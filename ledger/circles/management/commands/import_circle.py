"""`manage.py import_circle FILE|- --owner USERNAME`: a talon-circle JSON document as a new circle of the owner."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ledger.circles.exchange import circle_import
from ledger.management.exchange_files import document_read, import_refusals, owner_named


class Command(BaseCommand):
    help = (
        "Import a circle written by export_circle as a new circle owned by --owner, in one transaction: its "
        "evenings as import_evening does, its tab and pot checked against what the ledger books; otherwise nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the JSON file, or - for stdin")
        parser.add_argument("--owner", required=True, help="user name of the new circle's owner")

    def handle(self, *args: Any, **options: Any) -> None:
        owner = owner_named(options["owner"])
        data = document_read(options["file"])
        with import_refusals():
            circle = circle_import(data=data, owner=owner)
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported circle {circle.pk} ({circle}): {circle.memberships.count()} members, "
                f"{circle.evenings.count()} evenings."
            )
        )

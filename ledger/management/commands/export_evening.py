"""`manage.py export_evening EVENING_ID [-o FILE]`: one evening as a talon-evening JSON document."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger.exchange import evening_export
from ledger.management.exchange_files import document_write
from ledger.models import Evening


class Command(BaseCommand):
    help = "Write one evening (tables, hands with their versions, settlement) as JSON, to stdout or a file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("evening_id", type=int)
        parser.add_argument("-o", "--output", help="file to write (default: stdout)")

    def handle(self, *args: Any, **options: Any) -> None:
        evening = Evening.objects.filter(pk=options["evening_id"]).select_related("owner").first()
        if evening is None:
            raise CommandError(f"No evening with id {options['evening_id']}.")
        document = evening_export(evening=evening)
        document_write(self, document, options["output"], f"Evening {evening.pk} ({evening})")

"""`manage.py export_circle CIRCLE_ID [-o FILE]`: one circle as a talon-circle JSON document."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger.circles.exchange import circle_export
from ledger.circles.models import Circle
from ledger.management.exchange_files import document_write


class Command(BaseCommand):
    help = "Write one circle (members, evenings with their hands, tab and pot) as JSON, to stdout or a file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("circle_id", type=int)
        parser.add_argument("-o", "--output", help="file to write (default: stdout)")

    def handle(self, *args: Any, **options: Any) -> None:
        circle = Circle.objects.filter(pk=options["circle_id"]).select_related("owner").first()
        if circle is None:
            raise CommandError(f"No circle with id {options['circle_id']}.")
        document = circle_export(circle=circle)
        document_write(self, document, options["output"], f"Circle {circle.pk} ({circle})")

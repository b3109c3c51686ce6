"""Spreadsheets of the books: hands, balances and statistics of an evening, a circle or a date range, as CSV or XLSX.

One scope (``Scope``: the evenings of one evening, of a circle, or of a scorekeeper within dates) gives the
sheets ``hands`` (one row per hand, one column per player with their amount), ``balances`` (one row per player and
evening) and those the features add after them (``hooks.spreadsheet_sheets``: ``statistics``, one row per
player). Money is exact: in CSV a decimal string with at least two places (``plain_money``, with the decimal mark
of the reader's spreadsheet: ``CsvFormat``), in XLSX a number shown with as many places as the amounts need.
The hands are read in one query and written as they stream; nothing is summed here (balances and statistics come
from the database's aggregates).
"""

from __future__ import annotations

import csv
import datetime
import io
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from ledger import games, hooks
from ledger.models import Evening, Hand, Posting, amount_sum, exact_total
from ledger.result_texts import result_label
from rules.i18n import money_places, plain_money

CSV_TYPE = "text/csv; charset=utf-8"
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

Cell = str | int | Decimal | datetime.date | None


@dataclass(frozen=True)
class Scope:
    """Which evenings a spreadsheet covers: ``evenings`` (a queryset), named by ``name`` for the file."""

    evenings: QuerySet[Evening]
    name: str
    circle: Any = None  # a circle (``ledger.circles``): its evenings are ``circle.evenings``
    since: datetime.date | None = None
    until: datetime.date | None = None

    @classmethod
    def of_evening(cls, evening: Evening) -> Scope:
        return cls(Evening.objects.filter(pk=evening.pk), f"evening-{evening.date:%Y-%m-%d}-{evening.pk}")

    @classmethod
    def of_circle(cls, circle: Any, since: datetime.date | None = None, until: datetime.date | None = None) -> Scope:
        return cls(_dated(circle.evenings.all(), since, until), f"circle-{circle.pk}", circle, since, until)

    @classmethod
    def of_user(cls, user: Any, since: datetime.date | None = None, until: datetime.date | None = None) -> Scope:
        return cls(_dated(Evening.objects.for_user(user), since, until), "evenings", None, since, until)

    def filename(self, sheet: str, extension: str) -> str:
        dates = "".join(
            f"-{day:%Y%m%d}" if day else "-" for day in (self.since, self.until) if self.since or self.until
        )
        return f"talon-{self.name}{dates}-{sheet}.{extension}"


def _dated(evenings: QuerySet[Evening], since: datetime.date | None, until: datetime.date | None) -> QuerySet[Evening]:
    if since is not None:
        evenings = evenings.filter(date__gte=since)
    if until is not None:
        evenings = evenings.filter(date__lte=until)
    return evenings


# --------------------------------------------------------------------------------------------------------------
# The sheets as rows


def players_of(scope: Scope) -> list[str]:
    """The names of every player with a posting in the scope's evenings, sorted: the hands sheet's columns."""
    names = Posting.objects.filter(hand__table__evening__in=scope.evenings).values_list("player__name", flat=True)
    return sorted(set(names.order_by().distinct()))


def hand_rows(scope: Scope) -> Iterator[list[Cell]]:
    """The hands sheet: a header, then each hand (voided ones too, marked) with each player's amount as priced."""
    players = players_of(scope)
    yield [
        _("date"),
        _("place"),
        _("table"),
        _("game"),
        _("hand"),
        _("status"),
        _("declarer"),
        _("contract"),
        _("hand played"),
        *players,
    ]
    hands = (
        Hand.objects.filter(table__evening__in=scope.evenings)
        .select_related("table__evening")
        .order_by("table__evening__date", "table__evening_id", "table_id", "number")
    )
    for hand in hands.iterator(chunk_size=500):
        table = hand.table
        field = games.CONTRACT_FIELDS.get(table.game, "contract")
        amounts = hand.result.get("amounts", {}) if isinstance(hand.result, dict) else {}
        document = hand.document if isinstance(hand.document, dict) else {}
        yield [
            table.evening.date,
            table.evening.place,
            table.pk,
            table.get_game_display(),
            hand.number,
            hand.get_status_display(),
            _text(document.get("declarer")),
            _text(document.get(field)),
            result_label(hand.result),
            *(Decimal(amounts[name]) if name in amounts else None for name in players),
        ]


def balance_rows(scope: Scope) -> Iterator[list[Cell]]:
    """The balances sheet: each player's exact balance per evening (counted hands), one grouped query."""
    yield [_("date"), _("place"), _("player"), _("balance")]
    rows = (
        Posting.objects.filter(hand__table__evening__in=scope.evenings)
        .counted()
        .order_by()
        .values("hand__table__evening_id", "hand__table__evening__date", "hand__table__evening__place", "player__name")
        .annotate(total=amount_sum())
        .order_by("hand__table__evening__date", "hand__table__evening_id", "player__name")
    )
    for row in rows:
        yield [
            row["hand__table__evening__date"],
            row["hand__table__evening__place"],
            row["player__name"],
            exact_total(row["total"]),
        ]


def sheet_rows() -> dict[str, Any]:
    """{sheet: its rows of a ``Scope``} in the order the workbook has them: the books' own, then those the features
    add (``hooks.spreadsheet_sheets``)."""
    rows: dict[str, Any] = {"hands": hand_rows, "balances": balance_rows}
    for added in hooks.spreadsheet_sheets.send(None):
        rows.update(added)
    return rows


def sheets() -> tuple[str, ...]:
    """The sheets of a spreadsheet, in order."""
    return tuple(sheet_rows())


def _text(value: object) -> str:
    return "" if value is None else str(value)


# --------------------------------------------------------------------------------------------------------------
# The files


@dataclass(frozen=True)
class CsvFormat:
    """How a CSV file is written for whoever opens it. A spreadsheet program reads CSV by its locale's list
    separator and decimal mark (Czech, Slovak and German Excel: a semicolon and a decimal comma; a comma-separated
    file opens there as one garbled column), and guesses the encoding unless a byte-order mark says UTF-8."""

    name: str
    delimiter: str
    decimal: str
    bom: bool


# Spreadsheets in a language whose numbers have a decimal comma; in English; and programs (RFC 4180, no BOM).
SEMICOLON = CsvFormat("semicolon", ";", ",", bom=True)
COMMA = CsvFormat("comma", ",", ".", bom=True)
PLAIN = CsvFormat("plain", ",", ".", bom=False)
CSV_FORMATS = {f.name: f for f in (SEMICOLON, COMMA, PLAIN)}
DECIMAL_COMMA_LANGUAGES = ("cs", "sk", "de")


def csv_format(language: str | None, asked: str | None = None) -> CsvFormat:
    """The format asked for by name (``?csv=plain``), else the one a spreadsheet reads in the reader's language.

    >>> csv_format("cs").delimiter, csv_format("en").delimiter, csv_format("de", "plain").bom
    (';', ',', False)
    """
    if asked in CSV_FORMATS:
        return CSV_FORMATS[asked]
    return SEMICOLON if (language or "").split("-")[0] in DECIMAL_COMMA_LANGUAGES else COMMA


def csv_text(rows: Iterator[list[Cell]], form: CsvFormat = PLAIN) -> str:
    """One sheet as CSV: money as exact decimal strings (at least two places) with the format's decimal mark,
    dates as ISO dates, a byte-order mark first when the format has one."""
    out = io.StringIO()
    if form.bom:
        out.write("\ufeff")
    writer = csv.writer(out, delimiter=form.delimiter)
    for row in rows:
        writer.writerow([csv_cell(cell, form) for cell in row])
    return out.getvalue()


# A text cell starting with one of these is a formula to a spreadsheet program: a player called "=HYPERLINK(…)"
# must stay a name. CSV: a leading apostrophe, as spreadsheet programs write it; XLSX: the cell typed as text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(cell: Cell, form: CsvFormat = PLAIN) -> str | int:
    if isinstance(cell, Decimal):
        return plain_money(cell).replace(".", form.decimal)
    if isinstance(cell, datetime.date):
        return cell.isoformat()
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return "" if cell is None else cell


def xlsx_bytes(scope: Scope) -> bytes:
    """The sheets as one workbook: money as numbers with the places the amounts need (``0.00`` at least)."""
    book = Workbook()
    first = True
    for sheet, sheet_of in sheet_rows().items():
        if first:
            active = book.active
            assert isinstance(active, Worksheet)  # a new workbook has one sheet
            worksheet, first = active, False
            worksheet.title = sheet
        else:
            worksheet = book.create_sheet(sheet)
        for row in sheet_of(scope):
            worksheet.append(list(row))
            for cell, value in zip(worksheet[worksheet.max_row], row, strict=True):
                if isinstance(value, str) and value.startswith("="):
                    cell.data_type = "s"  # text, never a formula (see FORMULA_STARTS)
                elif isinstance(value, Decimal):
                    cell.number_format = "0." + "0" * money_places(value)
                elif isinstance(value, datetime.date):
                    cell.number_format = "yyyy-mm-dd"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()

"""What a hand document says about the sides, the contract and the raises: in SQL for the database's summaries
(``with_sides``, ``side_sql``) and in Python for one hand at a time (``HandSides``), the same cases in the same
order, so that a summary added hand by hand equals one computed from scratch.

Sides, as the hand document says them (the definitions behind partners, opponents and raises):

- the **declarer side** is the ``declarer`` and their ``partner`` (Mariáš, Šnapser; absent or equal to the
  declarer = alone);
- a player who sits out is on no side: the ``dealer`` a hand document names at a four-seat table (Skat);
- everybody else at the table is a **defender**;
- a hand without a declarer (Skat Ramsch or passed in) has no sides.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.db.models import Case, Expression, F, Func, IntegerField, Q, QuerySet, TextField, Value, When
from django.db.models.functions import Cast, Coalesce, Greatest

from ledger import games
from ledger.models import Posting

DECLARER = "declarer"
DEFENDER = "defender"
NO_SIDE = ""

# Where each game's hand document keeps the raises on the contract the declarer plays (``games.CONTRACT_FIELDS``:
# the keys holding a level, 0 = none): Mariáš flekks each component on its own, so the hand's level is the
# highest of them; Šnapser's raises and Skat's Kontra (1) / Re (2) are one number.
RAISE_FIELDS: dict[str, tuple[str, ...]] = {
    "marias": ("flek__hra", "flek__sedma", "flek__stovka", "flek__betl", "flek__durch"),
    "snapser": ("raises",),
    "skat": ("kontra",),
}
if set(RAISE_FIELDS) != set(games.GAMES):  # pragma: no cover - a game added without its statistics
    raise ImportError(f"ledger.stats.documents covers {sorted(RAISE_FIELDS)}, the ledger has {sorted(games.GAMES)}")
# The seat count at which the dealer a hand document names sits out of the hand (Skat's fourth seat).
SITTING_OUT_SEATS = 4


class JSONArrayLength(Func):
    """The length of a JSON array column (``Table.seat_names``): SQLite's json_array_length, PostgreSQL's
    jsonb_array_length."""

    function = "JSON_ARRAY_LENGTH"
    output_field = IntegerField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, function="JSONB_ARRAY_LENGTH", **extra)


def with_sides(postings: QuerySet[Posting]) -> QuerySet[Posting]:
    """The postings with what the hand document says about them: ``declarer_name``, ``partner_name``,
    ``out_name`` (the dealer sitting out, if any), ``contract`` and ``raise_level`` (see the module docstring)."""
    seats = JSONArrayLength("hand__table__seat_names")
    return postings.alias(seat_count=seats).annotate(
        declarer_name=document_text("declarer"),
        partner_name=document_text("partner"),
        out_name=Case(When(Q(seat_count=SITTING_OUT_SEATS), then=document_text("dealer")), default=Value(None)),
        contract=Case(
            *(When(hand__table__game=name, then=document_text(field)) for name, field in games.CONTRACT_FIELDS.items()),
            default=Value(None),
        ),
        raise_level=Case(
            *(When(hand__table__game=name, then=_level(fields)) for name, fields in RAISE_FIELDS.items()),
            default=Value(0),
            output_field=IntegerField(),
        ),
    )


class DocumentText(Func):
    """The text at a path in the posting's hand document, SQL NULL when absent or null: SQLite's ``json_extract``,
    PostgreSQL's ``#>>``. One plain extraction (Django's key transforms test the JSON type first on SQLite, which
    triples the work on every row), compared as plain text (a key transform compares its right-hand side as JSON).
    """

    output_field = TextField()

    def __init__(self, *path: str) -> None:
        super().__init__(F("hand__document"))
        if not all(key.isidentifier() for key in path):
            raise ValueError(f"not a document path: {path}")  # they are inlined as a JSON path below
        self.path = path

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        sql, params = compiler.compile(self.source_expressions[0])
        return f"JSON_EXTRACT({sql}, %s)", [*params, "$." + ".".join(self.path)]

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        sql, params = compiler.compile(self.source_expressions[0])
        return f"({sql} #>> %s::text[])", [*params, "{" + ",".join(self.path) + "}"]


def document_text(*path: str) -> Expression:
    """The text at ``path`` in the posting's hand document (``DocumentText``)."""
    return DocumentText(*path)


def _level(fields: tuple[str, ...]) -> Expression:
    levels = [Coalesce(Cast(document_text(*field.split("__")), IntegerField()), Value(0)) for field in fields]
    return levels[0] if len(levels) == 1 else Greatest(*levels)


def side_sql(alias: str, name: str) -> str:
    """``HandSides.side`` in SQL over the columns of ``alias`` (a subquery of ``_facts``) for the player
    called ``name`` (a column): the same cases in the same order."""
    declarer, partner, out = f"{alias}.declarer_name", f"{alias}.partner_name", f"{alias}.out_name"
    return (
        f"CASE WHEN {declarer} IS NULL OR {declarer} = '' THEN '{NO_SIDE}'"
        f" WHEN {declarer} = {name} THEN '{DECLARER}' WHEN {partner} = {name} THEN '{DECLARER}'"
        f" WHEN {out} = {name} THEN '{NO_SIDE}' ELSE '{DEFENDER}' END"
    )


# --------------------------------------------------------------------------------------------------------------
# The same, in Python, for one hand


def _text(value: Any) -> str | None:
    """A document value as the database reads it as text (``DocumentText``): None for absent or null."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    return json.dumps(value)


def _at(document: Any, path: list[str]) -> str | None:
    for key in path:
        if not isinstance(document, dict):
            return None
        document = document.get(key)
    return _text(document)


def _as_level(text: str | None) -> int:
    """``Coalesce(Cast(text, Integer), 0)``: a level written as a number (true counts 1, as SQLite reads it)."""
    if text is None or text == "false":
        return 0
    if text == "true":
        return 1
    try:
        return int(text)
    except ValueError:
        return 0


@dataclass(frozen=True)
class HandSides:
    """What one hand document says (``with_sides`` for one hand): the declarer, the partner, who sits out, the
    contract and the raise level."""

    declarer: str | None
    partner: str | None
    out: str | None
    contract: str | None
    raise_level: int

    @classmethod
    def of(cls, document: Any, game: str, seat_count: int) -> HandSides:
        field = games.CONTRACT_FIELDS.get(game)
        levels = [_as_level(_at(document, name.split("__"))) for name in RAISE_FIELDS.get(game, ())]
        return cls(
            declarer=_at(document, ["declarer"]),
            partner=_at(document, ["partner"]),
            out=_at(document, ["dealer"]) if seat_count == SITTING_OUT_SEATS else None,
            contract=None if field is None else _at(document, [field]),
            raise_level=max(levels, default=0),
        )

    def side(self, name: str) -> str:
        """``side_sql`` for the player called ``name``."""
        if not self.declarer:
            return NO_SIDE
        if name in (self.declarer, self.partner):
            return DECLARER
        if name == self.out:
            return NO_SIDE
        return DEFENDER

    def raised_by_side_of(self, name: str) -> bool:
        """The player's side raised the hand (``_RAISED`` of ``ledger.stats.summaries``): the defenders give the
        odd levels, the declarer's side answers with the even ones."""
        side = self.side(name)
        return (side == DEFENDER and self.raise_level >= 1) or (side == DECLARER and self.raise_level >= 2)

    def declares(self, name: str) -> bool:
        return bool(self.declarer) and self.declarer == name

"""Reading the document: each value checked for its kind and range, naming where it stands when it is not."""

from __future__ import annotations

import datetime
import math
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from ledger import qr
from ledger.exchange.document import ImportRefused


def require_storable(data: Any) -> None:
    """Refuses text no database stores (NUL, which PostgreSQL refuses; a lone surrogate, which is no UTF-8) and
    numbers JSON cannot hold (NaN, infinity), naming where, before any of it reaches the database."""
    pending: list[tuple[Any, str]] = [(data, "")]
    while pending:
        value, where = pending.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                pending.append((key, where or "document"))
                pending.append((item, f"{where}.{key}" if where else str(key)))
        elif isinstance(value, list):
            pending.extend((item, f"{where}[{index}]") for index, item in enumerate(value))
        elif isinstance(value, str) and ("\x00" in value or not _is_utf8(value)):
            raise ImportRefused(
                f"{where or 'document'}: holds a NUL character or a lone surrogate, which no database stores"
            )
        elif isinstance(value, float) and not math.isfinite(value):
            raise ImportRefused(f"{where or 'document'}: holds a number that is not finite")


def _is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class Users:
    """User names of the document mapped to users here. Only the people the document says kept its score (``named``:
    its owner and scorekeepers) keep their names; any other name, and a name unknown here, becomes the importing
    user, so that a document cannot put somebody's name here on a hand or a payment they had no part in."""

    def __init__(self, owner: Any, named: set[str]) -> None:
        self.owner = owner
        self.named = named
        self.known: dict[str, Any] = {}
        self.model = get_user_model()

    def get(self, username: str) -> Any:
        if username not in self.known:
            field = self.model.USERNAME_FIELD
            user = self.model.objects.filter(**{field: username}).first() if username in self.named else None
            self.known[username] = user or self.owner
        return self.known[username]


def kept_by(source: Reader) -> set[str]:
    """The user names an exported evening or circle says kept its score: its owner and its scorekeepers."""
    owner = source.optional("owner", str)
    keepers = source.optional("scorekeepers", list) or []
    return {name for name in [owner, *keepers] if isinstance(name, str)}


class Reader:
    """Reads the fields of one object of the document; every error names where it is and what is expected."""

    def __init__(self, data: Any, where: str) -> None:
        if not isinstance(data, Mapping):
            raise ImportRefused(f"{where}: must be an object")
        self.data = data
        self.where = where

    def get(self, name: str, kind: type) -> Any:
        value = self.data.get(name)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ImportRefused(f"{self.where}: {name} must be {_KINDS.get(kind, kind.__name__)}")
        return value

    def optional(self, name: str, kind: type) -> Any:
        return None if self.data.get(name) is None else self.get(name, kind)

    def text(self, name: str, max_length: int) -> str:
        value = self.get(name, str)
        if len(value) > max_length:
            raise ImportRefused(f"{self.where}: {name} can have at most {max_length} letters")
        return str(value)

    def count(self, name: str) -> int:
        value = self.get(name, int)
        if not 0 <= value < 2**31:
            raise ImportRefused(f"{self.where}: {name} must be a whole number of at least 0")
        return int(value)

    def iban(self, name: str) -> str:
        value = self.text(name, 34)
        try:
            return qr.check_iban(value) if value.strip() else ""
        except qr.InvalidIban as error:
            raise ImportRefused(f"{self.where}: {name}: {error}") from None

    def balances(self, name: str) -> dict[str, Decimal]:
        """An object of players' balances (decimal strings), as a settlement holds them."""
        raw = self.get(name, dict)
        return {player: decimal_read(amount, f"{self.where}.{name}: {player}") for player, amount in raw.items()}

    def reader(self, name: str) -> Reader:
        return Reader(self.get(name, dict), f"{self.where}.{name}")

    def choice(self, name: str, choices: list[str]) -> str:
        value = self.data.get(name)
        if value not in choices:
            raise ImportRefused(f"{self.where}: {name} must be one of {', '.join(choices)}")
        return str(value)

    def seat(self, name: str, seats: int) -> int:
        value = self.get(name, int)
        if not 0 <= value < seats:
            raise ImportRefused(f"{self.where}: {name} must be a seat from 0 to {seats - 1}")
        return int(value)

    def money(self, name: str, positive: bool = False) -> Decimal:
        amount = decimal_read(self.data.get(name), f"{self.where}: {name}")
        if positive and amount <= 0:
            raise ImportRefused(f"{self.where}: {name} must be more than zero")
        return amount

    def date(self, name: str) -> datetime.date:
        try:
            return datetime.date.fromisoformat(self.get(name, str))
        except ValueError:
            raise ImportRefused(f"{self.where}: {name} must be a date like 2026-11-27") from None

    def moment(self, name: str) -> datetime.datetime:
        try:
            moment = datetime.datetime.fromisoformat(self.get(name, str))
            moment = moment if timezone.is_aware(moment) else timezone.make_aware(moment)
            moment.astimezone(datetime.UTC)  # the databases store it in UTC: 0001-01-01T00:00+14:00 is no time
        except (ValueError, OverflowError):
            raise ImportRefused(f"{self.where}: {name} must be a time like 2026-11-27T20:15:00+00:00") from None
        return moment


_KINDS = {str: "a text", int: "a whole number", list: "a list", dict: "an object"}


def decimal_read(value: Any, where: str) -> Decimal:
    try:
        amount = Decimal(value) if isinstance(value, str) else Decimal("NaN")
    except InvalidOperation:
        amount = Decimal("NaN")
    if not amount.is_finite() or abs(amount) >= 10**10 or amount != amount.quantize(Decimal("0.0001")):
        raise ImportRefused(f"{where} must be a decimal number written as a string, at most 4 places")
    return amount

"""The language of everything a player reads: labels, explanation lines, errors and house-rule texts.

English is the source text (the msgid); Czech, Slovak and German come from the gettext catalogues in
``rules/locale/<lang>/LC_MESSAGES/rules.mo`` (edit the ``.po`` beside it, then ``make rules-compile``). The active
language lives in a :class:`~contextvars.ContextVar`, so each thread, web request and asyncio task sees its own and
one request's language never leaks into another's. Pure standard library: no Django.

>>> from decimal import Decimal
>>> get_language()
'en'
>>> with override("cs"):
...     get_language(), format_money(Decimal("-3.2"), "CZK")
('cs', '−3,20\\xa0Kč')
>>> format_money(Decimal("1.44"), "EUR"), format_money(Decimal("-3.2"), "CZK")
('€1.44', '−3.20\\xa0Kč')

Numbers: Czech, Slovak and German write a decimal comma, English a decimal point; every language writes a true minus
sign (U+2212). Money: a non-breaking space keeps the amount and its sign on one line; Czech, Slovak and German put
the sign after the amount (``3,20 Kč``, ``1,44 €``). English puts ``€`` before the amount (``€1.44``, ``−€1.44``),
as English texts write the euro, but keeps ``Kč`` after it (``3.20 Kč``): the crown's sign is Czech and is written
after the amount wherever it is used, and it is the sign these players see on their coins. No thousands grouping:
one hand's money and list points stay well below the sizes where grouping helps, and arithmetic lines such as
``0,20 × 2 × 8`` read better without it.
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Protocol

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LOCALE_DIR",
    "NP_",
    "N_",
    "_",
    "activate",
    "format_list",
    "format_money",
    "format_number",
    "get_language",
    "gettext",
    "ngettext",
    "normalize_language",
    "option_help",
    "override",
    "pgettext",
]

LANGUAGES = ("en", "cs", "sk", "de")
DEFAULT_LANGUAGE = "en"
DOMAIN = "rules"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

MINUS = "\u2212"
NBSP = "\u00a0"
DECIMAL_COMMA = frozenset({"cs", "sk", "de"})
CURRENCY_SIGNS = {"CZK": "Kč", "EUR": "€"}
# Signs that English writes before the amount ("€1.44"); every other sign, and every sign in the other
# languages, follows the amount after a non-breaking space.
_SIGN_FIRST_IN_ENGLISH = frozenset({"EUR"})

_language: ContextVar[str] = ContextVar("rules_language", default=DEFAULT_LANGUAGE)


# --------------------------------------------------------------------------------------------------------------
# The active language


def normalize_language(language: str | None) -> str:
    """One of :data:`LANGUAGES` for a language code as browsers and Django write it; English when unknown.

    >>> normalize_language("cs-CZ"), normalize_language("de_AT"), normalize_language("SK"), normalize_language("fr")
    ('cs', 'de', 'sk', 'en')
    """
    if not language:
        return DEFAULT_LANGUAGE
    code = language.replace("_", "-").split("-")[0].lower()
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


def activate(language: str | None) -> None:
    """Make ``language`` the active one in the current context (thread, task); unknown codes mean English."""
    _language.set(normalize_language(language))


def get_language() -> str:
    """The active language: ``en``, ``cs``, ``sk`` or ``de``."""
    return _language.get()


@contextmanager
def override(language: str | None) -> Iterator[str]:
    """Use ``language`` inside the block, then restore whatever was active before (even on an error).

    >>> with override("de-DE") as active:
    ...     active
    'de'
    """
    active = normalize_language(language)
    token = _language.set(active)
    try:
        yield active
    finally:
        _language.reset(token)


# --------------------------------------------------------------------------------------------------------------
# Looking up translations


@cache
def _catalogue(language: str) -> _gettext.NullTranslations:
    # Loaded once per language and process; a missing .mo falls back to the English msgids.
    return _gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[language], fallback=True)


# msgid (or "context\x04msgid") -> translation, per language: a plain dict hit per lookup. GNUTranslations.gettext
# does more per miss (it also tries the plural key), and English, the default, misses on every message.
_messages: dict[str, dict[str, str]] = {}


def _load(language: str) -> dict[str, str]:
    catalog: dict[object, str] = vars(_catalogue(language)).get("_catalog", {})
    messages = {key: value for key, value in catalog.items() if isinstance(key, str) and key and value}
    _messages[language] = messages
    return messages


def _active() -> dict[str, str]:
    language = _language.get()
    messages = _messages.get(language)
    return _load(language) if messages is None else messages


def gettext(message: str) -> str:
    """``message`` (the English msgid) in the active language.

    >>> with override("de"):
    ...     gettext("must be true or false")
    'muss true oder false sein'
    """
    return _active().get(message, message)


_ = gettext


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a message that fits ``count`` (Czech and Slovak have three: 1, 2–4, 5 and more).

    >>> with override("cs"):
    ...     [ngettext("%(count)s ten", "%(count)s tens", n) % {"count": n} for n in (1, 3, 5)]
    ['1 desítka', '3 desítky', '5 desítek']
    """
    messages = _active()
    if not messages:  # English: no catalogue entries, so skip the plural formula
        return singular if count == 1 else plural
    return _catalogue(_language.get()).ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """A short word of one game (``context``): the same word may be said differently in another game.

    >>> with override("de"):
    ...     pgettext("marias", "re"), pgettext("skat count", "game")
    ('Re', 'Spiel')
    """
    return _active().get(f"{context}\x04{message}", message)


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it now (for texts built at import time)."""
    return message


def NP_(context: str, message: str) -> str:
    """Mark a term of one game (``context``) for :func:`pgettext` without translating it now."""
    return message


class _HasHelp(Protocol):
    @property
    def help(self) -> str: ...


def option_help(option: _HasHelp) -> str:
    """The house rule's explanation (:attr:`rules.base.Option.help`, an English msgid) in the active language.

    ``Option.help`` is built at import time, before any language is active, so it stays English and is translated
    here, at the moment somebody reads it.
    """
    return gettext(option.help)


# --------------------------------------------------------------------------------------------------------------
# Numbers and money


_QUANTA = {places: Decimal(1).scaleb(-places) for places in range(7)}


def _places_of(amount: Decimal, least: int) -> int:
    exponent = amount.normalize().as_tuple().exponent
    return max(least, -exponent) if isinstance(exponent, int) else least


def format_number(amount: Decimal | int, places: int | None = 2) -> str:
    """A number as the active language writes it: decimal comma (cs, sk, de) or point (en), true minus sign.

    ``places=None`` keeps the number's own decimal places (without trailing zeros), for values a player typed.

    >>> format_number(Decimal("-3.2")), format_number(96, places=0), format_number(Decimal("0.50"), places=None)
    ('−3.20', '96', '0.5')
    >>> with override("de"):
    ...     format_number(Decimal("-3.2"))
    '−3,20'
    """
    if isinstance(amount, int) and not places:
        return f"{MINUS}{-amount}" if amount < 0 else str(amount)  # list points: the common case, kept cheap
    value = amount if isinstance(amount, Decimal) else Decimal(amount)
    if places is None:
        places = _places_of(value, 0)
    quantum = _QUANTA.get(places) or Decimal(1).scaleb(-places)
    text = f"{abs(value).quantize(quantum):f}"
    if _language.get() in DECIMAL_COMMA:
        text = text.replace(".", ",")
    return f"{MINUS}{text}" if value < 0 else text


def format_money(amount: Decimal, currency: str, places: int | None = None) -> str:
    """Money as the active language writes it, exact: at least two places, more when the amount has them.

    >>> format_money(Decimal("-3.20"), "CZK"), format_money(Decimal("0.005"), "EUR"), format_money(Decimal("-1"), "EUR")
    ('−3.20\\xa0Kč', '€0.005', '−€1.00')
    >>> with override("sk"):
    ...     format_money(Decimal("1.44"), "EUR"), format_money(Decimal("3.2000"), "CZK")
    ('1,44\\xa0€', '3,20\\xa0Kč')
    """
    number = format_number(amount, _places_of(amount, 2) if places is None else places)
    sign = CURRENCY_SIGNS.get(currency, currency)
    if _language.get() == "en" and currency in _SIGN_FIRST_IN_ENGLISH:
        if number.startswith(MINUS):
            return f"{MINUS}{sign}{number[1:]}"
        return f"{sign}{number}"
    return f"{number}{NBSP}{sign}"


def format_list(items: Sequence[str]) -> str:
    """Names (or phrases) joined as the active language lists them: "Ana, Ben and Cyril", "Ana, Ben a Cyril".

    >>> format_list(["Ana"]), format_list(["Ana", "Ben"]), format_list(["Ana", "Ben", "Cyril"])
    ('Ana', 'Ana and Ben', 'Ana, Ben and Cyril')
    """
    if len(items) < 2:
        return "".join(items)
    # No comma before the last item in any of the four languages (English as the players write it, too).
    return gettext("%(items)s and %(last)s") % {"items": ", ".join(items[:-1]), "last": items[-1]}

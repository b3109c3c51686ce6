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
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any, Protocol, TypeAlias

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LOCALE_DIR",
    "NP_",
    "N_",
    "Source",
    "Text",
    "_",
    "activate",
    "capitalised",
    "concat",
    "format_amount",
    "format_list",
    "format_money",
    "format_number",
    "get_language",
    "gettext",
    "joined",
    "money_places",
    "ngettext",
    "normalize_language",
    "option_help",
    "override",
    "pgettext",
    "plain_money",
    "render",
    "source_of",
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


def _plain_gettext(message: str) -> str:
    return _active().get(message, message)


def _plain_ngettext(singular: str, plural: str, count: int) -> str:
    if not _active():  # English: no catalogue entries, so skip the plural formula
        return singular if count == 1 else plural
    return _catalogue(_language.get()).ngettext(singular, plural, count)


def _plain_pgettext(context: str, message: str) -> str:
    return _active().get(f"{context}\x04{message}", message)


def gettext(message: str) -> Text:
    """``message`` (the English msgid) in the active language.

    >>> with override("de"):
    ...     gettext("must be true or false")
    'muss true oder false sein'
    """
    return Text(_plain_gettext(message), {"t": message})


_ = gettext


def ngettext(singular: str, plural: str, count: int) -> Text:
    """The form of a message that fits ``count`` (Czech and Slovak have three: 1, 2–4, 5 and more).

    >>> with override("cs"):
    ...     [ngettext("%(count)s ten", "%(count)s tens", n) % {"count": n} for n in (1, 3, 5)]
    ['1 desítka', '3 desítky', '5 desítek']
    """
    return Text(_plain_ngettext(singular, plural, count), {"t": singular, "tp": plural, "n": count})


def pgettext(context: str, message: str) -> Text:
    """A short word of one game (``context``): the same word may be said differently in another game.

    >>> with override("de"):
    ...     pgettext("marias", "re"), pgettext("skat count", "game")
    ('Re', 'Spiel')
    """
    return Text(_plain_pgettext(context, message), {"t": message, "c": context})


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


def format_number(amount: Decimal | int, places: int | None = 2) -> Text:
    """A number as the active language writes it: decimal comma (cs, sk, de) or point (en), true minus sign.

    ``places=None`` keeps the number's own decimal places (without trailing zeros), for values a player typed.

    >>> format_number(Decimal("-3.2")), format_number(96, places=0), format_number(Decimal("0.50"), places=None)
    ('−3.20', '96', '0.5')
    >>> with override("de"):
    ...     format_number(Decimal("-3.2"))
    '−3,20'
    """
    if isinstance(amount, int) and not places:
        # List points: the common case, kept cheap; an integer reads the same in every language but for the minus.
        return Text(f"{MINUS}{-amount}" if amount < 0 else str(amount), lambda: {"num": str(amount), "pl": places})
    return Text(_number(amount, places), lambda: {"num": str(amount), "pl": places})


def _number(amount: Decimal | int, places: int | None) -> str:
    value = amount if isinstance(amount, Decimal) else Decimal(amount)
    if places is None:
        places = _places_of(value, 0)
    quantum = _QUANTA.get(places) or Decimal(1).scaleb(-places)
    text = f"{abs(value).quantize(quantum):f}"
    if _language.get() in DECIMAL_COMMA:
        text = text.replace(".", ",")
    return f"{MINUS}{text}" if value < 0 else text


def format_money(amount: Decimal, currency: str, places: int | None = None) -> Text:
    """Money as the active language writes it, exact: at least two places, more when the amount has them.

    >>> format_money(Decimal("-3.20"), "CZK"), format_money(Decimal("0.005"), "EUR"), format_money(Decimal("-1"), "EUR")
    ('−3.20\\xa0Kč', '€0.005', '−€1.00')
    >>> with override("sk"):
    ...     format_money(Decimal("1.44"), "EUR"), format_money(Decimal("3.2000"), "CZK")
    ('1,44\\xa0€', '3,20\\xa0Kč')
    """
    return Text(_money(amount, currency, places), lambda: {"m": str(amount), "cur": currency, "pl": places})


def _money(amount: Decimal, currency: str, places: int | None) -> str:
    number = _number(amount, money_places(amount) if places is None else places)
    sign = CURRENCY_SIGNS.get(currency, currency)
    if _language.get() == "en" and currency in _SIGN_FIRST_IN_ENGLISH:
        if number.startswith(MINUS):
            return f"{MINUS}{sign}{number[1:]}"
        return f"{sign}{number}"
    return f"{number}{NBSP}{sign}"


# Money is shown in one way wherever it appears (the engines' lines, the pages' scoreboards and settlement, the PDF,
# the API, the history and the payment codes' labels): these three helpers and format_money hold the rule.


def money_places(amount: Decimal) -> int:
    """How many decimal places an amount of money shows: at least two, more when the amount has them (+0.005 at a
    Skat stake of half a cent). Nothing is rounded before the settlement, so what is shown still sums to zero.

    >>> money_places(Decimal("3.2000")), money_places(Decimal("0.0050")), money_places(Decimal("1E+3"))
    (2, 3, 2)
    """
    return _places_of(amount, 2)


def format_amount(amount: Decimal) -> Text:
    """An amount of money without its currency, as the active language writes it (a scoreboard says the currency
    once): ``money_places`` places, decimal comma or point, true minus sign.

    >>> with override("cs"):
    ...     format_amount(Decimal("-0.4800")), format_amount(Decimal("0.0050"))
    ('−0,48', '0,005')
    """
    return format_number(amount, places=money_places(amount))


def plain_money(amount: Decimal) -> str:
    """An amount as plain text, the same in every language (the API, the evening's history, a payment code's label):
    ``money_places`` places, a decimal point and an ASCII minus; never "-0.00".

    >>> plain_money(Decimal("7.0000")), plain_money(Decimal("-0.0125")), plain_money(Decimal("-0.0000"))
    ('7.00', '-0.0125', '0.00')
    """
    if amount == 0:
        amount = Decimal(0)
    places = money_places(amount)
    return f"{amount.quantize(_QUANTA.get(places) or Decimal(1).scaleb(-places)):f}"


def format_list(items: Sequence[str]) -> Text:
    """Names (or phrases) joined as the active language lists them: "Ana, Ben and Cyril", "Ana, Ben a Cyril".

    >>> format_list(["Ana"]), format_list(["Ana", "Ben"]), format_list(["Ana", "Ben", "Cyril"])
    ('Ana', 'Ana and Ben', 'Ana, Ben and Cyril')
    """
    return Text(_list([str(item) for item in items]), lambda: {"list": [source_of(item) for item in items]})


def _list(items: Sequence[str]) -> str:
    if len(items) < 2:
        return "".join(items)
    # No comma before the last item in any of the four languages (English as the players write it, too). N_ marks
    # the message for xgettext and the catalogue tests, which do not know _plain_gettext.
    return _plain_gettext(N_("%(items)s and %(last)s")) % {"items": ", ".join(items[:-1]), "last": items[-1]}


# --------------------------------------------------------------------------------------------------------------
# Texts that can be said again in another language


# How a text was made, as JSON: a literal (a player's name, digits), a number, or an object naming a message and its
# parameters ({"t": msgid, "c": context, "p": {name: source}}; "tp"/"n" for a plural), an amount ({"m": "3.20",
# "cur": "CZK"}), a number ({"num": "-3.2", "pl": 2}), a list of names ({"list": [...]}), a concatenation
# ({"cat": [...]}), a capitalised text ({"cap": source}), or, for a hand stored before texts had sources, the text
# as it was written in each language ({"by_language": {"en": …, "cs": …}}).
Source: TypeAlias = "str | int | dict[str, Any]"


class Text(str):
    """A text in the active language that remembers how it was made, so that :func:`render` can say it again in
    any language without pricing the hand again.

    It is a ``str`` (what the engine's callers and tests compare and print is the text in the active language), and
    ``source`` is the JSON the ledger stores. The lookups (:func:`gettext`, :func:`pgettext`, :func:`ngettext`), the
    formatters and ``%`` with a mapping keep the source; other ``str`` operations (slicing, ``+``, f-strings) return a
    plain ``str``, whose source is the literal text: build composite texts with :func:`concat` and
    :func:`capitalised` instead.

    >>> with override("cs"):
    ...     said = pgettext("marias", "%(contract)s in hearts (lepší)") % {"contract": pgettext("marias", "hra")}
    >>> said, render(said.source, "de"), render(said.source, "en")
    ('lepší hra', 'Hra in Herz (lepší)', 'hra in hearts (lepší)')
    """

    # The source, or a function that makes it: most texts are parts of a bigger one and are never asked for theirs,
    # so the JSON is built once, when the ledger stores the hand, not at every lookup.
    _how: Source | Callable[[], Source]

    def __new__(cls, shown: str, source: Source | Callable[[], Source] | None = None) -> Text:
        text = super().__new__(cls, shown)
        text._how = shown if source is None else source
        return text

    @property
    def source(self) -> Source:
        how = self._how
        if callable(how):
            how = self._how = how()
        return how

    def __mod__(self, params: object) -> str:
        shown = str.__mod__(self, params)
        return Text(shown, lambda: _with_parameters(self.source, params, shown))


def _with_parameters(template: Source, params: object, shown: str) -> Source:
    """The source of ``template % params``: the message with its parameters, or the literal text it came to."""
    if not isinstance(template, dict) or "t" not in template or "p" in template:
        return shown
    if isinstance(params, Mapping):
        return {**template, "p": {str(name): source_of(value) for name, value in params.items()}}
    values = params if isinstance(params, tuple) else (params,)
    return {**template, "p": [source_of(value) for value in values]}


def source_of(value: object) -> Source:
    """The :data:`Source` of a message parameter: a :class:`Text`'s own, an integer as it is, anything else as the
    literal text it prints as."""
    if isinstance(value, Text):
        return value.source
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return str(value)


def concat(*parts: str) -> Text:
    """The parts one after another, each said again in the reader's language (an f-string would freeze them).

    >>> with override("de"):
    ...     said = concat(pgettext("marias", "re"), ": ", format_money(Decimal("-3.2"), "CZK"))
    >>> said, render(said.source, "en")
    ('Re: −3,20\xa0Kč', 're: −3.20\xa0Kč')
    """
    return Text("".join(parts), lambda: {"cat": [source_of(part) for part in parts]})


def joined(separator: str, parts: Sequence[str]) -> Text:
    """``separator.join(parts)``, keeping each part's source."""
    pieces: list[str] = []
    for index, part in enumerate(parts):
        if index:
            pieces.append(separator)
        pieces.append(part)
    return concat(*pieces)


def capitalised(text: str) -> Text:
    """The text with its first letter capitalised, in whichever language it is said."""
    return Text(_capital(text), lambda: {"cap": source_of(text)})


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def render(source: Source, language: str | None = None) -> str:
    """The text a :data:`Source` describes, in ``language`` (the active one by default).

    >>> source = {"cat": [{"t": "re", "c": "marias"}, ": ", {"m": "-3.2", "cur": "EUR", "pl": None}]}
    >>> render({"num": "1E+3", "pl": None}), render({"num": "-7", "pl": 0}, "cs")
    ('1000', '−7')
    >>> render(source, "en"), render(source, "de")
    ('re: −€3.20', 'Re: −3,20\\xa0€')
    """
    if language is not None:
        with override(language):
            return _render(source)
    return _render(source)


def _render(source: Source) -> str:
    if isinstance(source, str):
        return source
    if isinstance(source, int):
        return str(source)
    if "t" in source:
        return _render_message(source)
    if "m" in source:
        return _money(Decimal(source["m"]), source["cur"], source.get("pl"))
    if "num" in source:
        return _number(Decimal(source["num"]), source.get("pl"))  # an integer reads the same as a Decimal
    if "list" in source:
        return _list([_render(item) for item in source["list"]])
    if "cat" in source:
        return "".join(_render(part) for part in source["cat"])
    if "cap" in source:
        return _capital(_render(source["cap"]))
    if "by_language" in source:
        written: dict[str, str] = source["by_language"]
        return written.get(get_language()) or written.get(DEFAULT_LANGUAGE) or next(iter(written.values()), "")
    raise ValueError(f"not a text source: {source!r}")


def _render_message(source: dict[str, Any]) -> str:
    if "tp" in source:
        template = _plain_ngettext(source["t"], source["tp"], source["n"])
    elif "c" in source:
        template = _plain_pgettext(source["c"], source["t"])
    else:
        template = _plain_gettext(source["t"])
    params = source.get("p")
    if params is None:
        return template
    if isinstance(params, dict):
        return template % {name: _parameter(value) for name, value in params.items()}
    return template % tuple(_parameter(value) for value in params)


def _parameter(source: Source) -> str | int:
    # Integers stay integers, for "%(count)d" and for the plural form chosen by "n".
    return source if isinstance(source, int) else _render(source)

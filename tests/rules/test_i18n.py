"""The rules engine's languages: every message translated, placeholders intact, catalogues compiled, formatting.

The messages are found the way xgettext finds them (``make rules-messages``), but with an AST walk over every
``.py`` under ``rules/``, so this test needs no gettext tools: the first argument of ``_()``, ``gettext()``, ``N_()``,
both arguments of ``ngettext()``, and the context and message of ``pgettext()`` and ``NP_()``.
"""

from __future__ import annotations

import ast
import gettext
import io
import json
import re
import threading
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

import rules
from rules import i18n
from rules.__main__ import main
from rules.base import Option, RulesError, format_money, format_number

RULES_DIR = Path(rules.__file__).resolve().parent
LOCALE = RULES_DIR / "locale"
TRANSLATED = ("cs", "sk", "de")  # English is the source: its msgstr may stay empty
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdr]|\{(\w+)\}")
NBSP = "\N{NO-BREAK SPACE}"

# name -> (index of the context or None, indexes of the messages)
KEYWORDS: dict[str, tuple[int | None, tuple[int, ...]]] = {
    "_": (None, (0,)),
    "gettext": (None, (0,)),
    "N_": (None, (0,)),
    "ngettext": (None, (0, 1)),
    "pgettext": (0, (1,)),
    "NP_": (0, (1,)),
}

Key = tuple[str | None, str]  # (context, msgid)


# --------------------------------------------------------------------------------------------------------------
# Reading the source and the catalogues


@dataclass
class Entry:
    context: str | None = None
    msgid: str = ""
    plural: str | None = None
    msgstr: list[str] = field(default_factory=list)
    fuzzy: bool = False


def _call_name(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def _literal(node: ast.expr) -> str:
    assert isinstance(node, ast.Constant) and isinstance(node.value, str), ast.dump(node)
    return node.value


def source_messages() -> dict[Key, str | None]:
    """(context, msgid) -> msgid_plural for every marked message in rules/ and its packages."""
    found: dict[Key, str | None] = {}
    for path in sorted(RULES_DIR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or _call_name(node) not in KEYWORDS:
                continue
            context_at, messages_at = KEYWORDS[_call_name(node) or ""]
            if not all(isinstance(node.args[i], ast.Constant) for i in messages_at):
                continue  # a variable: its literal is marked with N_ / NP_ where it is defined
            context = None if context_at is None else _literal(node.args[context_at])
            texts = [_literal(node.args[i]) for i in messages_at]
            found[(context, texts[0])] = texts[1] if len(texts) > 1 else None
    return found


def _unquote(text: str) -> str:
    value = ast.literal_eval(text)
    assert isinstance(value, str)
    return value


def parse_po(path: Path) -> tuple[dict[str, str], dict[Key, Entry]]:
    """A tiny .po reader: the header fields and the entries (obsolete ``#~`` entries are skipped)."""
    entries: list[Entry] = []
    current = Entry()
    last: str | None = None
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            if last is not None:
                entries.append(current)
            current, last = Entry(), None
        elif line.startswith("#,") and "fuzzy" in line:
            current.fuzzy = True
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            assert last is not None, line
            if last == "msgctxt":
                current.context = (current.context or "") + _unquote(line)
            elif last == "msgid":
                current.msgid += _unquote(line)
            elif last == "msgid_plural":
                current.plural = (current.plural or "") + _unquote(line)
            else:
                current.msgstr[-1] += _unquote(line)
        else:
            keyword, _space, value = line.partition(" ")
            last = keyword
            if keyword == "msgctxt":
                current.context = _unquote(value)
            elif keyword == "msgid":
                current.msgid = _unquote(value)
            elif keyword == "msgid_plural":
                current.plural = _unquote(value)
            else:
                assert keyword.startswith("msgstr"), line
                current.msgstr.append(_unquote(value))
    header = next(entry for entry in entries if entry.msgid == "" and entry.context is None)
    fields = dict(line.split(": ", 1) for line in header.msgstr[0].splitlines() if ": " in line)
    return fields, {(entry.context, entry.msgid): entry for entry in entries if entry is not header}


def placeholders(text: str) -> set[str]:
    return {match.group(1) or match.group(2) for match in PLACEHOLDER.finditer(text)}


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "rules.po"


SOURCE = source_messages()


# --------------------------------------------------------------------------------------------------------------
# Catalogues


def test_the_source_marks_a_few_hundred_messages() -> None:
    # A smoke test for the AST walk itself: it must see the messages every game says.
    assert len(SOURCE) > 250
    assert (None, "must be true or false") in SOURCE
    assert ("marias", "%(level)s on the sedma") in SOURCE
    assert SOURCE[(None, "%(count)s ten")] == "%(count)s tens"


@pytest.mark.parametrize("language", [*TRANSLATED, "en"])
def test_every_message_is_in_the_catalogue(language: str) -> None:
    entries = parse_po(po_path(language))[1]
    assert sorted(set(SOURCE) - set(entries), key=str) == [], "run `make rules-messages`, then translate"
    stale = sorted(set(entries) - set(SOURCE), key=str)
    assert stale == [], "messages no longer in rules/: run `make rules-messages`"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_has_a_translation(language: str) -> None:
    header, entries = parse_po(po_path(language))
    plurals = int(re.search(r"nplurals=(\d+)", header["Plural-Forms"]).group(1))  # type: ignore[union-attr]
    untranslated = []
    for key, plural in SOURCE.items():
        entry = entries.get(key)
        forms = 1 if plural is None else plurals
        if entry is None or entry.fuzzy or len(entry.msgstr) != forms or not all(entry.msgstr):
            untranslated.append(key)
    assert untranslated == [], f"{language}: no (or a fuzzy) translation"


@pytest.mark.parametrize("language", [*TRANSLATED, "en"])
def test_translations_keep_the_placeholders_of_the_message(language: str) -> None:
    entries = parse_po(po_path(language))[1]
    wrong = [
        (key, form)
        for key, entry in entries.items()
        for form in entry.msgstr
        if form and placeholders(form) != placeholders(entry.msgid) | placeholders(entry.plural or "")
    ]
    assert wrong == []


def test_the_placeholder_check_sees_a_dropped_or_renamed_placeholder() -> None:
    assert placeholders("%(player)s has %(points)s card points") == {"player", "points"}
    assert placeholders("%(player)s má body") != placeholders("%(player)s has %(points)s card points")
    assert placeholders("{name} in hearts") == {"name"}


def test_the_template_lists_the_same_messages_as_the_source() -> None:
    assert set(parse_po(LOCALE / "rules.pot")[1]) == set(SOURCE), "run `make rules-messages`"


@pytest.mark.parametrize("language", [*TRANSLATED, "en"])
def test_the_compiled_catalogue_matches_the_po_file(language: str) -> None:
    """The committed .mo holds exactly the translations of the .po (``make rules-compile`` after editing)."""
    header, entries = parse_po(po_path(language))
    expected: dict[object, str] = {}
    for (context, msgid), entry in entries.items():
        if entry.fuzzy or not all(entry.msgstr):
            continue  # msgfmt leaves these out, and gettext falls back to the English msgid
        key = msgid if context is None else f"{context}\x04{msgid}"
        if entry.plural is None:
            expected[key] = entry.msgstr[0]
        else:
            expected.update({(key, index): form for index, form in enumerate(entry.msgstr)})
    with (LOCALE / language / "LC_MESSAGES" / "rules.mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    catalog: dict[object, str] = dict(vars(compiled)["_catalog"])
    catalog.pop("", None)  # the header
    assert catalog == expected, "run `make rules-compile`"
    assert compiled.info()["plural-forms"] == header["Plural-Forms"]


def test_no_message_is_marked_inside_an_f_string() -> None:
    # xgettext does not look into f-strings, so a message marked there would never reach the catalogues.
    hidden = []
    for path in sorted(RULES_DIR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.JoinedStr):
                hidden += [
                    f"{path.relative_to(RULES_DIR)}:{call.lineno}"
                    for call in ast.walk(node)
                    if isinstance(call, ast.Call) and _call_name(call) in KEYWORDS
                ]
    assert hidden == []


# --------------------------------------------------------------------------------------------------------------
# The active language


def test_english_is_the_default_and_unknown_languages_fall_back_to_it() -> None:
    assert i18n.get_language() == "en"
    with i18n.override("fr"):
        assert i18n.get_language() == "en"
        assert i18n.gettext("must be true or false") == "must be true or false"
    with i18n.override(None):
        assert i18n.get_language() == "en"


@pytest.mark.parametrize(("code", "language"), [("cs", "cs"), ("cs-CZ", "cs"), ("sk_SK", "sk"), ("DE-at", "de")])
def test_it_understands_the_codes_browsers_and_django_send(code: str, language: str) -> None:
    with i18n.override(code):
        assert i18n.get_language() == language


def test_override_restores_the_language_even_after_an_error() -> None:
    with i18n.override("de"), pytest.raises(RulesError) as caught, i18n.override("cs"):
        rules.score({"game": "skat", "players": ["Ana", "Ben", "Cyril"], "hand": {"contract": "solo"}})
    assert caught.value.message.startswith("není povoleno")
    assert i18n.get_language() == "en"


def test_each_thread_has_its_own_language() -> None:
    seen: dict[str, str] = {}

    def price_in(language: str) -> None:
        i18n.activate(language)
        seen[language] = rules.score(_SKAT_S4).lines[0].detail

    threads = [threading.Thread(target=price_in, args=(language,)) for language in ("cs", "de")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == {"cs": "61 bodů", "de": "61 Augen"}
    assert rules.score(_SKAT_S4).lines[0].detail == "61 card points"


def test_czech_and_slovak_count_in_three_plural_forms() -> None:
    forms = {}
    for language in ("cs", "sk", "de", "en"):
        with i18n.override(language):
            forms[language] = [
                i18n.ngettext("%(points)s card point", "%(points)s card points", n) % {"points": n} for n in (1, 3, 61)
            ]
    assert forms == {
        "cs": ["1 bod", "3 body", "61 bodů"],
        "sk": ["1 bod", "3 body", "61 bodov"],
        "de": ["1 Auge", "3 Augen", "61 Augen"],
        "en": ["1 card point", "3 card points", "61 card points"],
    }


_SKAT_S4: dict[str, Any] = {
    "game": "skat",
    "players": ["Ana", "Ben", "Cyril"],
    "hand": {"declarer": "Ana", "contract": "grand", "hand": True, "matadors": 1, "declarer_points": 61},
}


# --------------------------------------------------------------------------------------------------------------
# Numbers and money


@pytest.mark.parametrize(
    ("language", "amount", "currency", "shown"),
    [
        ("cs", "3.20", "CZK", f"3,20{NBSP}Kč"),
        ("cs", "-3.2", "CZK", f"−3,20{NBSP}Kč"),
        ("sk", "1.44", "EUR", f"1,44{NBSP}€"),
        ("de", "1.44", "EUR", f"1,44{NBSP}€"),
        ("de", "-0.005", "EUR", f"−0,005{NBSP}€"),
        ("en", "1.44", "EUR", "€1.44"),
        ("en", "-1.44", "EUR", "−€1.44"),
        ("en", "3.20", "CZK", f"3.20{NBSP}Kč"),
        ("en", "-3.2000", "CZK", f"−3.20{NBSP}Kč"),
        ("cs", "5", "USD", f"5,00{NBSP}USD"),
    ],
)
def test_money_is_written_the_way_each_language_writes_it(
    language: str, amount: str, currency: str, shown: str
) -> None:
    with i18n.override(language):
        assert format_money(Decimal(amount), currency) == shown


@pytest.mark.parametrize(
    ("language", "amount", "places", "shown"),
    [
        ("cs", "-0.4", 2, "−0,40"),
        ("de", "12.5", 1, "12,5"),
        ("en", "-0.4", 2, "−0.40"),
        ("en", "-96", 0, "−96"),
        ("sk", "0.50", None, "0,5"),
    ],
)
def test_numbers_use_the_languages_decimal_mark_and_a_true_minus(
    language: str, amount: str, places: int | None, shown: str
) -> None:
    with i18n.override(language):
        assert format_number(Decimal(amount), places) == shown


def test_the_old_money_helpers_still_live_in_rules_base() -> None:
    from rules import base

    assert base.format_money is i18n.format_money
    assert base.format_number is i18n.format_number


# --------------------------------------------------------------------------------------------------------------
# Option help and the command line


def test_option_help_stays_the_english_msgid_and_is_translated_when_read() -> None:
    option = rules.game("skat").options["kontra"]
    assert option.help == "Kontra (×2) and Re (×4) on the game value, won or lost."
    with i18n.override("de"):
        assert option.translated_help() == "Kontra (×2) und Re (×4) auf den Spielwert, gewonnen oder verloren."
        assert i18n.option_help(option) == option.translated_help()
    assert i18n.option_help(Option(False, "not a known message")) == "not a known message"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_option_of_every_game_has_translated_help(language: str) -> None:
    with i18n.override(language):
        untranslated = [
            f"{name}.{option}"
            for name in rules.GAME_NAMES
            for option, spec in rules.game(name).options.items()
            if spec.translated_help() == spec.help
        ]
    assert untranslated == []


def _cli(argv: list[str], document: object = None) -> tuple[int, Any]:
    out = io.StringIO()
    status = main(argv, stdin=io.StringIO(json.dumps(document)), stdout=out)
    return status, json.loads(out.getvalue())


def test_the_cli_prints_the_result_in_the_language_asked() -> None:
    status, output = _cli(["score", "--lang", "de", "-"], _SKAT_S4)
    assert status == 0
    assert (output["label"], output["lines"][0]["label"]) == (
        "Grand Hand mit 1",
        "Grand mit 1, Spiel 2, Hand 3 × 24 = 72",
    )
    assert output["amounts"] == {"Ana": "1.44", "Ben": "-0.72", "Cyril": "-0.72"}  # amounts stay machine-readable
    assert i18n.get_language() == "en"


def test_the_cli_prints_errors_in_the_language_asked() -> None:
    status, output = _cli(["score", "--lang", "cs", "-"], _SKAT_S4 | {"hand": {"contract": "solo"}})
    assert status == 2
    assert output == {
        "field": "contract",
        "error": "není povoleno; povoleno: clubs, spades, hearts, diamonds, grand, null, ramsch, passed",
    }


def test_the_cli_lists_the_presets_with_translated_help() -> None:
    status, output = _cli(["presets", "--lang", "sk"])
    assert status == 0
    assert output["snapser"]["options"]["currency"]["help"] == "Mena, v ktorej je stávka."


def test_the_cli_refuses_a_language_it_does_not_speak(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["score", "--lang", "fr", "-"], stdin=io.StringIO("{}"), stdout=io.StringIO())
    assert "invalid choice" in capsys.readouterr().err

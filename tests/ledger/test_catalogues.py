"""The Django catalogues (locale/<lang>/LC_MESSAGES/django.po): complete, compiled, and in step with the source.

The .mo files are committed (a fresh machine needs no gettext), so these tests are what keeps them honest:
every message has a Czech, Slovak and German translation with the same placeholders, each committed .mo holds
exactly what msgfmt makes of its .po, and extracting the messages again (``make messages``) finds nothing new.
"""

from __future__ import annotations

import gettext
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

from tests.rules.test_i18n import parse_po, placeholders

LOCALE = Path(settings.BASE_DIR) / "locale"
TRANSLATED = ["cs", "sk", "de"]
LANGUAGES = [*TRANSLATED, "en"]
# Where `make messages` finds messages: everything else (rules/, tests/ …) is ignored there.
SOURCES = ["ledger", "templates"]


def po(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "django.po"


def test_the_four_languages_are_the_settings_languages() -> None:
    assert sorted(code for code, _name in settings.LANGUAGES) == sorted(LANGUAGES)


def test_the_catalogues_hold_a_few_hundred_messages() -> None:
    entries = parse_po(po("en"))[1]
    assert len(entries) > 250
    assert (None, "Record hand") in entries


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_has_a_translation(language: str) -> None:
    header, entries = parse_po(po(language))
    plurals = int(re.search(r"nplurals=(\d+)", header["Plural-Forms"]).group(1))  # type: ignore[union-attr]
    untranslated = [
        key
        for key, entry in entries.items()
        if entry.fuzzy or not all(entry.msgstr) or len(entry.msgstr) != (1 if entry.plural is None else plurals)
    ]
    assert untranslated == [], f"{language}: translate these in {po(language)}, then `make messages-compile`"


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_the_placeholders(language: str) -> None:
    entries = parse_po(po(language))[1]
    wrong = [
        key
        for key, entry in entries.items()
        for form in entry.msgstr
        if form and placeholders(form) != placeholders(entry.msgid) | placeholders(entry.plural or "")
    ]
    assert wrong == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_language_has_the_same_messages_as_english(language: str) -> None:
    assert set(parse_po(po(language))[1]) == set(parse_po(po("en"))[1]), "run `make messages`"


def _catalog(path: Path) -> dict[object, str]:
    with path.open("rb") as handle:
        catalog: dict[object, str] = dict(vars(gettext.GNUTranslations(handle))["_catalog"])
    return catalog


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_committed_mo_is_compiled_from_the_po(language: str, tmp_path: Path) -> None:
    fresh = tmp_path / "django.mo"
    msgfmt = shutil.which("msgfmt")
    assert msgfmt is not None, "GNU gettext's msgfmt is needed (make system-deps)"
    subprocess.run([msgfmt, "--check", "--output-file", str(fresh), str(po(language))], check=True)
    assert _catalog(LOCALE / language / "LC_MESSAGES" / "django.mo") == _catalog(fresh), "run `make messages-compile`"


def test_extracting_the_messages_again_finds_nothing_new(tmp_path: Path) -> None:
    """``make messages`` on a copy of the sources: the English catalogue it writes has no message ours lacks.

    makemessages writes into the locale directory it finds, so it runs in a scratch copy of the message sources
    (ledger/ and templates/, exactly what `make messages` reads) with a copy of locale/.
    """
    for name in SOURCES:
        shutil.copytree(Path(settings.BASE_DIR) / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(LOCALE, tmp_path / "locale")
    here = Path.cwd()
    os.chdir(tmp_path)
    try:
        with override_settings(LOCALE_PATHS=[]):
            call_command("makemessages", locale=["en"], add_location="file", no_obsolete=True, verbosity=0)
    finally:
        os.chdir(here)
    extracted = set(parse_po(tmp_path / "locale" / "en" / "LC_MESSAGES" / "django.po")[1])
    committed = set(parse_po(po("en"))[1])
    assert sorted(extracted - committed, key=str) == [], "new messages in the source: run `make messages`"
    assert sorted(committed - extracted, key=str) == [], "messages no longer in the source: run `make messages`"

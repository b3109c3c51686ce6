"""Who played, in the log: each row names the chooser or declarer, the partner or "alone", who flekked a laid game;
a Skat table shows list points beside the money (Seeger-Fabian's where the preset says so) and marks Bock hands.

On the table page (the full page and its htmx answers), on the share page (Bob, with the link) and in the PDF.
Every number below is worked out by hand from RULES.md.
"""

from __future__ import annotations

import html as html_lib
import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse
from pypdf import PdfReader

from ledger import services
from ledger.models import Table
from tests import factories

HX = {"HX-Request": "true"}
MARIAS = ["Ana", "Ben", "Cyril", "Dana"]
# Hra in hearts (lepší), 2 against 2: 0.20 × 2 = 0.40 to each of Ben and Dana, from each of Ana and Cyril.
PARTNERED = {"declarer": "Ben", "partner": "Dana", "contract": "hra", "trump": "hearts", "points": 60}
# Betl won alone (the chooser called nobody): 10 × 0.20 = 2.00 from each of the three, Cyril +6.00.
ALONE = {"declarer": "Cyril", "contract": "betl", "won": True}
# Hra in bells laid with a flek by Ana: 0.20 × 2 = 0.40 each to Dana and Ben; Ana pays her flek's increase for
# Cyril too: Ana −0.60, Cyril −0.20.
LAID_FLEKKED = {
    "declarer": "Dana",
    "partner": "Ben",
    "contract": "hra",
    "trump": "bells",
    "laid": True,
    "flek": {"hra": 1},
    "flekked_by": "Ana",
}

# Seeger-Fabian with Bock rounds, three seats, 0.01 a point (everybody pays everybody the difference):
# #1 Ana: clubs with 1, 60 card points: lost 60:60, −2 × 24 = −48, −50 more: Ana −98, Ben and Cyril +40 each;
#    money 0.01 × (3 × s − Σs), Σs = −18: Ana −2.76, Ben +1.38, Cyril +1.38. Lost 60:60 starts a Bock round.
LOST_60_60 = {"declarer": "Ana", "contract": "clubs", "matadors": 1, "declarer_points": 60}
# #2 Ben, inside the Bock round: grand with 1, 61: 48 × 2 (Bock) = 96, +50: Ben +146; Σs = 146: Ben +2.92,
#    Ana and Cyril −1.46 each.
GRAND_IN_BOCK = {"declarer": "Ben", "contract": "grand", "matadors": 1, "declarer_points": 61}
# After both: Ana −98, Ben +186, Cyril +40 list points; money Ana −4.22, Ben +4.30, Cyril −0.08.


def _text(fragment: str) -> str:
    """What a reader sees of some HTML: its text, entities said, whitespace collapsed."""
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def _row(page: str, number: int) -> str:
    """The text of log row #number (up to the next row or the end of the log)."""
    start = page.index(f'id="hand-{number}"')
    ends = [end for end in (page.find('class="hand-row', start), page.find("</ol>", start)) if end != -1]
    return _text(page[start : min(ends)])


def _seat(page: str, name: str) -> str:
    """The text of one seat of the scoreboard."""
    match = re.search(
        rf'<div class="seat[^"]*" data-player="{name}">(.*?)</div>\s*(?=<div class="seat|</section>)', page, re.S
    )
    assert match, name
    return _text(match.group(1))


@pytest.fixture
def marias_table(evening):
    table = factories.make_table(evening, "marias")
    for hand in (PARTNERED, ALONE, LAID_FLEKKED):
        factories.record(table, hand)
    return table


@pytest.fixture
def seeger_table(evening):
    table = factories.make_table(evening, "skat", preset="seeger-fabian", bock=True)
    factories.record(table, LOST_60_60)
    hand = factories.record(table, GRAND_IN_BOCK)[0]
    assert hand.document["bock"] == 1  # the ledger's Bock queue put it inside the round
    return table


# --------------------------------------------------------------------------------------------------------------
# Mariáš: the chooser, the partner or alone, who flekked


def _assert_marias_rows(page: str) -> None:
    first = _row(page, 1)
    assert "#1 Hra in hearts (lepší) Ben chose, Dana partnered Ana −0.40 Ben +0.40 Cyril −0.40 Dana +0.40" in first
    assert "alone" not in first and "flekked" not in first
    assert re.search(
        r"#2 Betl (voided )?Cyril chose and played alone Ana −2\.00 Ben −2\.00 Cyril \+6\.00 Dana −2\.00", _row(page, 2)
    )
    third = _row(page, 3)
    assert "Dana chose, Ben partnered; Ana flekked Ana −0.60 Ben +0.40 Cyril −0.20 Dana +0.40" in third
    # Mariáš keeps no list: no points beside the money, on the rows or the scoreboard.
    assert "List points" not in page and "Seeger-Fabian points" not in page


def test_the_table_page_names_the_chooser_the_partner_alone_and_who_flekked(alice_client, marias_table):
    _assert_marias_rows(alice_client.get(marias_table.get_absolute_url()).content.decode())


def test_the_log_redrawn_by_htmx_names_them_too(alice_client, marias_table):
    """Voiding a hand answers with the live part (scoreboard and log) swapped in by htmx."""
    hand = marias_table.hands.get(number=2)
    response = alice_client.post(reverse("ledger:hand_void", args=[hand.pk]), headers=HX)
    page = response.content.decode()
    assert page.startswith('<div id="table-live">')
    _assert_marias_rows(page)
    assert "voided" in _row(page, 2)


def test_earlier_hands_name_who_played(alice_client, marias_table):
    factories.record(marias_table, PARTNERED, times=10)  # #4..#13: the page shows #13..#4
    url = marias_table.get_absolute_url()
    page = alice_client.get(url).content.decode()
    assert 'id="hand-3"' not in page
    earlier = alice_client.get(url, {"log": "30", "before": "4"}, headers=HX).content.decode()
    assert 'hx-swap-oob="beforeend:#log-list"' in earlier
    _assert_marias_rows(earlier)


def test_the_share_page_names_them_for_a_player_with_the_link(bob_client, marias_table):
    url = reverse("ledger:shared_evening", args=[marias_table.evening.share_token])
    page = bob_client.get(url).content.decode()
    _assert_marias_rows(page)
    assert "Edit" not in _row(page, 1)  # read only
    partial = bob_client.get(url, headers=HX).content.decode()  # the page's own refresh
    assert partial.startswith('<div id="shared-live"')
    _assert_marias_rows(partial)


def test_a_four_seat_snapser_hand_without_partner_is_played_alone(alice_client, evening):
    four = factories.make_table(evening, "snapser", players=MARIAS)
    factories.record(four, factories.SNAPSER_N1)
    factories.record(four, factories.SNAPSER_N1 | {"declarer": "Ben", "partner": "Dana"})
    three = factories.make_table(evening, "snapser")
    factories.record(three, factories.SNAPSER_N1)
    page = alice_client.get(four.get_absolute_url()).content.decode()
    assert "Ana chose and played alone" in _row(page, 1)
    assert "Ben chose, Dana partnered" in _row(page, 2)
    # Three seats have no partners: the chooser plays against the others, nobody "alone".
    row = _row(alice_client.get(three.get_absolute_url()).content.decode(), 1)
    assert "Ana chose Ana +0.40 Ben −0.20 Cyril −0.20" in row and "alone" not in row


# --------------------------------------------------------------------------------------------------------------
# Skat: the declarer, list points beside the money, Bock


def _assert_seeger_rows(page: str) -> None:
    first = _row(page, 1)
    assert "#1 Clubs with 1 Ana declared Ana −2.76 Ben +1.38 Cyril +1.38" in first
    assert "Seeger-Fabian points: Ana −98 · Ben +40 · Cyril +40" in first
    assert "Bock" not in first.split("Why?")[0]  # played before the round it started
    second = _row(page, 2)
    assert "#2 Grand with 1 Bock Ben declared Ana −1.46 Ben +2.92 Cyril −1.46" in second
    assert "Seeger-Fabian points: Ben +146" in second  # only the declarer scored: a won game


def _assert_seeger_scoreboard(page: str) -> None:
    assert _seat(page, "Ana").startswith("Ana −4.22 Seeger-Fabian points: −98")
    assert _seat(page, "Ben").startswith("Ben +4.30 Seeger-Fabian points: +186")
    assert _seat(page, "Cyril").startswith("Cyril −0.08 Seeger-Fabian points: +40")


def test_a_seeger_fabian_table_shows_list_points_and_marks_the_bock_hand(alice_client, seeger_table):
    page = alice_client.get(seeger_table.get_absolute_url()).content.decode()
    _assert_seeger_rows(page)
    _assert_seeger_scoreboard(page)


def test_the_share_page_shows_the_list_points_and_the_bock(bob_client, seeger_table):
    url = reverse("ledger:shared_evening", args=[seeger_table.evening.share_token])
    for page in (bob_client.get(url).content.decode(), bob_client.get(url, headers=HX).content.decode()):
        _assert_seeger_rows(page)
        _assert_seeger_scoreboard(page)


def test_a_hand_recorded_through_htmx_swaps_in_its_row_and_the_list_totals(alice_client, seeger_table):
    """#3 Cyril, still inside the Bock round (one hand per seat): grand with 1, 61: 96 + 50 = +146."""
    revision = Table.objects.get(pk=seeger_table.pk).revision
    data = GRAND_IN_BOCK | {"declarer": "Cyril", "bock": "1", "dealer": "2", "key": "k3", "table_revision": revision}
    response = alice_client.post(reverse("ledger:hand_create", args=[seeger_table.pk]), data, headers=HX)
    page = response.content.decode()
    assert response.headers.get("HX-Reswap") == "none", _text(page)[:400]  # only what changed, out of band
    assert "#3 Grand with 1 Bock Cyril declared Ana −1.46 Ben −1.46 Cyril +2.92" in _row(page, 3)
    assert "Seeger-Fabian points: Cyril +146" in _row(page, 3)
    assert re.search(r'id="scoreboard"[^>]* hx-swap-oob="true"', page)
    assert _seat(page, "Ana").startswith("Ana −5.68 Seeger-Fabian points: −98")
    assert _seat(page, "Ben").startswith("Ben +2.84 Seeger-Fabian points: +186")
    assert _seat(page, "Cyril").startswith("Cyril +2.84 Seeger-Fabian points: +186")


def test_a_classic_list_shows_the_declarers_points(alice_client, evening):
    """ISkO: S1 (grand with 1, 61) is +48 for the declarer and nothing for the others; S2 (60) −96."""
    table = factories.make_table(evening, "skat")
    factories.record(table, factories.SKAT_S1)
    factories.record(table, factories.SKAT_S1 | {"declarer": "Ben", "declarer_points": 60})
    page = alice_client.get(table.get_absolute_url()).content.decode()
    assert "Ana declared Ana +0.96 Ben −0.48 Cyril −0.48 List points: Ana +48 Why?" in _row(page, 1)
    assert "Ben declared Ana +0.96 Ben −1.92 Cyril +0.96 List points: Ben −96 Why?" in _row(page, 2)
    assert "Seeger-Fabian points" not in page and "Bock" not in _row(page, 1) + _row(page, 2)
    assert _seat(page, "Ana").startswith("Ana +1.92 List points: +48")
    assert _seat(page, "Ben").startswith("Ben −2.40 List points: −96")


def test_a_voided_hand_leaves_the_list_totals(alice_client, seeger_table):
    services.hand_void(hand=seeger_table.hands.get(number=2), by=seeger_table.evening.owner)
    page = alice_client.get(seeger_table.get_absolute_url()).content.decode()
    assert _seat(page, "Ben").startswith("Ben +1.38 Seeger-Fabian points: +40")
    assert "Seeger-Fabian points: Ben +146" in _row(page, 2)  # the row still says what it was


def test_a_passed_in_hand_names_nobody(alice_client, evening):
    table = factories.make_table(evening, "skat")
    factories.record(table, {"declarer": None, "contract": "passed"})
    row = _row(alice_client.get(table.get_absolute_url()).content.decode(), 1)
    assert "declared" not in row and "List points" not in row


# --------------------------------------------------------------------------------------------------------------
# The PDF


def _pdf_texts(content: bytes, tmp_path: Path) -> list[str]:
    """The PDF read back as text, whitespace collapsed: by pypdf, and by poppler's pdftotext where installed."""
    reader = PdfReader(io.BytesIO(content))
    texts = [" ".join(page.extract_text() for page in reader.pages)]
    if shutil.which("pdftotext"):
        path = tmp_path / "summary.pdf"
        path.write_bytes(content)
        command = [shutil.which("pdftotext") or "pdftotext", "-enc", "UTF-8", str(path), "-"]
        texts.append(subprocess.run(command, capture_output=True, check=True).stdout.decode())
    return [" ".join(text.split()) for text in texts]


def test_the_pdf_says_who_played_the_list_points_and_the_bock(alice_client, marias_table, seeger_table, tmp_path):
    response = alice_client.get(reverse("ledger:evening_summary_pdf", args=[marias_table.evening.pk]))
    assert response.status_code == 200
    for text in _pdf_texts(response.content, tmp_path):
        assert "Hra in hearts (lepší) Ben chose, Dana partnered" in text
        assert "Betl Cyril chose and played alone" in text
        assert "Hra in bells, flek, laid Dana chose, Ben partnered; Ana flekked" in text
        assert "Clubs with 1 Ana declared Seeger-Fabian points: Ana −98 · Ben +40 · Cyril +40" in text
        assert "Grand with 1 · Bock Ben declared Seeger-Fabian points: Ben +146" in text
        assert "Ana −4.22 Seeger-Fabian points: −98" in text
        assert "Ben +4.30 Seeger-Fabian points: +186" in text
        assert "Cyril −0.08 Seeger-Fabian points: +40" in text


def test_list_totals_add_up_under_any_name(alice_client, evening):
    """The database reads each player's points by name out of the stored scores: quotes, dots and diacritics too.

    O'Neil +48 +72 = +120, J. \"Jo\" K. −96, Šárka 0; money 0.01 × (3 × s − 24): −0.24, +3.36, −3.12.
    """
    names = ["Šárka", "O'Neil", 'J. "Jo" K.']
    table = factories.make_table(evening, "skat", players=names)
    factories.record(table, factories.SKAT_S1 | {"declarer": "O'Neil"})  # +48
    factories.record(table, factories.SKAT_S1 | {"declarer": 'J. "Jo" K.', "declarer_points": 60})  # −96
    factories.record(table, factories.SKAT_S1 | {"declarer": "O'Neil", "matadors": 2})  # grand with 2: +72
    page = alice_client.get(table.get_absolute_url()).content.decode()
    assert _seat(page, "Šárka").startswith("Šárka −0.24 List points: 0")
    assert _seat(page, "O&#x27;Neil").startswith("O'Neil +3.36 List points: +120")
    assert _seat(page, "J. &quot;Jo&quot; K.").startswith('J. "Jo" K. −3.12 List points: −96')

"""The offline entry on the server: what the table page gives its offline worker, the worker's code, and the door
for queued hands.

The worker runs ``ledger/offline/pricing.py`` under Pyodide; here the same module runs in CPython on the state and
the form fields the page holds, and must come to exactly what Record stores: the price, the dealer, the hand's
number, and the form drawn for the next hand (tests/e2e/test_offline.py runs it in the browser).
"""

from __future__ import annotations

import io
import json
import zipfile
from decimal import Decimal
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ledger import services
from ledger.models import Hand
from ledger.offline import bundle as offline_bundle
from ledger.offline import pricing as offline
from ledger.templatetags.talon import money
from tests import factories

pytestmark = pytest.mark.django_db


class _FormFields(HTMLParser):
    """The fields the hand form would post untouched: hidden and number inputs, checked radios and checkboxes, the
    selected option of a select (the dealer)."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.select = ""
        self.fields: list[list[str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "form" and found.get("id") == "hand-form":
            self.inside = True
        if self.inside and tag == "select":
            self.select = str(found["name"])
        if self.inside and tag == "option" and "selected" in found:
            self.fields.append([self.select, str(found["value"])])
        if not self.inside or tag != "input" or not found.get("name"):
            return
        kind = found.get("type", "text")
        if kind in ("radio", "checkbox") and "checked" not in found:
            return
        default = "on" if kind == "checkbox" else ""  # what a browser posts for a ticked box without a value
        self.fields.append([str(found["name"]), str(found.get("value") or default)])

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False


def form_fields(html: str) -> list[list[str]]:
    parser = _FormFields()
    parser.feed(html)
    return parser.fields


def offline_state(html: str) -> offline.OfflineState:
    start = html.index('<script id="offline-state" type="application/json">') + len(
        '<script id="offline-state" type="application/json">'
    )
    return json.loads(html[start : html.index("</script>", start)])  # type: ignore[no-any-return]


def tapped(fields: list[list[str]], taps: dict[str, str]) -> list[list[str]]:
    """The form's fields with these taps: each tapped name takes the tapped value."""
    return [[name, value] for name, value in fields if name not in taps] + [[k, v] for k, v in taps.items()]


def without_stamps(fields: list[list[str]]) -> list[list[str]]:
    """A fresh form's fields without the per-request stamps (its key, the CSRF token)."""
    return sorted(field for field in fields if field[0] not in ("key", "csrfmiddlewaretoken"))


HANDS = {
    "marias": [
        {"trump": "hearts", "partner": "Dana", "won": "won"},
        {"trump": "bells", "partner": " alone", "won": "lost"},
        {"trump": "leaves", "partner": "Ana", "won": "won"},
    ],
    "snapser": [
        {"trump": "bells", "result": "s_vodou"},
        {"trump": "acorns", "winner": "defenders", "result": "bez_vody"},
    ],
    "skat": [
        {"declarer_points": "60"},  # lost 60:60: a Bock round at a pub table
        {"contract": "grand", "matadors": "2", "declarer_points": "95"},
        {"contract": "hearts", "declarer_points": "70"},
        {"contract": "spades", "declarer_points": "31"},
    ],
}


@pytest.mark.parametrize("game", ["marias", "snapser", "skat"])
def test_the_worker_prices_and_draws_as_record_stores(alice_client, evening, game):
    """Hand after hand, ``ledger.offline.pricing`` (the worker's code) comes to what Record stores, and draws the same
    next form as the page: the Bock rounds of a pub Skat table, the dealer, the usual contract all carry over alike."""
    table = factories.make_table(evening, game, **({"preset": "pub"} if game == "skat" else {}))
    for number, taps in enumerate(HANDS[game], start=1):
        page = alice_client.get(table.get_absolute_url()).content.decode()
        state = offline_state(page)
        if game == "skat":  # the declarer is a record button: tapped, the forehand (the dealer sits out)
            dealer = offline.next_hand(state, []).dealer
            taps = taps | {"declarer": table.seat_names[(dealer + 1) % len(table.seat_names)]}
        fields = tapped(form_fields(page), taps)
        answer = json.loads(offline.dispatch(json.dumps({"call": "queue", "state": state, "queued": []})))
        assert without_stamps(form_fields(answer["form"])) == without_stamps(form_fields(page)), "the fresh form"
        queued = {"key": dict(fields)["key"], "fields": fields, "status": "waiting", "reason": ""}
        answer = json.loads(
            offline.dispatch(json.dumps({"call": "queue", "state": state, "queued": [queued], "tapped": queued["key"]}))
        )
        assert not answer["refused"], answer.get("form")
        priced = answer["tapped"]
        response = alice_client.post(reverse("ledger:hand_create", args=[table.pk]), dict(fields))
        assert response.status_code == 302
        hand = Hand.objects.get(table=table, number=number)
        assert priced["number"] == hand.number
        assert priced["key"] == hand.key
        assert priced["dealer"] == hand.dealer
        assert priced["document"] == hand.document
        assert priced["amounts"] == hand.result["amounts"]
        assert priced["bock_rounds"] == int(hand.result.get("bock_rounds") or 0)
        assert priced["label"] == hand.label
    if game == "skat":
        assert Hand.objects.filter(table=table, number=2).get().document["bock"] == 1  # the queue really carried


def test_the_queue_prices_hands_after_each_other_and_refuses_a_bad_tap(alice_client, evening):
    """Two hands queued offline: the second is priced after the first (its dealer, the provisional balances); a tap
    the form refuses comes back as the form with the error beside its field, and is not counted."""
    table = factories.make_table(evening, "marias")
    page = alice_client.get(table.get_absolute_url()).content.decode()
    state, fields = offline_state(page), form_fields(page)
    first = {"key": "a" * 32, "fields": tapped(fields, HANDS["marias"][0] | {"key": "a" * 32}), "status": "waiting"}
    second = {"key": "b" * 32, "fields": tapped(fields, HANDS["marias"][1] | {"key": "b" * 32}), "status": "waiting"}
    answer = json.loads(offline.dispatch(json.dumps({"call": "queue", "state": state, "queued": [first, second]})))
    assert [hand["number"] for hand in answer["priced"]] == [1, 2]
    assert [hand["dealer"] for hand in answer["priced"]] == [0, 0]  # both drawn for Ana: the form says so
    totals = offline.balances(state, answer["priced"])
    assert sum(totals.values()) == 0
    assert totals == {
        name: sum(
            (services.hand_price(table=table, hand=hand["document"]).amounts[name] for hand in answer["priced"]),
            start=0,
        )
        for name in table.seat_names
    }
    assert "Provisional: with 2 hands not sent yet." in answer["scoreboard"]
    assert answer["rows"].count("waiting to send") == 2
    bad = {"key": "c" * 32, "fields": tapped(fields, {"won": "won", "key": "c" * 32}), "status": "waiting"}
    answer = json.loads(
        offline.dispatch(json.dumps({"call": "queue", "state": state, "queued": [bad], "tapped": bad["key"]}))
    )
    assert answer["refused"]
    assert 'id="errors-trump"' in answer["form"] and "Tap one" in answer["form"]
    assert answer["priced"] == []


def test_a_table_phone_not_playing_for_money_shows_no_money_offline_either(alice_client, evening):
    """The phone of a tournament table not played for money (``game_only`` in its page's state): the hands it keeps
    offline are priced, but neither the provisional scoreboard nor the queue shows an amount."""
    table = factories.make_table(evening, "marias")
    page = alice_client.get(table.get_absolute_url()).content.decode()
    state, fields = offline_state(page), form_fields(page)
    assert state["game_only"] is False  # the scorekeeper's own page
    queued = {"key": "a" * 32, "fields": tapped(fields, HANDS["marias"][0] | {"key": "a" * 32}), "status": "waiting"}
    with_money = json.loads(offline.dispatch(json.dumps({"call": "queue", "state": state, "queued": [queued]})))
    state["game_only"] = True
    game_only = json.loads(offline.dispatch(json.dumps({"call": "queue", "state": state, "queued": [queued]})))
    amounts = with_money["priced"][0]["amounts"]
    shown = [money(Decimal(amount)) for amount in amounts.values() if Decimal(amount)]
    assert shown and all(amount in with_money["rows"] and amount in with_money["scoreboard"] for amount in shown)
    assert not any(amount in game_only["rows"] or amount in game_only["scoreboard"] for amount in shown)
    assert game_only["priced"] == with_money["priced"]  # priced alike: the server's price counts either way


def test_the_page_embeds_the_tables_state(alice_client, evening, alice):
    table = factories.make_table(evening, "skat", preset="pub")
    factories.record(table, {"declarer": "Ben", "contract": "clubs", "matadors": 1, "declarer_points": 60})
    page = alice_client.get(table.get_absolute_url()).content.decode()
    state = offline_state(page)
    assert state["table"] == table.pk and state["game"] == "skat" and state["open"]
    assert state["seats"] == table.seat_names
    amounts = Hand.objects.get(table=table).amounts
    assert {name: Decimal(amount) for name, amount in state["balances"].items()} == {
        name: amounts.get(name, Decimal(0)) for name in table.seat_names
    }
    assert state["next_number"] == 2
    assert state["dealt"] == [[0, 1]]  # Ana dealt the hand that started a Bock round
    assert state["contracts"] == ["clubs"]
    assert state["user"] == alice.pk
    assert state["sync"] == reverse("ledger:hand_queued", args=[table.pk])
    # The htmx answer to Record swaps the state with the scoreboard.
    page_state_revision = state["revision"]
    fields = dict(tapped(form_fields(page), {"declarer": "Cyril", "declarer_points": "70"}))  # Ben deals
    answer = alice_client.post(reverse("ledger:hand_create", args=[table.pk]), fields, headers={"HX-Request": "true"})
    html = answer.content.decode()
    assert 'id="offline-state-box" hx-swap-oob="true"' in html
    assert offline_state(html)["next_number"] == 3
    assert offline_state(html)["revision"] == page_state_revision + 1


# -- the door for queued hands ------------------------------------------------------------------------------------


def _queued(client: Any, table: Any, fields: dict[str, str]) -> Any:
    return client.post(reverse("ledger:hand_queued", args=[table.pk]), fields)


def _marias_fields(client: Any, table: Any, taps: dict[str, str]) -> dict[str, str]:
    return dict(tapped(form_fields(client.get(table.get_absolute_url()).content.decode()), taps))


def test_a_queued_hand_is_stored_once_whatever_the_repeats(alice_client, evening):
    table = factories.make_table(evening, "marias")
    fields = _marias_fields(alice_client, table, HANDS["marias"][0])
    first = _queued(alice_client, table, fields)
    again = _queued(alice_client, table, fields)  # the answer was lost on the way: the phone sends it again
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert first.json()["number"] == 1 and first.json()["stored"]
    assert first.json()["amounts"] == {"Ana": "-0.40", "Ben": "0.40", "Cyril": "-0.40", "Dana": "0.40"}
    assert Hand.objects.filter(table=table).count() == 1


def test_a_refused_queued_hand_says_why_and_stores_nothing(alice_client, evening, alice):
    table = factories.make_table(evening, "marias")
    missing = _queued(alice_client, table, _marias_fields(alice_client, table, {"won": "won"}))
    assert missing.status_code == 200 and not missing.json()["stored"]
    assert any(reason.startswith("Trump: Tap one") for reason in missing.json()["errors"])
    fields = _marias_fields(alice_client, table, HANDS["marias"][0])
    services.evening_close(evening=evening, by=alice)
    closed = _queued(alice_client, table, fields)
    assert not closed.json()["stored"]
    assert "closed" in " ".join(closed.json()["errors"])
    assert Hand.objects.filter(table=table).count() == 0


def test_queued_hands_are_the_scorekeepers_alone(charlie_client, evening):
    table = factories.make_table(evening, "marias")
    fields = {"trump": "hearts", "partner": "Dana", "won": "won", "declarer": "Ben", "contract": "hra"}
    assert _queued(charlie_client, table, fields).status_code == 404  # a stranger: no hint the table exists
    client = Client()  # nobody logged in
    anonymous = _queued(client, table, fields)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert client.get(reverse("ledger:hand_queued", args=[table.pk])).status_code in (302, 405)
    assert Hand.objects.filter(table=table).count() == 0


# -- the worker and its code ----------------------------------------------------------------------------------------


def test_only_the_worker_may_compile_webassembly(alice_client, evening):
    from ledger.offline.bundle import worker_name

    table = factories.make_table(evening, "marias")
    page = alice_client.get(table.get_absolute_url())
    assert "unsafe-eval" not in page["Content-Security-Policy"]
    assert "script-src 'self';" in page["Content-Security-Policy"]
    worker = alice_client.get(reverse("ledger:pricing_worker", args=[worker_name()]))
    assert worker.status_code == 200 and worker["Content-Type"].startswith("text/javascript")
    policy = worker["Content-Security-Policy"]
    assert "script-src 'self' 'wasm-unsafe-eval';" in policy
    assert "'unsafe-eval'" not in policy and "'unsafe-inline'" not in policy
    assert b"loadPyodide" in worker.content
    assert alice_client.get(reverse("ledger:pricing_worker", args=["worker-0"])).status_code == 404
    # The page names the worker and the bundle it loads, and where Pyodide is (vendored by `make`, never a CDN).
    html = page.content.decode()
    assert f'data-worker="/offline/{worker_name()}.js"' in html
    assert f'data-bundle="/offline/{offline_bundle.bundle_name()}"' in html
    assert 'data-pyodide="/static/vendor/pyodide/"' in html


def test_the_bundle_holds_the_servers_own_code(client):
    response = client.get(reverse("ledger:pricing_bundle", args=[offline_bundle.bundle_name()]))
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert "immutable" in response["Cache-Control"]
    names = set(zipfile.ZipFile(io.BytesIO(response.content)).namelist())
    assert {
        "ledger/offline/pricing.py",
        "ledger/hand_forms/marias.py",
        "rules/skat/__init__.py",
        "rules/locale/cs/LC_MESSAGES/rules.mo",
    } <= names
    assert {"templates/ledger/_hand_form.html", "locale/de/LC_MESSAGES/django.mo", "django/forms/forms.py"} <= names
    assert not any(name.startswith(("django/contrib/", "ledger/models", "ledger/services")) for name in names)
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        skat = "rules/skat/__init__.py"
        assert archive.read(skat) == Path(offline_bundle.settings.BASE_DIR, skat).read_bytes()
    assert client.get(reverse("ledger:pricing_bundle", args=["bundle-0.zip"])).status_code == 404


def test_pyodide_keeps_its_own_cache_across_releases(client):
    """The service worker keeps Pyodide in a cache named by Pyodide's version (put there by .ci/pyodide), and the
    release version leaves Pyodide's 13 MB out, so a new release of Talon is not a new download of Pyodide."""
    from ledger.offline import pwa

    version = (Path(__file__).resolve().parents[3] / "static/vendor/pyodide/VERSION").read_text().strip()
    assert pwa.pyodide_version() == version
    script = client.get(reverse("service_worker")).content.decode()
    assert f'const PYODIDE = "{version}";' in script
    assert '"talon-pyodide-" + PYODIDE' in script


def test_the_usual_contract_slides_over_the_servers_window(alice_client, evening):
    """The server picks the usual contract from the newest 30 counted hands; the phone slides that window on with
    the hands it keeps, so both pre-select the same contract."""
    clubs = {"declarer": "Ben", "contract": "clubs", "matadors": 1, "declarer_points": 70}
    grand = {"declarer": "Ben", "contract": "grand", "matadors": 1, "declarer_points": 70}
    table = factories.make_table(evening, "skat")
    factories.record(table, clubs, times=16)
    factories.record(table, grand, times=14)
    state = offline_state(alice_client.get(table.get_absolute_url()).content.decode())
    phone = offline.usual_contract(state, [{"contract": "grand"}, {"contract": "grand"}])
    factories.record(table, grand, times=2)
    server = offline.usual_contract(offline_state(alice_client.get(table.get_absolute_url()).content.decode()), [])
    assert phone == server == "grand"


def test_record_says_which_hand_it_stored(alice_client, evening):
    """The header the page's queue reads to take a kept hand off the phone: only on a hand stored."""
    table = factories.make_table(evening, "marias")
    fields = _marias_fields(alice_client, table, HANDS["marias"][0])
    url = reverse("ledger:hand_create", args=[table.pk])
    stored = alice_client.post(url, fields, headers={"HX-Request": "true"})
    assert stored["X-Talon-Recorded"] == fields["key"]
    refused = alice_client.post(
        url, _marias_fields(alice_client, table, {"won": "won"}), headers={"HX-Request": "true"}
    )
    assert refused.status_code == 200 and "X-Talon-Recorded" not in refused

"""The person's data to take away (JSON, CSV), read back; and what deleting the account does to their claims."""

from __future__ import annotations

import csv
import io
import json

import pytest
from allauth.account.models import EmailAddress
from django.urls import reverse
from rest_framework.authtoken.models import Token

from ledger import hooks
from ledger.models import Player, UserPreference
from ledger.people.models import PlayerClaim
from ledger.people.services import player_claim_grant as grant
from ledger.people.services import player_claim_request
from tests import factories
from tests.ledger.people.worlds import bobs_world


@pytest.fixture
def world(alice, bob):
    return bobs_world(alice, bob)


def _download(client, user, name):
    client.force_login(user)
    response = client.get(reverse(name))
    assert response.status_code == 200
    return response


def test_the_json_holds_the_account_claims_and_his_players_hands(world, client, bob):
    bob.email = "bob@example.org"
    bob.save()
    EmailAddress.objects.create(user=bob, email="bob@example.org", verified=True, primary=True)
    token = Token.objects.create(user=bob)
    UserPreference.objects.create(user=bob, language="cs")

    response = _download(client, bob, "people:me_data")
    document = json.loads(b"".join(response.streaming_content) if response.streaming else response.content)

    assert response["Content-Disposition"] == 'attachment; filename="talon-my-data.json"'
    assert "no-store" in response["Cache-Control"]  # no shared computer keeps a copy
    assert document["format"] == "talon-person/1"
    assert document["account"]["username"] == "bob"
    assert document["account"]["email"] == "bob@example.org"
    assert document["preferences"] == {"language": "cs"}
    assert document["sign_in"] == {
        "email_addresses": [{"email": "bob@example.org", "verified": True, "primary": True}],
        "passkeys": [],
        "api_token": True,
    }
    assert token.key not in response.content.decode()  # no secret leaves in the download
    assert [(c["player"], c["scorekeeper"], c["status"], c["how"]) for c in document["claims"]] == [
        ("Ben", "alice", "approved", "share_link"),
        ("Bobby", "dana", "approved", "invitation"),
    ]
    played = {(e["date"], e["scorekeeper"]): e for e in document["evenings_played"]}
    assert sorted(played) == [
        ("2026-11-06", "alice"),
        ("2026-11-07", "dana"),
        ("2026-11-13", "alice"),
        ("2026-11-14", "dana"),
    ]
    first = played[("2026-11-06", "alice")]
    assert first["net"] == "-0.20"
    assert [(h["number"], h["player"], h["amount"], h["document"]["declarer"]) for h in first["hands"]] == [
        (1, "Ben", "-0.20", "Ana")
    ]
    # Only his players' postings: nobody else's amounts.
    assert {h["player"] for e in document["evenings_played"] for h in e["hands"]} == {"Ben", "Bobby"}
    assert document["evenings_kept"] == []
    assert document["players_kept"] == []


def test_a_scorekeepers_json_holds_the_evenings_they_keep_and_their_players(world, client, alice):
    document = json.loads(_download(client, alice, "people:me_data").content)

    assert [(e["date"], e["role"]) for e in document["evenings_kept"]] == [
        ("2026-11-06", "owner"),
        ("2026-11-13", "owner"),
    ]
    assert [p["name"] for p in document["players_kept"]] == ["Ana", "Ben", "Cyril"]
    assert document["evenings_played"] == []


def test_the_csv_reads_back_one_evening_a_row(world, client, bob):
    response = _download(client, bob, "people:me_evenings_csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert [(r["date"], r["scorekeeper"], r["players"], r["net"], r["currency"]) for r in rows] == [
        ("2026-11-14", "dana", "Bobby", "12.40", "CZK"),
        ("2026-11-13", "alice", "Ben", "0.40", "EUR"),
        ("2026-11-07", "dana", "Bobby", "-6.20", "CZK"),
        ("2026-11-06", "alice", "Ben", "-0.20", "EUR"),
    ]


def test_a_stranger_downloads_only_their_own_nothing(world, client, charlie):
    document = json.loads(_download(client, charlie, "people:me_data").content)
    rows = list(csv.reader(io.StringIO(_download(client, charlie, "people:me_evenings_csv").content.decode())))

    assert document["account"]["username"] == "charlie"
    assert document["claims"] == [] and document["evenings_played"] == []
    assert "Ben" not in json.dumps(document)
    assert rows == [["date", "place", "games", "scorekeeper", "players", "net", "currency", "status"]]


def test_deleting_the_account_drops_its_claims_and_the_players_keep_their_names(world, bob, charlie, alice):
    player_claim_request(user=bob, player=Player.objects.get(owner=alice, name="Cyril"), how="seat")

    hooks.account_deleting.send(hooks.AccountDeleting(user=bob))

    assert not PlayerClaim.objects.filter(user=bob).exists()
    assert Player.objects.filter(name__in=["Ben", "Bobby", "Cyril"]).count() == 3
    # Ben can now be claimed by someone else.
    assert player_claim_request(user=charlie, player=world["ben"], how="seat").status == "requested"


def test_the_account_deletion_service_drops_the_claims(world, bob):
    from ledger.accounts.services import account_delete

    account_delete(user=bob)

    assert not PlayerClaim.objects.exists()
    assert world["ben"].postings.count() == 2


def test_the_csv_writes_formulas_as_text(alice, bob, client):
    for name in ("+Plus", "-Minus", "@At"):
        evening = factories.make_evening(alice, place='=HYPERLINK("x")')
        factories.make_table(evening, "snapser", players=[name, "Ana", "Cyril"])
        player = Player.objects.get(owner=alice, name=name)
        grant(user=bob, player=player, granted_by=alice, how=PlayerClaim.How.INVITATION)

    rows = list(csv.DictReader(io.StringIO(_download(client, bob, "people:me_evenings_csv").content.decode())))

    assert [row["place"] for row in rows] == ['\'=HYPERLINK("x")'] * 3
    assert sorted(row["players"] for row in rows) == ["'+Plus", "'-Minus", "'@At"]
    assert {row["net"] for row in rows} == {"0.00"}

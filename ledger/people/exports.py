"""Everything Talon holds about a person, for them to take away: JSON, and their evenings as CSV.

What the JSON holds: the account's fields, how it signs in (no secret) and its preferences, the claims, the
players the person keeps (as a scorekeeper) and the evenings they own or keep score of, and for each evening one of
their players sat in, their players' hands there (each hand's document and result as stored, status and version)
and postings. Amounts are exact decimal strings, as the books keep them. The queries are a fixed number, whatever
the evenings and hands.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.db.models import Q
from django.utils import timezone
from rest_framework.authtoken.models import Token

from ledger.export import Cell, csv_cell
from ledger.models import Evening, Player, Posting, UserPreference
from ledger.people.models import PlayerClaim
from ledger.people.selectors import MyEvening, my_evenings, my_players
from rules.i18n import plain_money

FORMAT = "talon-person/1"


def _when(value: Any) -> str | None:
    return None if value is None else value.isoformat()


def person_document(user: Any) -> dict[str, Any]:
    """The whole download for ``user`` as a JSON-ready dict."""
    players = my_players(user)
    return {
        "format": FORMAT,
        "exported_at": timezone.now().isoformat(),
        "account": _account(user),
        "sign_in": _sign_in(user),
        "preferences": _preferences(user),
        "claims": _claims(user),
        "players_kept": _players_kept(user),
        "evenings_kept": _evenings_kept(user),
        "evenings_played": _evenings_played(players),
    }


def _account(user: Any) -> dict[str, Any]:
    return {
        "username": user.get_username(),
        "email": user.email,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "date_joined": _when(user.date_joined),
        "last_login": _when(user.last_login),
    }


def _sign_in(user: Any) -> dict[str, Any]:
    """How the account signs in, without any secret: its e-mail addresses, its passkeys (when made and last used,
    not the key), whether it has an API token (not the token)."""
    passkeys = Authenticator.objects.filter(user=user, type=Authenticator.Type.WEBAUTHN).order_by("created_at")
    return {
        "email_addresses": [
            {"email": address.email, "verified": address.verified, "primary": address.primary}
            for address in EmailAddress.objects.filter(user=user).order_by("email")
        ],
        "passkeys": [
            {
                "name": str(passkey.data.get("name", "")) if isinstance(passkey.data, dict) else "",
                "created_at": _when(passkey.created_at),
                "last_used_at": _when(passkey.last_used_at),
            }
            for passkey in passkeys
        ],
        "api_token": Token.objects.filter(user=user).exists(),
    }


def _preferences(user: Any) -> dict[str, Any]:
    preference = UserPreference.objects.filter(user=user).first()
    return {"language": preference.language if preference else ""}


def _claims(user: Any) -> list[dict[str, Any]]:
    claims = PlayerClaim.objects.filter(user=user).select_related("player__owner", "decided_by")
    return [
        {
            "player": claim.player.name,
            "scorekeeper": claim.player.owner.get_username(),
            "status": claim.status,
            "how": claim.how,
            "requested_at": _when(claim.requested_at),
            "decided_at": _when(claim.decided_at),
            "decided_by": claim.decided_by.get_username() if claim.decided_by else None,
        }
        for claim in claims.order_by("requested_at", "pk")
    ]


def _players_kept(user: Any) -> list[dict[str, Any]]:
    players = Player.objects.filter(owner=user).order_by("name")
    return [{"name": p.name, "iban": p.iban, "hide_stats": p.hide_stats} for p in players]


def _evenings_kept(user: Any) -> list[dict[str, Any]]:
    evenings = (
        Evening.objects.filter(Q(owner=user) | Q(scorekeepers=user))
        .distinct()
        .select_related("owner")
        .order_by("date", "pk")
    )
    return [
        {
            "id": evening.pk,
            "date": evening.date.isoformat(),
            "place": evening.place,
            "currency": evening.currency,
            "status": evening.status,
            "role": "owner" if evening.owner_id == user.pk else "scorekeeper",
        }
        for evening in evenings
    ]


def _evenings_played(players: list[Player]) -> list[dict[str, Any]]:
    evenings = {row.evening_id: _evening_played(row) for row in my_evenings(players)}
    postings = (
        Posting.objects.filter(player__in=players)
        .select_related("hand__table", "player")
        .order_by("hand__table__evening_id", "hand__table_id", "hand__number")
    )
    for posting in postings:
        hand = posting.hand
        evening = evenings.get(hand.table.evening_id)
        if evening is None:
            continue
        evening["hands"].append(
            {
                "table": hand.table_id,
                "game": hand.table.game,
                "seats": hand.table.seat_names,
                "number": hand.number,
                "version": hand.version,
                "status": hand.status,
                "document": hand.document,
                "result": hand.result,
                "entered_at": _when(hand.entered_at),
                "player": posting.player.name,
                "amount": plain_money(posting.amount),
            }
        )
    return list(evenings.values())


def _evening_played(row: MyEvening) -> dict[str, Any]:
    return {
        "id": row.evening_id,
        "date": row.date.isoformat(),
        "place": row.place,
        "currency": row.currency,
        "status": row.status,
        "scorekeeper": row.scorekeeper,
        "games": row.games,
        "players": row.players,
        "net": plain_money(row.net),
        "hands": [],
    }


CSV_HEADER = ["date", "place", "games", "scorekeeper", "players", "net", "currency", "status"]


def evenings_csv(user: Any) -> str:
    """The evenings the person's players sat in, one row each, newest first; the net exact, with a dot. Every cell
    is text a spreadsheet program reads as such: a place or a name starting like a formula gets an apostrophe."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    for row in my_evenings(my_players(user)):
        writer.writerow([csv_cell(cell) for cell in _csv_row(row)])
    return out.getvalue()


def _csv_row(row: MyEvening) -> list[Cell]:
    games, players = " + ".join(row.games), " + ".join(row.players)
    return [row.date, row.place, games, row.scorekeeper, players, row.net, row.currency, row.status]

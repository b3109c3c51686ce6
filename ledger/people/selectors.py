"""What a person's own pages read: their players (the approved claims), the evenings those players sat in, what
they owe and are owed, and their statistics across scorekeepers.

Each answer costs a fixed number of queries whatever the number of evenings or hands: the sums are the
database's (postings, transfers, tab entries, statistics summaries), grouped by evening, circle or game and
currency; Python only arranges rows already grouped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Count, Max, Min, Q, QuerySet, Sum

from ledger.circles.models import CircleEntry, CircleTransfer
from ledger.models import Evening, Game, Player, Posting, Seat, Table, Transfer, exact_total
from ledger.people.models import PlayerClaim, PlayerClaimQuerySet
from ledger.stats import summaries
from ledger.stats.models import StatsLine
from ledger.stats.scope import Filters, in_scope


def my_players(user: Any) -> list[Player]:
    """The players ``user`` is, by approved claims, with their scorekeepers: one query."""
    if not user.is_authenticated:
        return []
    claims = PlayerClaim.objects.approved().filter(user=user).select_related("player__owner")
    return [claim.player for claim in claims.order_by("player__owner__username", "player__name")]


def claims_of(user: Any) -> QuerySet[PlayerClaim]:
    """Every claim ``user`` made, whatever its state, with the player and its scorekeeper."""
    return PlayerClaim.objects.filter(user=user).select_related("player__owner").order_by("-requested_at", "-pk")


def claims_to_decide(user: Any) -> QuerySet[PlayerClaim]:
    """Claims waiting for ``user``'s answer: on players they own."""
    return _with_names().to_decide_by(user).order_by("requested_at", "pk")


def claim_to_decide(user: Any, claim_id: int) -> PlayerClaim | None:
    """A claim ``user`` may answer (pending or decided before), None otherwise."""
    return _with_names().decidable_by(user).filter(pk=claim_id).first()


def _with_names() -> PlayerClaimQuerySet:
    return PlayerClaim.objects.select_related("user", "player__owner")


# --------------------------------------------------------------------------------------------------------------
# My evenings


@dataclass
class MyEvening:
    """One evening one of the person's players sat in: what the person's list shows of it."""

    evening_id: int
    date: Any
    place: str
    currency: str
    status: str
    scorekeeper: str
    share_token: str | None
    games: list[str] = field(default_factory=list)
    players: list[str] = field(default_factory=list)
    net: Decimal = Decimal(0)

    @property
    def is_open(self) -> bool:
        return self.status == Evening.Status.OPEN


def my_evenings(players: list[Player]) -> list[MyEvening]:
    """The evenings ``players`` sat in, newest first, each with its games, the scorekeeper and the players' net
    there (counted hands, exact): two queries."""
    if not players:
        return []
    ids = [player.pk for player in players]
    seats = (
        Seat.objects.filter(player_id__in=ids)
        .order_by("-table__evening__date", "-table__evening_id", "table_id", "position")
        .values_list(
            "table__evening_id",
            "table__evening__date",
            "table__evening__place",
            "table__evening__currency",
            "table__evening__status",
            "table__evening__owner__username",
            "table__evening__share_token",
            "table__game",
            "player__name",
        )
    )
    evenings: dict[int, MyEvening] = {}
    for evening_id, date, place, currency, status, owner, token, game, name in seats:
        row = evenings.setdefault(evening_id, MyEvening(evening_id, date, place, currency, status, owner, token))
        label = str(Game(game).label)
        if label not in row.games:
            row.games.append(label)
        if name not in row.players:
            row.players.append(name)
    nets = Posting.objects.counted().filter(player_id__in=ids).totals("hand__table__evening_id")
    for evening_id, net in nets.items():
        if evening_id in evenings:
            evenings[evening_id].net = net
    return list(evenings.values())


# --------------------------------------------------------------------------------------------------------------
# What I owe and am owed


@dataclass
class Owed:
    """One unpaid payment to or from one of the person's players."""

    where: str  # the evening's date and place, or the circle's name
    payer: str
    payee: str
    amount: Decimal
    currency: str
    mine_pays: bool
    kind: str  # "evening", "tab" or "pot"


@dataclass
class CurrencyTotals:
    currency: str
    net: Decimal = Decimal(0)  # the players' net over their evenings' counted hands
    to_pay: Decimal = Decimal(0)
    to_receive: Decimal = Decimal(0)
    in_tabs: Decimal = Decimal(0)  # carried into circles' tabs, not due until a tab is settled

    @property
    def balance(self) -> Decimal:
        return self.to_receive - self.to_pay


def my_money(players: list[Player], evenings: list[MyEvening]) -> dict[str, Any]:
    """What ``players`` owe and are owed everywhere: the unpaid transfers of closed evenings and of settled tabs,
    the pot pay-ins still owed, the tab balances not yet settled, and per currency the totals (with the net of
    ``evenings``): four queries."""
    ids = [player.pk for player in players]
    totals: dict[str, CurrencyTotals] = {}

    def in_currency(code: str) -> CurrencyTotals:
        return totals.setdefault(code, CurrencyTotals(code))

    for evening in evenings:
        in_currency(evening.currency).net += evening.net
    owed: list[Owed] = []
    if ids:
        closed = Transfer.objects.filter(settlement__evening__status=Evening.Status.CLOSED)
        evenings_owed = _owed(closed.order_by("-settlement__evening__date", "id"), ids, "evening", "evening")
        tabs_owed = _owed(CircleTransfer.objects.order_by("-settlement__created_at", "id"), ids, "tab", "circle")
        owed = evenings_owed + tabs_owed + _pot_pay_ins(ids)
    for row in owed:
        if row.mine_pays:
            in_currency(row.currency).to_pay += row.amount
        else:
            in_currency(row.currency).to_receive += row.amount
    tabs = _tab_balances(ids) if ids else []
    for tab in tabs:
        in_currency(tab["currency"]).in_tabs += tab["balance"]
    return {
        "owed": owed,
        "tabs": tabs,
        "totals": [totals[code] for code in sorted(totals)],
    }


def _mine(ids: list[int]) -> Q:
    return Q(payer_id__in=ids) | Q(payee_id__in=ids)


def _owed(transfers: QuerySet[Any], ids: list[int], kind: str, settled: str) -> list[Owed]:
    """The unpaid ``transfers`` to or from the players ``ids``, each where its settlement was made: ``settled`` names
    the settlement's evening or circle."""
    unpaid = transfers.filter(_mine(ids), paid_at__isnull=True).select_related(
        "payer", "payee", f"settlement__{settled}"
    )
    rows = []
    for transfer in unpaid:
        where = getattr(transfer.settlement, settled)
        rows.append(
            Owed(
                where=str(where),
                payer=transfer.payer.name,
                payee=transfer.payee.name,
                amount=exact_total(transfer.amount),
                currency=where.currency,
                mine_pays=transfer.payer_id in ids,
                kind=kind,
            )
        )
    return rows


def _pot_pay_ins(ids: list[int]) -> list[Owed]:
    """Pay-ins into a circle's pot still owed by the players (to the pot's holder)."""
    entries = (
        CircleEntry.objects.filter(kind=CircleEntry.Kind.PAID_IN, player_id__in=ids, paid_at__isnull=True)
        .select_related("player", "circle__pot_holder")
        .order_by("-created_at", "-id")
    )
    return [
        Owed(
            where=entry.circle.name,
            payer=entry.player.name if entry.player else "",
            payee=entry.circle.pot_holder.name if entry.circle.pot_holder else "",
            amount=exact_total(entry.amount),
            currency=entry.circle.currency,
            mine_pays=True,
            kind="pot",
        )
        for entry in entries
    ]


def _tab_balances(ids: list[int]) -> list[dict[str, Any]]:
    """Per circle with a tab and per player of the person: the balance carried and not yet settled (nonzero)."""
    keys = ("circle__name", "circle_id", "player__name", "circle__currency")  # two circles may share a name
    totals = CircleEntry.objects.tab().filter(player_id__in=ids).totals(*keys)
    return [
        {"circle": circle, "player": player, "currency": currency, "balance": balance}
        for (circle, _id, player, currency), balance in sorted(totals.items())
        if balance
    ]


# --------------------------------------------------------------------------------------------------------------
# My statistics


def my_stats(players: list[Player]) -> list[dict[str, Any]]:
    """The players' statistics summed per game and currency, from the summaries ``ledger.stats`` keeps: counted
    hands of counted evenings, as every statistic reads them. A player who hides from statistics hides from
    others' tables, not from their own page (as ``ledger.stats`` computes a hidden player's own figures). Two
    queries when the summaries are fresh."""
    if not players:
        return []
    ids = [player.pk for player in players]
    summaries.refresh(Table.objects.filter(seats__player_id__in=ids))
    lines = in_scope(StatsLine.objects.filter(player_id__in=ids), Filters(), None)
    rows = (
        lines.order_by()
        .values("table__game", "table__evening__currency")
        .annotate(
            evenings=Count("table__evening", distinct=True),
            tables=Count("table", distinct=True),
            hand_count=Sum("hands"),
            won_count=Sum("won"),
            total=Sum("net"),
            top=Max("most"),
            bottom=Min("least"),
            declared_count=Sum("declared"),
            declared_won_count=Sum("declared_won"),
        )
        .order_by("table__game", "table__evening__currency")
    )
    return [_stats_row(row) for row in rows]


def _stats_row(row: Mapping[str, Any]) -> dict[str, Any]:
    hands = int(row["hand_count"] or 0)
    won = int(row["won_count"] or 0)
    return {
        "game": row["table__game"],
        "game_label": str(Game(row["table__game"]).label),
        "currency": row["table__evening__currency"],
        "evenings": int(row["evenings"]),
        "hands": hands,
        "won": won,
        "won_share": Decimal(won * 100 / hands).quantize(Decimal(1)) if hands else None,
        "net": exact_total(row["total"]),
        "biggest_win": exact_total(row["top"]) if hands else None,
        "biggest_loss": exact_total(row["bottom"]) if hands else None,
        "declared": int(row["declared_count"] or 0),
        "declared_won": int(row["declared_won_count"] or 0),
    }

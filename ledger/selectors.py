"""The read side: balances, scoreboards, hand logs, chart series and the last counted hand, for the pages, the API,
the PDF and the statistics alike (``ledger.services`` writes).

Each answer costs a fixed number of queries and a fixed amount of Python work whatever the number of hands: a
table's balances are the running balances its newest hand keeps (``Hand.balances``, kept by
``ledger.running_balances``), the chart reads a bounded sample of them, the evening's balances are summed by the
database (through ``exact_total``), and only the hands shown are loaded.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

import rules
from ledger import hooks, qr
from ledger.hand_forms.base import CONTRACTS_WINDOW, ContractPlayed, tally_contracts
from ledger.models import Evening, Hand, Player, Posting, Seat, Settlement, Table, Transfer
from ledger.scoreboard import seat_rows
from rules.i18n import format_number

# The share page shows the newest hands, the table page fewer (a phone's screen; earlier ones are one tap away).
# They read only these, so their size does not grow with the evening.
LOG_LENGTH = 30
TABLE_LOG_LENGTH = 10
# The chart draws a point after each hand up to this many, then after as many hands evenly spread (the last one
# always): about one point per two pixel columns of its 272, and a fixed cost however long the evening.
CHART_POINTS = 48
# The form pre-selects the contract played most in this many newest counted hands (all of a shorter evening).


# --------------------------------------------------------------------------------------------------------------
# Balances: exact, a table's from its newest hand, an evening's from one aggregate query


def table_balances(table: Table, log: list[Hand] | None = None) -> dict[str, Decimal]:
    """Every seated player's exact balance at this table, in seat order: the running balances of its newest hand.

    Found in ``log`` (the newest hands, newest first) when given, else one query for one row. A table whose newest
    hand has no balances yet (only inside the import's transaction) sums its postings instead.
    """
    if log is None:
        newest: list[Any] = list(table.hands.order_by("-number").values_list("balances", flat=True)[:1])
    else:
        newest = [hand.balances for hand in log[:1]]
    if not newest:
        return dict.fromkeys(table.seat_names, Decimal(0))
    if newest[0] is None:
        return table_posted_balances(table)
    return {name: Decimal(value) for name, value in zip(table.seat_names, newest[0], strict=True)}


def table_posted_balances(table: Table) -> dict[str, Decimal]:
    """Every seated player's balance summed from the books themselves, the counted postings, by name: one aggregate.

    What the running balances are checked against; a rename checks with it that the seats still name whoever the
    postings belong to (the running balances, kept by seat, could not tell)."""
    totals = Posting.objects.filter(hand__table=table).counted().totals("player__name")
    return {name: totals.get(name, Decimal(0)) for name in table.seat_names}


def tables_balances(evening: Evening, tables: list[Table]) -> dict[int, dict[str, Decimal]]:
    """{table id: each seated player's exact balance} for the evening's ``tables``: one grouped query for all."""
    rows = Posting.objects.filter(hand__table__evening=evening).counted().totals("hand__table_id", "player__name")
    totals: dict[int, dict[str, Decimal]] = defaultdict(dict)
    for (table_id, name), total in rows.items():
        totals[table_id][name] = total
    return {table.pk: {name: totals[table.pk].get(name, Decimal(0)) for name in table.seat_names} for table in tables}


def evening_balances(evening: Evening) -> dict[str, Decimal]:
    """Every player seated at any of the evening's tables with their exact balance, largest gain first, by name.

    One query: the players come from the seats, each total from a subquery over the counted postings, so a player
    whose hands were all voided still shows (at zero) and nothing is summed in Python. Sorted here, on the exact
    totals: SQLite's float sums would put a zero with a crumb of -5E-17 below an exact zero.
    """
    seated = Player.objects.filter(pk__in=Seat.objects.filter(table__evening=evening).values("player"))
    exact = Posting.objects.filter(hand__table__evening=evening).counted().totals_of(seated).items()
    return dict(sorted(exact, key=lambda row: (-row[1], row[0])))


def scoreboard(
    table: Table,
    balances: dict[str, Decimal],
    next_dealer: int | None = None,
    points: Mapping[str, int] | None = None,
) -> list[dict[str, Any]]:
    """One entry per seat: name, balance and, when the next dealer is known, who deals and who leads next; with
    ``points`` (``table_list_points``), each seat's list points so far as ``list_points`` under the list's name,
    ``list_label``."""
    rows = seat_rows(table.seat_names, balances, next_dealer)
    if points is not None:
        label = list_label(table)
        for row in rows:
            row |= {"list_label": label, "list_points": signed_points(points.get(row["name"], 0))}
    return rows


# --------------------------------------------------------------------------------------------------------------
# List points: a game that writes each hand's points on a list beside the money (Skat, ``Score.score``)


def list_scoring(table: Table) -> str | None:
    """The list the table's game writes its points on under the frozen ruleset ("classic", "seeger-fabian"), or
    None for a game priced in money only."""
    return rules.game(table.game).list_scoring(table.ruleset)


def list_label(table: Table) -> str:
    """What the table's list points are called where they are shown: Seeger-Fabian's by name."""
    return _("Seeger-Fabian points") if list_scoring(table) == "seeger-fabian" else _("List points")


def table_list_points(table: Table, log: list[Hand] | None = None) -> dict[str, int] | None:
    """Every seated player's list points so far, in seat order, at a table whose game keeps a list (None at the
    others): the list its newest hand keeps (``Hand.list_points``, kept with the balances by
    ``ledger.running_balances``).

    Found in ``log`` (the newest hands, newest first) when given, else one query for one row; no query at a game
    priced in money only. A newest hand without its list (only inside the import's transaction) sums the scores.
    """
    if list_scoring(table) is None:
        return None
    if log is None:
        newest: list[Any] = list(table.hands.order_by("-number").values_list("list_points", flat=True)[:1])
    else:
        newest = [hand.list_points for hand in log[:1]]
    if not newest:
        return dict.fromkeys(table.seat_names, 0)
    if newest[0] is None:
        points = dict.fromkeys(table.seat_names, 0)
        for score in table.hands.filter(status=Hand.Status.COUNTED).values_list("result__score", flat=True):
            for name, value in (score or {}).items():
                if name in points and isinstance(value, int):
                    points[name] += value
        return points
    return {name: int(value) for name, value in zip(table.seat_names, newest[0], strict=True)}


def signed_points(points: int) -> str:
    """List points as the list writes them: +48 · −146 (a true minus) · 0."""
    return f"+{points}" if points > 0 else f"\u2212{-points}" if points < 0 else "0"


def game_points(table: Table, amount: Decimal) -> Decimal:
    """Money in the game's own unit, multiples of the table's stake: what a Mariáš or Šnapser table that is not
    played for money shows its players instead of the money."""
    stake = Decimal(str(table.ruleset.get("stake") or 0))
    if stake <= 0:
        return Decimal(amount)
    points = Decimal(amount) / stake
    return points.quantize(Decimal(1)) if points == points.to_integral_value() else points.normalize()


def shown_game_points(table: Table, amount: Decimal) -> str:
    """A hand's or a balance's money as the game's points, written with their sign (``game_points``)."""
    return shown_points(game_points(table, amount))


def shown_points(points: Decimal | int) -> str:
    """Points with their sign, as the active language writes them: +74 · −146 (a true minus) · +2,5 · 0."""
    if isinstance(points, int):
        return signed_points(points)
    text = str(format_number(points, places=None))
    return f"+{text}" if points > 0 else text


# --------------------------------------------------------------------------------------------------------------
# Who played: what a log row says beside its label, on the table page, the share link and in the PDF


def hand_played(table: Table, hand: Hand) -> dict[str, Any]:
    """What a row of ``table``'s log says of ``hand`` besides its label, as its document says (no query): ``who``
    played ("Ben chose, Dana partnered"; empty when nobody declared), the Bock rounds it was played under (``bock``),
    each player's money in seat order (``amounts``: the stored result's own order is the database's, and PostgreSQL
    sorts a JSON object's keys), and its list points (``points``: each player's that are not zero, the declarer's
    first, then in seat order, under ``list_label``) where the game keeps a list."""
    played = rules.game(table.game).played(table.seat_names, hand.document)
    result = hand.result if isinstance(hand.result, dict) else {}
    amounts = result.get("amounts") or {}
    seat_order = [*table.seat_names, *(name for name in amounts if name not in table.seat_names)]
    score = result.get("score")
    points = []
    if isinstance(score, dict) and list_scoring(table) is not None:
        first = [played.declarer] if played.declarer is not None else []
        for name in dict.fromkeys([*first, *seat_order]):
            value = score.get(name)
            if isinstance(value, int) and value:
                points.append({"name": name, "value": value, "text": signed_points(value)})
    return {
        "who": who_played(played),
        "bock": played.bock,
        "amounts": [(name, Decimal(amounts[name])) for name in seat_order if name in amounts],
        "points": points,
        "list_label": list_label(table) if points else "",
    }


def who_played(played: rules.Played) -> str:
    """Who chose or declared, with whom or alone, and who flekked, in the reader's language: "Ben chose, Dana
    partnered; Cyril flekked" · "Ben chose and played alone" · "Ana declared"; empty when nobody declared."""
    if played.declarer is None:
        return ""
    names = {"declarer": played.declarer, "partner": played.partner}
    if played.role == "declared":
        said = _("%(declarer)s declared") % names
    elif played.partner is not None:
        said = _("%(declarer)s chose, %(partner)s partnered") % names
    elif played.alone:
        said = _("%(declarer)s chose and played alone") % names
    else:
        said = _("%(declarer)s chose") % names
    if played.flekked_by is not None:
        said = _("%(who)s; %(player)s flekked") % {"who": said, "player": played.flekked_by}
    return said


# --------------------------------------------------------------------------------------------------------------
# Hands: the log, the last counted hand, the contracts played


def hand_log(table: Table, *, whole: bool = False, length: int = LOG_LENGTH) -> dict[str, Any]:
    """The log as the pages show it: the newest ``length`` hands (all of them when ``whole``), newest first and
    voided ones included, the number of hands, and whether there are more than shown. Two queries."""
    hands = table.hands.order_by("-number")
    log = hands_marked(list(hands if whole else hands[:length]))
    total = table.hands.count()
    return {"log": log, "hand_total": total, "log_more": len(log) < total}


def earlier_hands(table: Table, before: int, length: int) -> list[Hand]:
    """The ``length`` hands just older than hand number ``before``, newest first (the log's next page): one query."""
    return hands_marked(list(table.hands.filter(number__lt=before).order_by("-number")[:length]))


def hands_marked(hands: list[Hand]) -> list[Hand]:
    """``hands``, each with ``.marks``: what the features say of it wherever hands are listed (confirmed, disputed),
    ``hooks.hand_marks`` asked once for the whole list, so its listeners' fixed queries are paid once a page."""
    marks = hooks.hand_marks(hands)
    for hand in hands:
        hand.marks = marks.get(hand.pk, [])  # type: ignore[attr-defined]
    return hands


def evening_hands(evening: Evening) -> dict[int, list[Hand]]:
    """{table id: all its hands, oldest first}: one query for the whole evening (the PDF shows every hand)."""
    by_table: dict[int, list[Hand]] = defaultdict(list)
    for hand in Hand.objects.filter(table__evening=evening).order_by("table_id", "number"):
        by_table[hand.table_id].append(hand)
    return by_table


def last_counted(table: Table, log: list[Hand] | None = None) -> Hand | None:
    """The newest counted hand: found in ``log`` (the newest hands, newest first) when it holds one, else one query.

    Only a log of voided hands (or no log) asks the database.
    """
    if log is not None:
        found = next((hand for hand in log if hand.is_counted), None)
        if found is not None or not log:
            return found
    return table.hands.filter(status=Hand.Status.COUNTED).order_by("-number").first()


def contracts_played(table: Table, field: str) -> list[ContractPlayed]:
    """Per contract (the hand document's ``field``) played in one of the newest ``CONTRACTS_WINDOW`` counted hands:
    how often, and the number of the latest hand that played it; the most recently played first. One query for at
    most that many documents."""
    return tally_contracts(recent_contracts(table, field))


def recent_contracts(table: Table, field: str) -> list[tuple[int, str]]:
    """(number, contract) of the newest ``CONTRACTS_WINDOW`` counted hands, newest first ("" where a hand names no
    contract): the window the usual contract is chosen from, which the offline page slides on as it queues hands."""
    newest = table.hands.filter(status=Hand.Status.COUNTED).order_by("-number")[:CONTRACTS_WINDOW]
    return [
        (number, str((document.get(field) if isinstance(document, dict) else None) or ""))
        for number, document in newest.values_list("number", "document")
    ]


# --------------------------------------------------------------------------------------------------------------
# The chart


def chart_numbers(last: int) -> list[int]:
    """The hand numbers the chart draws a point after: each of ``1..last`` up to ``CHART_POINTS`` of them, else
    ``CHART_POINTS`` evenly spread, ``last`` included."""
    if last <= CHART_POINTS:
        return list(range(1, last + 1))
    return sorted({round(step * last / CHART_POINTS) for step in range(1, CHART_POINTS + 1)})


def chart_series(table: Table, last: int | None = None) -> tuple[list[int], list[list[float]]]:
    """The hand numbers the chart draws, starting at 0, and each seated player's balance after each of them
    (seat order); ``last`` is the table's newest hand number (``table.hand_count`` if not given).

    One query for at most ``CHART_POINTS`` rows: the running balances the sampled hands keep (a voided hand keeps
    the balances before it, so the line stays flat there). Floats: these are for drawing, never for money (the
    balances shown as money come from ``table_balances``).
    """
    numbers = chart_numbers(table.hand_count if last is None else last)
    kept = dict(
        table.hands.filter(number__in=numbers, balances__isnull=False).values_list("number", "balances").order_by()
    )
    series: list[list[float]] = [[0.0] for _name in table.seat_names]
    drawn = [0]
    for number in numbers:
        balances = kept.get(number)
        if balances is None:
            continue  # a number the table has no hand of (an imported evening may skip some): no point
        drawn.append(number)
        for line, value in zip(series, balances, strict=True):
            line.append(float(value))
    return drawn, series


# --------------------------------------------------------------------------------------------------------------
# The settlement: the settlement page, the share link, the PDF and the API read it the same way, in a fixed number
# of queries whatever the number of hands or transfers


def stored_settlement(evening: Evening) -> tuple[Settlement | None, list[Transfer]]:
    """The evening's settlement (None when it was never closed) with its banker, and its transfers with both
    players (names, IBANs) and who marked them paid, in the order planned: two queries, one when never closed.

    A reopened evening keeps its settlement row and the transfers paid before the reopening.
    """
    stored = Settlement.objects.filter(evening=evening).select_related("banker").first()
    if stored is None:
        return None, []
    return stored, list(stored.transfers.select_related("payer", "payee", "paid_by"))


def settlement_context(evening: Evening, *, with_qr: bool) -> dict[str, Any]:
    """For the settlement page, the share link and the PDF: the settlement (None when it was never closed), its
    balance rows, its transfers as shown (``transfer_row``) and {name: Player} of its players. Three queries."""
    stored, transfers = stored_settlement(evening)
    if stored is None:
        return {"settlement": None, "balance_rows": [], "transfers": [], "players": {}}
    players = {
        player.name: player for player in Player.objects.filter(owner_id=evening.owner_id, name__in=stored.exact)
    }
    return {
        "settlement": stored,
        "balance_rows": stored.rows(),
        "transfers": [transfer_row(evening, transfer, with_qr=with_qr) for transfer in transfers],
        "players": players,
    }


def transfer_row(evening: Evening, transfer: Transfer, *, with_qr: bool) -> dict[str, Any]:
    """One transfer as shown: the payee's IBAN and, while unpaid, the payment QR code in the evening's currency."""
    payee = transfer.payee
    iban = payee.iban
    code = SafeString("")
    # No code once paid: scanning it again would pay twice.
    if with_qr and iban and not transfer.is_paid:
        payload = qr.payment_payload(
            currency=evening.currency,
            payee=payee.name,
            iban=iban,
            amount=transfer.amount,
            text=qr.payment_text(date=evening.date, payer=transfer.payer.name),
        )
        code = qr.qr_svg(payload, label=str(transfer))
    kind = "QR Platba" if evening.currency == "CZK" else "EPC (SEPA)"
    return {"transfer": transfer, "payee_player": payee, "iban": iban, "qr": code, "qr_kind": kind}


def settlement_summary(evening: Evening) -> dict[str, Any]:
    """For the API: the settlement frozen at the close, or, while open, the balances so far and the transfers
    paid already (kept from before a reopening). Two queries closed, three open."""
    stored, transfers = stored_settlement(evening)
    if evening.is_open or stored is None:
        return {
            "status": evening.status,
            "mode": None,
            "banker": None,
            "coin": evening.coin,
            "balances": evening_balances(evening),
            "rounded": None,
            "transfers": [transfer for transfer in transfers if transfer.is_paid],
            "closed_at": None,
        }
    return {
        "status": evening.status,
        "mode": stored.mode,
        "banker": stored.banker.name if stored.banker else None,
        "coin": stored.coin,
        "balances": stored.exact,
        "rounded": stored.rounded,
        "transfers": transfers,
        "closed_at": stored.created_at,
    }


# --------------------------------------------------------------------------------------------------------------
# What the table's next hand starts from


def next_hand(table: Table, counted_oldest_first: Sequence[Hand]) -> rules.NextHand:
    """What the table's next hand starts from (dealer, who sits out, Bock rounds), by the game's own rule.

    ``counted_oldest_first`` are the table's last counted hands; as many as there are seats hold everything that
    carries over (see ``rules.base.Game.next_hand``). Voided hands do not move the deal: undoing a hand gives the
    deal back.
    """
    previous = [rules.Dealt(hand.dealer, int(hand.result.get("bock_rounds") or 0)) for hand in counted_oldest_first]
    return rules.game(table.game).next_hand(len(table.seat_names), table.ruleset, previous, table.first_dealer)


def next_dealer(table: Table, last: Hand | None) -> int:
    """The seat that deals next: clockwise after the last counted hand's dealer, or the table's first dealer."""
    return next_hand(table, [] if last is None else [last]).dealer


def table_pending_bock(table: Table) -> int | None:
    """How many Bock rounds cover the table's next hand, or None where its ruleset has none (asking no query then)."""
    if next_hand(table, []).bock is None:
        return None
    return next_hand(table, recent_counted(table, None)).bock


def recent_counted(table: Table, last: Hand | None) -> list[Hand]:
    """The counted hands the table's next hand starts from, oldest first: ``last`` alone (no query) where the table
    keeps no Bock queue, since only the deal carries over there; else the newest ``len(seat_names)`` (one query).

    A Bock round runs for as many hands as there are seats, starting with the hand after its trigger: no hand older
    than the last ``len(seat_names)`` counted ones still has a round running, so reading those reads the whole
    queue, however long the evening.
    """
    # Whether the table keeps a Bock queue at all is the ruleset's to say, not its hands'.
    if next_hand(table, []).bock is None:
        return [] if last is None else [last]
    # table_id too: the related manager checks each row's table against ``table``, and a deferred one is a query.
    newest = table.hands.filter(status=Hand.Status.COUNTED).order_by("-number").only("dealer", "result", "table_id")
    return list(newest[: len(table.seat_names)])[::-1]


def bock_pending(table: Table, counted_oldest_first: list[Hand]) -> int:
    """How many Bock rounds cover the table's next hand (Skat pub rules; the engine takes the factor 2^n).

    Each triggered round covers the next hand of every seat (as many hands as seats) starting with the hand
    after the trigger; rounds triggered while others run overlap and stack, so a hand inside two rounds
    counts ×4. The queue is derived from the counted hands, so a correction or void re-derives it.
    """
    started = (int(hand.result.get("bock_rounds") or 0) for hand in counted_oldest_first)
    return rules.bock_queue(len(table.seat_names), started)

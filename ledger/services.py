"""Write-side logic of the ledger, called by both the htmx pages and the REST API.

Each function is one domain step, named ``<entity>_<action>`` with keyword-only arguments. Every write runs in
one transaction: a rules error or a broken invariant leaves nothing half-stored.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from decimal import Decimal
from typing import Any, Protocol

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from ledger import hooks, payments, qr, running_balances, selectors
from ledger.errors import LedgerError as LedgerError  # the books refuse with it, as ever
from ledger.models import (
    Evening,
    EveningEvent,
    Hand,
    HandVersion,
    Invitation,
    Player,
    Posting,
    Seat,
    Settlement,
    Table,
    Transfer,
    UserPreference,
    new_share_token,
)
from ledger.texts import text_tidy
from rules.base import said
from rules.settlement import Transfer as PlannedTransfer
from rules.settlement import settle


class EveningClosed(LedgerError):
    def __init__(self) -> None:
        super().__init__(_("This evening is closed: reopen it to change its hands."), field="evening")


class StaleVersion(LedgerError):
    """Somebody changed the hand since the caller read it; carries the current version to reload."""

    def __init__(self, hand: Hand) -> None:
        super().__init__(
            _("Hand #%(number)s was changed meanwhile (now version %(version)s); reload it and try again.")
            % {"number": hand.number, "version": hand.version},
            field="version",
        )
        self.current = hand


# --------------------------------------------------------------------------------------------------------------
# Players, evenings, tables


def evening_place_check(place: str) -> str:
    """The place as typed, refused when it hides characters (the page and the PDF would show it otherwise)."""
    hidden = _("The place cannot contain control or text-direction characters.")
    return text_tidy(place, field="place", most=len(place), hidden=hidden, tidy_spaces=False)


def player_name_tidy(name: str) -> str:
    """The name with its spaces tidied (a pasted tab or line end becomes one space); refused when it hides any."""
    return text_tidy(
        name,
        field="players",
        most=40,
        empty=_("A player needs a name."),
        too_long=_("A player's name can have at most 40 letters."),
        hidden=_("A player's name cannot contain control or text-direction characters."),
    )


def player_get_or_create(*, owner: Any, name: str) -> Player:
    player, _created = Player.objects.get_or_create(owner=owner, name=player_name_tidy(name))
    return player


def evening_create(
    *, owner: Any, date: datetime.date, place: str = "", currency: str = "CZK", coin: Decimal | None = None
) -> Evening:
    if coin is None:
        coin = Decimal("1") if currency == "CZK" else Decimal("0.01")
    if coin < Decimal("0.01") or coin != coin.quantize(Decimal("0.01")) or coin > 1000:
        # A real coin: payment QR codes carry amounts in cents, so the settlement never rounds below one.
        raise LedgerError(_("The coin to round to must be a real coin: from 0.01 to 1000, in cents."), field="coin")
    place = evening_place_check(place)
    return Evening.objects.create(owner=owner, date=date, place=place.strip(), currency=currency, coin=coin)


@transaction.atomic
def evening_again(*, owner: Any, previous: Evening, date: datetime.date) -> Evening:
    """Today's evening where and in what money ``previous`` was, for "Same players as last time".

    A second tap (a double tap, or Back and tap again before a table is started) finds the evening the first one
    made, open and still without a table, instead of making another empty one. Two taps at once queue on the
    previous evening's row, which both read.
    """
    Evening.objects.select_for_update().filter(pk=previous.pk).first()
    made = (
        Evening.objects.filter(
            owner=owner,
            date=date,
            place=previous.place,
            currency=previous.currency,
            coin=previous.coin,
            status=Evening.Status.OPEN,
            tables__isnull=True,
        )
        .exclude(pk=previous.pk)
        .order_by("-pk")
        .first()
    )
    if made is not None:
        return made
    return evening_create(owner=owner, date=date, place=previous.place, currency=previous.currency, coin=previous.coin)


@transaction.atomic
def table_create(
    *,
    evening: Evening,
    game: str,
    players: list[str],
    rules_override: dict[str, Any] | None = None,
    first_dealer: int = 0,
) -> Table:
    """Seat the players (known ones reused, new ones added) and freeze the resolved ruleset on the table."""
    _require_open(evening)
    names = [player_name_tidy(name) for name in players if name and name.strip()]
    if len(set(names)) != len(names):
        raise LedgerError(_("Each player can sit at the table only once."), field="players")
    overrides = dict(rules_override or {})
    overrides["currency"] = evening.currency  # the evening's money, whatever the preset's
    ruleset = rules.resolve(game, overrides)
    # The engine checks the number of seats for the game; an empty hand is enough to ask it.
    rules.table({"game": game, "players": names, "rules": ruleset, "hand": {}})
    if not 0 <= first_dealer < len(names):
        raise LedgerError(_("The first dealer must sit at the table."), field="first_dealer")
    table = Table.objects.create(
        evening=evening, game=game, ruleset=ruleset, seat_names=names, first_dealer=first_dealer
    )
    owner = evening.owner
    Seat.objects.bulk_create(
        Seat(table=table, player=player_get_or_create(owner=owner, name=name), position=position)
        for position, name in enumerate(names)
    )
    return table


def evening_add_scorekeeper(*, evening: Evening, user: Any) -> None:
    if user != evening.owner:
        evening.scorekeepers.add(user)


def evening_scorekeeper_invite(*, evening: Evening, username: str, by: Any) -> Invitation:
    """Ask the user of that name to keep score too (only the owner asks); asking again changes nothing.

    Nothing tells whether the name belongs to anybody: the invitation waits for a user of that name to accept it.
    """
    if by != evening.owner:
        raise PermissionDenied
    username = username.strip()
    if not username:
        raise LedgerError(_("Name the user to invite."), field="username")
    keepers = evening.scorekeepers.filter(**{get_user_model().USERNAME_FIELD: username})
    if username == evening.owner.get_username() or keepers.exists():
        raise LedgerError(_("%(name)s keeps score of this evening already.") % {"name": username}, field="username")
    invitation, _created = Invitation.objects.get_or_create(
        evening=evening, username=username, defaults={"invited_by": by}
    )
    return invitation


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: Any) -> Evening:
    """The invited user becomes a co-scorekeeper of the evening; an invitation withdrawn meanwhile is refused."""
    if invitation.username != user.get_username():
        raise PermissionDenied
    withdrawn = not Invitation.objects.filter(pk=invitation.pk).delete()[0]
    if withdrawn:
        raise LedgerError(_("This invitation was withdrawn."), field="invitation")
    evening_add_scorekeeper(evening=invitation.evening, user=user)
    return invitation.evening


def invitation_decline(*, invitation: Invitation, user: Any) -> None:
    if invitation.username != user.get_username():
        raise PermissionDenied
    Invitation.objects.filter(pk=invitation.pk).delete()


@transaction.atomic
def evening_scorekeeper_remove(*, evening: Evening, username: str, by: Any) -> None:
    """The owner removes a co-scorekeeper, or withdraws an invitation, by user name; a co-scorekeeper may remove
    only themselves (leave). Nobody removes the owner."""
    if by != evening.owner and username != by.get_username():
        raise PermissionDenied
    if username == evening.owner.get_username():
        raise LedgerError(_("The owner of an evening always keeps its score."), field="username")
    evening.scorekeepers.remove(*evening.scorekeepers.filter(**{get_user_model().USERNAME_FIELD: username}))
    Invitation.objects.filter(evening=evening, username=username).delete()


def evening_share_reset(*, evening: Evening, enabled: bool = True) -> Evening:
    """A new unguessable share link (the old one stops working), or none when ``enabled`` is false. The live lines
    opened through the old link end once this is committed (``hooks.share_link_changed``)."""
    evening.share_token = new_share_token() if enabled else None
    evening.save(update_fields=["share_token"])
    hooks.share_link_changed.send_after_commit(hooks.ShareLinkChanged(evening_id=evening.pk, token=evening.share_token))
    return evening


# --------------------------------------------------------------------------------------------------------------
# Hands


def hand_price(*, table: Table, hand: dict[str, Any]) -> rules.Score:
    """Price a hand at the table's frozen ruleset without storing anything (RulesError on bad input)."""
    return rules.score(table.document(hand))


def _stored_result(table: Table, hand: dict[str, Any]) -> tuple[rules.Score, dict[str, Any]]:
    """The priced hand and the result to store for it.

    The hand is priced once, in the caller's language (bad input fails there, and its RulesError speaks that
    language). The record stays frozen (no re-pricing when a hand is shown), and every viewer reads it in their own
    language: ``result["source"]`` keeps how the label and lines were made (message ids and their parameters,
    :meth:`rules.Score.text_source`), which ``models.result_label``/``result_lines`` say in the reader's language.
    ``label`` and ``lines`` beside it are the English text, for whoever reads an export without Talon.
    """
    score = hand_price(table=table, hand=hand)
    source = score.text_source()
    return score, score.as_dict() | said(source, "en") | {"source": source}


def hand_result(*, table: Table, hand: dict[str, Any]) -> tuple[rules.Score, dict[str, Any]]:
    """The priced hand and the result the ledger stores for it (RulesError on bad input); stores nothing.

    For writers that bring a hand from elsewhere (the import): they store what the ledger prices, never a result
    they were handed.
    """
    return _stored_result(table, hand)


def hands_post(*, table: Table, priced: Sequence[tuple[Hand, rules.Score]]) -> None:
    """The postings of many stored hands of one table from their priced scores (the import), inside the caller's
    transaction: each hand's amounts checked (zero sum, seated players), then one insert, one pass over the running
    balances and one check of the evening's sum, so that 5,000 hands take seconds (posting them one by one read all
    the later hands again for each: minutes)."""
    seats = dict(Seat.objects.filter(table_id=table.pk).values_list("player__name", "player_id"))
    postings = []
    for hand, score in priced:
        if sum(score.amounts.values(), Decimal(0)) != 0 or not set(score.amounts) <= set(seats):
            raise LedgerError(
                _("Hand #%(number)s: its amounts do not sum to zero or name a player not seated.")
                % {"number": hand.number}
            )
        postings += [Posting(hand=hand, player_id=seats[name], amount=amount) for name, amount in score.amounts.items()]
    if not priced:
        return
    Posting.objects.bulk_create(postings, batch_size=1000)
    first = min((hand for hand, _score in priced), key=lambda hand: hand.number)
    running_balances.rederive(first, every=True)
    _require_evening_balanced(first)


def hand_record(
    *, table: Table, hand: dict[str, Any], by: Any, key: str | None = None, dealer: int | None = None
) -> Hand:
    """Price and store one hand with its postings; a repeated ``key`` returns the hand already recorded."""
    if key:
        existing = Hand.objects.filter(table=table, key=key).first()
        if existing is not None:
            return existing
    hand = _with_pending_bock(table, hand)
    dealer = _sitting_dealer(table, hand, dealer)
    score, result = _stored_result(table, hand)
    try:
        with transaction.atomic():
            locked = _lock_table(table)
            pending = table_pending_bock(locked)
            if pending is not None and hand["bock"] != pending:
                raise LedgerError(_("Another hand was entered meanwhile; enter this one again."), field="bock")
            number = locked.hand_count + 1
            stored = Hand.objects.create(
                table=locked,
                number=number,
                dealer=_dealer_position(locked, dealer),
                document=hand,
                result=result,
                key=key or None,
                entered_by=by,
                changed_by=by,
            )
            _post(stored, score)
            Table.objects.filter(pk=locked.pk).update(hand_count=number, revision=F("revision") + 1)
            _announce(locked, revision=locked.revision + 1, hands=number)
    except IntegrityError:
        # Two taps with the same key raced past the first lookup: the other one won, answer with its hand.
        if key and (existing := Hand.objects.filter(table=table, key=key).first()) is not None:
            return existing
        raise
    return stored


def hand_correct(*, hand: Hand, document: dict[str, Any], by: Any, version: int, dealer: int | None = None) -> Hand:
    """Re-price a hand with a corrected document; the old version is kept in the hand's history."""
    score, result = _stored_result(hand.table, document)
    with transaction.atomic():
        current = _lock_hand(hand, version)
        _archive(current)
        current.document = document
        current.result = result
        if dealer is not None:
            current.dealer = _dealer_position(current.table, dealer)
        _bump(current, by)
        current.postings.all().delete()
        _post(current, score)
    return current


def hand_void(*, hand: Hand, by: Any, version: int | None = None) -> Hand:
    """Take a hand out of the balances; it stays in the log (crossed out) and in its history."""
    with transaction.atomic():
        current = _lock_hand(hand, hand.version if version is None else version)
        if current.status == Hand.Status.VOIDED:
            return current
        _archive(current)
        current.status = Hand.Status.VOIDED
        _bump(current, by)
        running_balances.rederive(current)
    return current


def hand_undo_last(*, table: Table, by: Any, number: int | None = None) -> Hand | None:
    """Undo the last counted hand at the table (voided, so nothing is lost).

    ``number`` is the hand the scorekeeper saw as the last one: a double tap (or a second phone) that comes after
    it was undone finds another last hand and undoes nothing, instead of undoing one hand more.
    """
    last = table.hands.filter(status=Hand.Status.COUNTED).order_by("-number").first()
    if last is None or (number is not None and last.number != number):
        return None
    return hand_void(hand=last, by=by, version=last.version)


def hand_restore(*, hand: Hand, by: Any, version: int | None = None) -> Hand:
    """Count a voided hand again (a void or an undo tapped by mistake); a new version, the old one kept."""
    with transaction.atomic():
        current = _lock_hand(hand, hand.version if version is None else version)
        if current.status == Hand.Status.COUNTED:
            return current
        _archive(current)
        current.status = Hand.Status.COUNTED
        _bump(current, by)
        running_balances.rederive(current)
        _require_evening_balanced(current)
    return current


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


def _with_pending_bock(table: Table, hand: dict[str, Any]) -> dict[str, Any]:
    """The hand with the Bock factor the ledger's queue gives it (Skat pub rules); a different one is refused.

    The queue is the ledger's, not the client's: a form drawn before another scorekeeper's hand, or an API call
    without ``bock``, must not price a hand inside a Bock round at the single rate.
    """
    if not isinstance(hand, dict):
        return hand
    pending = table_pending_bock(table)
    if pending is None:
        return hand
    given = hand.get("bock", pending)
    if given != pending:
        raise LedgerError(
            _("%(pending)s Bock rounds are pending at this table, not %(given)s.")
            % {"pending": pending, "given": given},
            field="bock",
        )
    return hand | {"bock": pending}


def _sitting_dealer(table: Table, hand: dict[str, Any], dealer: int | None) -> int | None:
    """Where the hand names its dealer (the one who sits out at four-seat Skat), the deal rotation follows that seat."""
    position = rules.game(table.game).hand_dealer(table.seat_names, hand) if isinstance(hand, dict) else None
    if position is None:
        return dealer
    if dealer is not None and dealer != position:
        raise LedgerError(_("The dealer who sits out must be the hand's dealer."), field="dealer")
    return position


def bock_pending(table: Table, counted_oldest_first: list[Hand]) -> int:
    """How many Bock rounds cover the table's next hand (Skat pub rules; the engine takes the factor 2^n).

    Each triggered round covers the next hand of every seat (as many hands as seats) starting with the hand
    after the trigger; rounds triggered while others run overlap and stack, so a hand inside two rounds
    counts ×4. The queue is derived from the counted hands, so a correction or void re-derives it.
    """
    started = (int(hand.result.get("bock_rounds") or 0) for hand in counted_oldest_first)
    return rules.bock_queue(len(table.seat_names), started)


# --------------------------------------------------------------------------------------------------------------
# Helpers


def _require_open(evening: Evening) -> None:
    if not evening.is_open:
        raise EveningClosed()


def _lock_table(table: Table) -> Table:
    """Lock the table's row so hand numbers are handed out one at a time."""
    locked = Table.objects.select_for_update().select_related("evening").get(pk=table.pk)
    _require_open(locked.evening)
    return locked


def _lock_hand(hand: Hand, version: int) -> Hand:
    _lock_table(hand.table)
    current = Hand.objects.select_for_update().select_related("table").get(pk=hand.pk)
    if current.version != version:
        raise StaleVersion(current)
    return current


def _dealer_position(table: Table, dealer: int | None) -> int:
    if dealer is None:
        return next_dealer(table, table.hands.filter(status=Hand.Status.COUNTED).order_by("-number").first())
    if not 0 <= dealer < len(table.seat_names):
        raise LedgerError(
            _("The dealer must be one of the %(count)s seats.") % {"count": len(table.seat_names)}, field="dealer"
        )
    return dealer


def _archive(hand: Hand) -> None:
    HandVersion.objects.create(
        hand=hand,
        version=hand.version,
        dealer=hand.dealer,
        document=hand.document,
        result=hand.result,
        status=hand.status,
        changed_by=hand.changed_by,
        changed_at=hand.changed_at,
    )


def _bump(hand: Hand, by: Any) -> None:
    hand.version += 1
    hand.changed_by = by
    hand.save()
    Table.objects.filter(pk=hand.table_id).update(revision=F("revision") + 1)
    # hand.table was read under the table's lock (_lock_hand): its revision is the one just raised.
    _announce(hand.table, revision=hand.table.revision + 1, hands=hand.table.hand_count)


def _announce(table: Table, *, revision: int, hands: int) -> None:
    """After the commit (never for a hand rolled back), whoever follows the table hears that it changed."""
    changed = hooks.HandsChanged(table_id=table.pk, evening_id=table.evening_id, revision=revision, hands=hands)
    hooks.hands_changed.send_after_commit(changed)


def _post(hand: Hand, score: rules.Score) -> None:
    """One posting per player; refuses a hand whose amounts do not sum to exactly zero."""
    if sum(score.amounts.values(), Decimal(0)) != 0:
        raise LedgerError(_("The hand's amounts do not sum to zero."))
    seats = dict(Seat.objects.filter(table_id=hand.table_id).values_list("player__name", "player_id"))
    if not set(score.amounts) <= set(seats):
        # Priced before the table's row was locked, and a player was renamed meanwhile.
        raise LedgerError(_("The table's players were renamed meanwhile; enter this hand again."))
    Posting.objects.bulk_create(
        Posting(hand=hand, player_id=seats[name], amount=amount) for name, amount in score.amounts.items()
    )
    running_balances.rederive(hand, posted=score.amounts)
    _require_evening_balanced(hand)


def _require_evening_balanced(hand: Hand) -> None:
    """Inside the hand's transaction: the evening's counted postings still sum to exactly zero, or nothing is kept.

    One aggregate query; it guards the ledger against a bug anywhere (or a hand-made row) that would
    otherwise leave somebody paying money that nobody receives.
    """
    evening_id = Table.objects.filter(pk=hand.table_id).values("evening_id")[:1]
    if Posting.objects.filter(hand__table__evening_id=evening_id).counted().total() != 0:
        raise LedgerError(_("The evening's balances would no longer sum to zero; nothing was stored."))


# --------------------------------------------------------------------------------------------------------------
# The close-out: settlement, transfers, payment details (RULES.md §4)


@transaction.atomic
def evening_close(*, evening: Evening, by: Any, mode: str = "fewest", banker: str | None = None) -> Settlement:
    """Freeze the balances, round them to the evening's coin and plan who pays whom; hands are locked from now on."""
    locked = Evening.objects.select_for_update().get(pk=evening.pk)
    _require_open(locked)
    exact = selectors.evening_balances(locked)
    _require_storable_balances(exact)
    settlement = Settlement.objects.filter(evening=locked).first()  # kept by a reopen only if something was paid
    paid = (
        list(settlement.transfers.filter(paid_at__isnull=False).select_related("payer", "payee")) if settlement else []
    )
    rounded, planned = settlement_plan(
        exact=exact, coin=locked.coin, mode=mode, banker=banker, paid=[transfer_planned(t) for t in paid]
    )
    # The plan speaks of names, which settle() checked are the evening's players: all of them the owner's.
    players = {player.name: player for player in Player.objects.filter(owner_id=locked.owner_id, name__in=exact)}
    fields = {
        "mode": mode,
        "banker": players[banker] if banker else None,
        "coin": locked.coin,
        "exact": {player: str(amount) for player, amount in exact.items()},
        "rounded": {player: str(rounded[player]) for player in exact},
        "created_by": by,
        "created_at": timezone.now(),
    }
    settlement, _created = Settlement.objects.update_or_create(evening=locked, defaults=fields)
    # A feature may book the planned transfers elsewhere instead (a circle's tab): then none are stored here.
    closing = hooks.EveningClosing(evening=locked, settlement=settlement, planned=list(planned), by=by)
    if not any(hooks.evening_closing.send(closing)):
        Transfer.objects.bulk_create(
            Transfer(settlement=settlement, payer=players[t.payer], payee=players[t.payee], amount=t.amount)
            for t in planned
        )
    locked.status = Evening.Status.CLOSED
    locked.save(update_fields=["status"])
    note = f"{settlement.mode}:{banker}" if banker else settlement.mode  # codes: EveningEvent.description reads them
    EveningEvent.objects.create(evening=locked, kind=EveningEvent.Kind.CLOSED, by=by, note=note)
    evening.status = locked.status
    return settlement


def _require_storable_balances(exact: dict[str, Decimal]) -> None:
    """Each table keeps its balances within what the books hold (``ledger.running_balances``); a player who sat at
    several tables can still pass it over the evening, and then neither the settlement nor its transfers can be
    stored."""
    for name, balance in exact.items():
        if abs(balance) > rules.MAX_AMOUNT:
            raise LedgerError(
                _("%(player)s's balance this evening is %(balance)s; the books hold at most %(most)s either way.")
                % {"player": name, "balance": balance, "most": rules.MAX_AMOUNT},
                field="evening",
            )


def settlement_plan(
    *, exact: dict[str, Decimal], coin: Decimal, mode: str, banker: str | None, paid: Sequence[NamedTransfer]
) -> tuple[dict[str, Decimal], tuple[PlannedTransfer, ...]]:
    """The rounded balances and the transfers still to plan, for balances ``exact`` of which ``paid`` are paid.

    Names throughout, as the balances are: ``transfer_planned`` gives a stored transfer's.

    What closing stores, and what an import checks a settlement against. LedgerError if the mode, banker or coin
    cannot settle these balances, or a paid transfer is not between two of their players.
    """
    # Money already paid before a reopen stays paid: plan only what is still owed. Subtracting the paid transfers
    # from the exact balances and rounding that keeps the rounding of the full balances whenever the paid amounts
    # are whole coins (they came from an earlier plan), and still works if the coin changed in between.
    owed = dict(exact)
    for transfer in paid:
        if not {transfer.payer, transfer.payee} <= set(exact) or transfer.payer == transfer.payee:
            raise LedgerError(_("A paid transfer must be between two players of the evening."), field="transfer")
        owed[transfer.payer] += transfer.amount
        owed[transfer.payee] -= transfer.amount
    try:
        plan = settle(owed, coin, mode, banker or None)
    except rules.RulesError as error:
        field = error.field if error.field in ("mode", "banker", "coin") else "non_field_errors"
        raise LedgerError(error.message, field=field) from None
    # Shown rounded balances are the whole evening's: what is still owed, plus what was paid already.
    rounded = dict(plan.rounded)
    for transfer in paid:
        rounded[transfer.payer] -= transfer.amount
        rounded[transfer.payee] += transfer.amount
    return rounded, plan.transfers


class NamedTransfer(Protocol):
    """A transfer by the players' names: a planned one, a stored one's ``transfer_planned``, an imported one."""

    @property
    def payer(self) -> str: ...

    @property
    def payee(self) -> str: ...

    @property
    def amount(self) -> Decimal: ...


def transfer_planned(transfer: Transfer) -> PlannedTransfer:
    """A stored transfer as the plan speaks of it: by the players' names."""
    return PlannedTransfer(transfer.payer.name, transfer.payee.name, transfer.amount)


@transaction.atomic
def evening_reopen(*, evening: Evening, by: Any) -> Evening:
    """Open a closed evening again for hands; the unpaid transfers are dropped, paid ones stay (and stay paid)."""
    locked = Evening.objects.select_for_update().get(pk=evening.pk)
    if locked.is_open:
        raise LedgerError(_("This evening is open already."), field="evening")
    dropped = 0
    hooks.evening_reopening.send(locked)  # what the close booked elsewhere (a circle's tab or pot) is taken back
    settlement = Settlement.objects.filter(evening=locked).first()
    if settlement is not None:
        dropped, _kinds = settlement.transfers.filter(paid_at__isnull=True).delete()
        if not settlement.transfers.exists():
            settlement.delete()
    locked.status = Evening.Status.OPEN
    locked.save(update_fields=["status"])
    note = str(dropped)  # a number: EveningEvent.description says it in the reader's language
    EveningEvent.objects.create(evening=locked, kind=EveningEvent.Kind.REOPENED, by=by, note=note)
    evening.status = locked.status
    return locked


@transaction.atomic
def transfer_mark_paid(*, transfer: Transfer, by: Any) -> Transfer:
    """Record that the payer has paid; marking it again changes nothing (a double tap, a retried request)."""
    # The evening's row first, as closing, reopening and taking a mark back lock it: a paid mark holding the
    # transfer while it waits for the evening (its history row points at it) deadlocked with a reopen.
    _lock_transfer_evening(transfer)
    marked = _transfer_marked(transfer, paid=True, by=by, kind=EveningEvent.Kind.TRANSFER_PAID)
    if marked.row is None:
        raise LedgerError(_("This transfer is no longer planned: the evening was reopened."), field="transfer")
    return marked.row


def _lock_transfer_evening(transfer: Transfer) -> Evening | None:
    """Lock the evening of a transfer's settlement (None when the transfer is gone)."""
    evening_id = Transfer.objects.filter(pk=transfer.pk).values_list("settlement__evening_id", flat=True).first()
    return None if evening_id is None else Evening.objects.select_for_update().filter(pk=evening_id).first()


def _transfer_marked(transfer: Transfer, *, paid: bool, by: Any, kind: str) -> payments.Marked[Transfer]:
    """The transfer marked as the tap names (``ledger.payments``), a change noted in the evening's history."""
    # Its players too, as the history's note and the answer name them; but only the transfer and its settlement
    # are locked, as before: a rename locks the player, and must not wait on a paid mark or make it wait.
    transfers = Transfer.objects.select_related("settlement", "payer", "payee")

    def audit(locked: Transfer) -> None:
        EveningEvent.objects.create(evening_id=locked.settlement.evening_id, kind=kind, by=by, note=str(locked))

    return payments.paid_mark_set(transfers, pk=transfer.pk, paid=paid, by=by, lock_also=("settlement",), audit=audit)


@transaction.atomic
def transfer_mark_unpaid(*, transfer: Transfer, by: Any) -> Transfer:
    """Take back a paid mark (a wrong tap); taking it back again changes nothing.

    On a closed evening the transfer is owed again, part of the same plan. On a reopened evening it is dropped,
    as the reopen dropped the unpaid transfers: the next close plans that money again.
    """
    # The evening's row first, as closing and reopening lock it: a reopen never runs between the read and the
    # write, and the two never wait on each other's locks.
    evening = _lock_transfer_evening(transfer)
    if evening is None:  # dropped meanwhile: nothing is marked paid any more
        transfer.paid_at = transfer.paid_by = None
        return transfer
    marked = _transfer_marked(transfer, paid=False, by=by, kind=EveningEvent.Kind.TRANSFER_UNPAID)
    locked = marked.row
    if locked is None:  # dropped meanwhile, as above
        transfer.paid_at = transfer.paid_by = None
        return transfer
    if marked.changed and evening.is_open:
        settlement = locked.settlement
        locked.delete()
        locked.pk = transfer.pk  # the answer still names the transfer it took back (delete() forgets the id)
        if not settlement.transfers.exists():
            settlement.delete()
    return locked


def player_iban_set(*, player: Player, iban: str) -> Player:
    """Store a player's IBAN for payment QR codes (normalized, checksum checked); empty removes it."""
    if iban.strip():
        try:
            iban = qr.check_iban(iban)
        except qr.InvalidIban as error:
            raise LedgerError(str(error), field="iban") from None
    else:
        iban = ""
    player.iban = iban
    player.save(update_fields=["iban"])
    return player


# --------------------------------------------------------------------------------------------------------------
# Renaming a player


@transaction.atomic
def player_rename(*, player: Player, name: str) -> Player:
    """Call the player ``name`` everywhere the books speak of them, in one transaction, or nowhere.

    Names are what the books speak: each table's seats, every hand document and its priced result (old versions
    included), the settlement's balances and transfers, the evening's history. Renaming only the player's row
    would leave their tables seating somebody who no longer exists (the next hand fails, the balances stop
    summing to zero). A rename fixes a typo or tells two namesakes apart, so the scorekeeper expects the new name
    on every page of every evening, the old ones included, and the money unchanged: every hand is priced again
    under the new name and must come to the same amounts, and every evening must still sum to zero.
    """
    try:
        new = player_name_tidy(name)  # the same rules as a new player's name, hidden characters included
    except LedgerError as error:
        raise LedgerError(error.message, field="name") from None
    # The evenings first, as closing and reopening lock them; then the tables, as recording a hand does.
    seated = Seat.objects.filter(player=player)
    evenings = list(
        Evening.objects.select_for_update().filter(pk__in=seated.values("table__evening_id")).order_by("pk")
    )
    tables = list(Table.objects.select_for_update().filter(pk__in=seated.values("table_id")).order_by("pk"))
    locked = Player.objects.select_for_update().get(pk=player.pk)
    old = locked.name
    if new == old:
        return locked
    if Player.objects.filter(owner_id=locked.owner_id, name=new).exists():
        raise LedgerError(_("There is already a player called %(name)s.") % {"name": new}, field="name")
    locked.name = new
    locked.save(update_fields=["name"])
    for table in tables:
        _table_rename(table, old, new)
    for settlement in Settlement.objects.select_for_update().filter(evening__in=evenings):
        _settlement_rename(settlement, old, new)
    for event in EveningEvent.objects.filter(evening__in=evenings).exclude(kind=EveningEvent.Kind.REOPENED):
        note = _note_renamed(event, old, new)
        if note != event.note:
            EveningEvent.objects.filter(pk=event.pk).update(note=note)
    # The money did not move, but the balances are read by name: every table's and evening's must still sum to 0.
    balanced = [selectors.table_posted_balances(table) for table in tables]
    balanced += [selectors.evening_balances(evening) for evening in evenings]
    if any(sum(balances.values(), Decimal(0)) != 0 for balances in balanced):
        raise LedgerError(_("The evening's balances would no longer sum to zero; nothing was stored."))
    player.name = new
    return locked


def _table_rename(table: Table, old: str, new: str) -> None:
    table.seat_names = [new if seated == old else seated for seated in table.seat_names]
    table.revision += 1  # the share link's ETag: its pages show the new name
    table.save(update_fields=["seat_names", "revision"])
    schema = rules.schema(table.game)["properties"]["hand"]
    hands = list(table.hands.all())
    for hand in hands:
        hand.document, hand.result = _repriced(table, hand.number, hand.document, hand.result, schema, old, new)
    Hand.objects.bulk_update(hands, ["document", "result"])  # a rename is no correction: no new version
    versions = list(HandVersion.objects.filter(hand__table=table).select_related("hand"))
    for version in versions:
        number = version.hand.number
        version.document, version.result = _repriced(table, number, version.document, version.result, schema, old, new)
    HandVersion.objects.bulk_update(versions, ["document", "result"])


def _repriced(
    table: Table, number: int, document: Any, result: Any, schema: dict[str, Any], old: str, new: str
) -> tuple[Any, dict[str, Any]]:
    """The document with the player renamed and its result priced again; LedgerError unless the money is the same."""
    renamed = _renamed(document, schema, old, new)
    expected = {(new if name == old else name): Decimal(amount) for name, amount in result["amounts"].items()}
    try:
        score, repriced = _stored_result(table, renamed)
    except rules.RulesError as error:
        raise LedgerError(
            _("Hand #%(number)s of %(table)s can no longer be priced (%(error)s); nobody was renamed.")
            % {"number": number, "table": table, "error": error.message},
            field="name",
        ) from None
    if dict(score.amounts) != expected:
        raise LedgerError(
            _("Hand #%(number)s of %(table)s would come to other amounts under the new name; nobody was renamed.")
            % {"number": number, "table": table},
            field="name",
        )
    return renamed, repriced


def _renamed(value: Any, schema: Any, old: str, new: str) -> Any:
    """A part of a hand document with the player ``old`` called ``new``, led by the game's JSON Schema.

    A player is a text the schema allows without listing the allowed values (declarer, partner, jungfrau…) or a
    key of an object whose keys the schema leaves open (ramsch_points); a listed choice such as a contract or a
    trump suit is never touched, even if a player shares its name.

    >>> schema = {"properties": {"declarer": {"type": "string"}, "contract": {"enum": ["grand"]},
    ...           "points": {"type": "object", "additionalProperties": {"type": "integer"}}}}
    >>> _renamed({"declarer": "grand", "contract": "grand", "points": {"grand": 3}}, schema, "grand", "Ana")
    {'declarer': 'Ana', 'contract': 'grand', 'points': {'Ana': 3}}
    """
    schema = schema if isinstance(schema, dict) else {}
    if isinstance(value, dict):
        known, other = schema.get("properties", {}), schema.get("additionalProperties")
        renamed = {}
        for key, item in value.items():
            if key in known:
                renamed[key] = _renamed(item, known[key], old, new)
            elif isinstance(other, dict):
                renamed[new if key == old else key] = _renamed(item, other, old, new)
            else:
                renamed[key] = item
        return renamed
    if isinstance(value, list):
        return [_renamed(item, schema.get("items"), old, new) for item in value]
    kinds = schema.get("type")
    is_text = kinds == "string" or (isinstance(kinds, list) and "string" in kinds)
    return new if value == old and is_text and "enum" not in schema else value


def _settlement_rename(settlement: Settlement, old: str, new: str) -> None:
    def renamed(name: str) -> str:
        return new if name == old else name

    # In the order closing gives them: largest gain first, then by name (the new one).
    exact = sorted(((renamed(name), amount) for name, amount in settlement.exact.items()), key=_gain_then_name)
    rounded = {renamed(name): amount for name, amount in settlement.rounded.items()}
    settlement.exact = dict(exact)
    settlement.rounded = {name: rounded[name] for name, _amount in exact}
    settlement.save(update_fields=["exact", "rounded"])  # the banker and the transfers point at the player


def _gain_then_name(row: tuple[str, str]) -> tuple[Decimal, str]:
    return -Decimal(row[1]), row[0]


def _note_renamed(event: EveningEvent, old: str, new: str) -> str:
    """The history's note with the new name: ``mode:banker`` when closed, ``payer → payee amount`` for payments."""
    if event.kind == EveningEvent.Kind.CLOSED:
        mode, sep, banker = event.note.partition(":")
        return f"{mode}{sep}{new if banker == old else banker}"
    payer, arrow, rest = event.note.partition(" → ")
    payee, space, amount = rest.rpartition(" ")
    if not arrow or not space:
        return event.note
    return f"{new if payer == old else payer}{arrow}{new if payee == old else payee}{space}{amount}"


# --------------------------------------------------------------------------------------------------------------
# Users' own settings


def user_language_set(*, user: Any, language: str) -> UserPreference:
    """Remember the language a user chose, for their next sessions and other devices."""
    if language not in dict(settings.LANGUAGES):
        raise LedgerError(_("Unknown language."), field="language")
    preference, _created = UserPreference.objects.update_or_create(user=user, defaults={"language": language})
    return preference

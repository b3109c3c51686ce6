"""A table's hands: recorded, corrected, voided, undone and restored, each under the table's lock, with postings
that sum to exactly zero and the running balances kept with them."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext as _

import rules
from ledger import hooks, running_balances, selectors
from ledger.errors import HandConflict, LedgerError, StaleVersion, require_open
from ledger.models import (
    Hand,
    HandVersion,
    Posting,
    Seat,
    Table,
)
from rules.base import said

# --------------------------------------------------------------------------------------------------------------
# Hands


def hand_price(*, table: Table, hand: dict[str, Any]) -> rules.Score:
    """Price a hand at the table's frozen ruleset without storing anything (RulesError on bad input)."""
    return rules.score(table.document(hand))


def stored_result(table: Table, hand: dict[str, Any]) -> tuple[rules.Score, dict[str, Any]]:
    """The priced hand and the result to store for it.

    The hand is priced once, in the caller's language (bad input fails there, and its RulesError speaks that
    language). The record stays frozen (no re-pricing when a hand is shown), and every viewer reads it in their own
    language: ``result["source"]`` keeps how the label and lines were made (message ids and their parameters,
    :meth:`rules.Score.text_source`), which ``result_texts.result_label``/``result_lines`` say in the reader's language.
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
    return stored_result(table, hand)


def hand_preview(*, table: Table, hand: dict[str, Any], number: int, by: Any = None) -> Hand:
    """The hand as Record would store it as hand ``number``, priced by ``hand_price`` (RulesError on bad input), never
    saved: what a phone tapped when another hand was recorded first, shown beside the one that won."""
    _score, result = stored_result(table, hand)
    preview = Hand(table=table, number=number, dealer=0, document=hand, result=result)
    if by is not None:
        preview.entered_by = preview.changed_by = by
    return preview


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
    *,
    table: Table,
    hand: dict[str, Any],
    by: Any,
    key: str | None = None,
    dealer: int | None = None,
    after: int | None = None,
) -> Hand:
    """Price and store one hand with its postings; a repeated ``key`` returns the hand already recorded.

    ``after`` is the number of hands the phone showed when its hand was tapped: when another hand was recorded
    meanwhile, nothing is stored and ``HandConflict`` names the first hand the phone had not seen, so that two phones
    recording "the next hand" at once never make it two hands unasked. None (the import, old clients): no check.
    """
    if key:
        existing = Hand.objects.filter(table=table, key=key).first()
        if existing is not None:
            return existing
    hand = _with_pending_bock(table, hand)
    dealer = _sitting_dealer(table, hand, dealer)
    score, result = stored_result(table, hand)
    try:
        with transaction.atomic():
            locked = _lock_table(table)
            if after is not None and locked.hand_count != after:
                # The phone's own tap, retried while its first try waited for the lock, is no conflict.
                if key and (mine := Hand.objects.filter(table=locked, key=key).first()) is not None:
                    return mine
                raise HandConflict(_first_unseen(locked, after))
            pending = selectors.table_pending_bock(locked)
            if pending is not None and hand["bock"] != pending:
                raise LedgerError(_("Another hand was entered meanwhile; enter this one again."), field="bock")
            number = locked.hand_count + 1
            # The table's newest hand: the new one's balances start from it and, counted, it moves the deal.
            newest = locked.hands.order_by("-number").only(*_NEWEST_FIELDS).first()
            stored = Hand(
                table=locked,
                number=number,
                dealer=_dealer_position(locked, dealer, newest),
                document=hand,
                result=result,
                key=key or None,
                entered_by=by,
                changed_by=by,
            )
            _post_newest(stored, score, newest)
            Table.objects.filter(pk=locked.pk).update(hand_count=number, revision=F("revision") + 1)
            _announce(locked, revision=locked.revision + 1, hands=number)
            _tell_stored(stored, "recorded")
    except IntegrityError:
        # Two taps with the same key raced past the first lookup: the other one won, answer with its hand.
        if key and (existing := Hand.objects.filter(table=table, key=key).first()) is not None:
            return existing
        raise
    return stored


def _first_unseen(table: Table, after: int) -> Hand:
    """The first hand recorded after the ``after`` hands a phone showed (an imported evening may skip numbers);
    a count the table never had is a page from elsewhere, refused on its field."""
    unseen = None
    if 0 <= after < table.hand_count:
        unseen = table.hands.filter(number__gt=after).select_related("entered_by").order_by("number").first()
    if unseen is None:
        raise LedgerError(
            _("The table has %(count)s hands, not %(after)s; reload the page.")
            % {"count": table.hand_count, "after": after},
            field="after",
        )
    return unseen


def hand_correct(*, hand: Hand, document: dict[str, Any], by: Any, version: int, dealer: int | None = None) -> Hand:
    """Re-price a hand with a corrected document; the old version is kept in the hand's history."""
    score, result = stored_result(hand.table, document)
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
        _tell_stored(current, "corrected")
    return current


def hand_void(*, hand: Hand, by: Any, version: int | None = None) -> Hand:
    """Take a hand out of the balances; it stays in the log (crossed out) and in its history."""
    return _status_set(hand, by, version, Hand.Status.VOIDED)


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
    return _status_set(hand, by, version, Hand.Status.COUNTED)


def _status_set(hand: Hand, by: Any, version: int | None, status: str) -> Hand:
    """The hand voided or counted again as a new version, the old one kept; a hand already so stays as it is (a
    double tap changes nothing)."""
    with transaction.atomic():
        current = _lock_hand(hand, hand.version if version is None else version)
        if current.status == status:
            return current
        _archive(current)
        current.status = status
        _bump(current, by)
        running_balances.rederive(current)
        if status == Hand.Status.COUNTED:
            _require_evening_balanced(current)  # counted again, it must fit the evening's books
        _tell_stored(current, "restored" if status == Hand.Status.COUNTED else "voided")
    return current


def _with_pending_bock(table: Table, hand: dict[str, Any]) -> dict[str, Any]:
    """The hand with the Bock factor the ledger's queue gives it (Skat pub rules); a different one is refused.

    The queue is the ledger's, not the client's: a form drawn before another scorekeeper's hand, or an API call
    without ``bock``, must not price a hand inside a Bock round at the single rate.
    """
    if not isinstance(hand, dict):
        return hand
    pending = selectors.table_pending_bock(table)
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


# --------------------------------------------------------------------------------------------------------------
# Helpers


def _lock_table(table: Table) -> Table:
    """Lock the table's row so hand numbers are handed out one at a time."""
    locked = Table.objects.select_for_update().select_related("evening").get(pk=table.pk)
    require_open(locked.evening)
    return locked


def _lock_hand(hand: Hand, version: int) -> Hand:
    _lock_table(hand.table)
    current = Hand.objects.select_for_update().select_related("table").get(pk=hand.pk)
    if current.version != version:
        raise _stale(current)
    return current


def _stale(current: Hand) -> StaleVersion:
    """The refusal of a change made from an old version, naming who made the newer one: a correction racing a
    confirmation or another phone's correction is answered with whose change it missed."""
    changed_by = current.changed_by  # read only here: the lock above takes no user's row
    stale = StaleVersion(current)
    stale.message = _(
        "Hand #%(number)s was changed meanwhile (now version %(version)s) by %(who)s; reload it and try again."
    ) % {
        "number": current.number,
        "who": changed_by.get_full_name() or changed_by.get_username(),
        "version": current.version,
    }
    stale.args = (stale.message,)
    return stale


def _dealer_position(table: Table, dealer: int | None, newest: Hand | None = None) -> int:
    """The seat that deals the hand: ``dealer`` checked, or without it the rotation's next (after the last counted
    hand, which ``newest``, the table's newest hand when read already, is when it counts)."""
    if dealer is None:
        last: Hand | None = None  # none at a table without hands
        if newest is not None and newest.is_counted:
            last = newest
        elif newest is not None or table.hand_count:
            last = table.hands.filter(status=Hand.Status.COUNTED).order_by("-number").first()
        return selectors.next_dealer(table, last)
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


def _tell_stored(hand: Hand, change: str) -> None:
    """After the commit, the features hear which hand changed and how (the phones that must confirm it, ...)."""
    stored = hooks.HandStored(
        hand_id=hand.pk,
        table_id=hand.table_id,
        evening_id=hand.table.evening_id,
        number=hand.number,
        version=hand.version,
        change=change,
        by_id=hand.changed_by_id,
        confirmation=hand.table.confirmation,
    )
    hooks.hand_stored.send_after_commit(stored)


# What hand_record reads of the table's newest hand: its running balances and, for the deal, its dealer and result.
_NEWEST_FIELDS = ("table_id", "number", "status", "dealer", "result", "balances", "list_points")


def _post_newest(hand: Hand, score: rules.Score, newest: Hand | None) -> None:
    """Store a new hand, numbered after all of its table's (``newest`` is the newest one so far), with its postings:
    the refusals of ``_post`` in the same order, but its running balances written with the hand's own insert, since
    no hand comes after it."""
    _require_zero_sum(score)
    seats = _seated(hand.table_id, score)
    running_balances.newest(hand, score.amounts, newest)
    hand.save(force_insert=True)
    Posting.objects.bulk_create(
        Posting(hand=hand, player_id=seats[name], amount=amount) for name, amount in score.amounts.items()
    )
    _require_evening_balanced(hand)


def _require_zero_sum(score: rules.Score) -> None:
    if sum(score.amounts.values(), Decimal(0)) != 0:
        raise LedgerError(_("The hand's amounts do not sum to zero."))


def _seated(table_id: int, score: rules.Score) -> dict[str, int]:
    """{name: player id} of the table's seats, which must name every player of ``score``."""
    seats = dict(Seat.objects.filter(table_id=table_id).values_list("player__name", "player_id"))
    if not set(score.amounts) <= set(seats):
        # Priced before the table's row was locked, and a player was renamed meanwhile.
        raise LedgerError(_("The table's players were renamed meanwhile; enter this hand again."))
    return seats


def _post(hand: Hand, score: rules.Score) -> None:
    """One posting per player; refuses a hand whose amounts do not sum to exactly zero."""
    _require_zero_sum(score)
    seats = _seated(hand.table_id, score)
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

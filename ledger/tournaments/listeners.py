"""What the books' hooks (``ledger/hooks.py``) tell the tournaments; connected in ``TournamentsConfig.ready()``.

- a table's hands changed (sent after the commit): a tournament table's result is stored and the standings pushed;
- the scorekeeper's lists of evenings leave out the tournaments' tables, which their tournament's page lists, and
  the choice of scorekeepers leaves out the table phones' guest accounts;
- the table page drawn for a table's phone (the session its score-sheet link made) says so, and leaves the money
  out when the tournament is not played for money.
"""

from __future__ import annotations

from django.db.models import Q

from ledger import hooks
from ledger.tournaments import selectors, services
from ledger.tournaments.formats import tournament_format
from ledger.tournaments.models import TournamentTable
from ledger.tournaments.table_guest import GUEST_TABLE


def hands_changed(event: hooks.HandsChanged) -> None:
    """After the commit of a change to a table's hands: if it is a tournament's, the standings move on."""
    tournament_id = selectors.tournament_id_of(event.table_id)
    if tournament_id is not None:
        services.results_changed(tournament_id)


def evenings_unlisted(_event: None) -> Q:
    """A tournament's tables are evenings too; they are kept on the tournament's page."""
    return Q(tournament_table__isnull=False)


def accounts_unlisted(_event: None) -> Q:
    """A table phone's guest account keeps score of one of the organiser's evenings, but it is nobody."""
    return Q(tournament_table__isnull=False)


def table_phone_view(event: hooks.TableViewer) -> hooks.PhoneView | None:
    """The table's phone (the session its score-sheet link made), which reaches its table's hands, log and
    standings only (``table_guest``), and whether it shows the game alone: the tournament is not played for money,
    its players count list points (Skat) or the game points their placement comes from (Mariáš, Šnapser). One
    query, for a phone only."""
    request = event.request
    if getattr(request, "session", None) is None or request.session.get(GUEST_TABLE) != event.table.pk:
        return None
    found = TournamentTable.objects.filter(table=event.table).select_related("round__tournament").first()
    for_money = found is None or tournament_format(found.round.tournament).for_money
    return hooks.PhoneView(table_phone=True, game_only=not for_money)


def connect() -> None:
    hooks.hands_changed.connect(hands_changed)
    hooks.evenings_unlisted.connect(evenings_unlisted)
    hooks.accounts_unlisted.connect(accounts_unlisted)
    hooks.table_phone_view.connect(table_phone_view)

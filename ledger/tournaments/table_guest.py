"""A tournament table's phone is confined to its table.

The score-sheet link (``/t/<token>/``, ``ledger.tournaments.views.tournament_sheet``) logs the phone in as the
table's guest, a user who keeps score of that table's evening alone; the access layer already answers 404 for any
other evening, table or hand. This middleware closes the rest: the guest's pages that belong to no evening (home,
a new evening, circles, tournaments, statistics, the API beyond its table) redirect a page view to the table and
answer 404 to anything else.

The guest is recognised by the session the link made (``GUEST_TABLE``: no query per request); a guest account has
no password, so the link is its only way in. Once the link is renewed (or the round is over) the guest is inactive
and the session finds nobody logged in: the table's pages then say so (``link_renewed``), not the log-in page.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect

from ledger.tournaments.table_link import link_renewed

GUEST_TABLE = "talon_guest_table"
GUEST_EVENING = "talon_guest_evening"

# Pages for everybody or for the app itself, which the guest may use as anybody may.
_OPEN = re.compile(
    r"^/(static/|offline/|sw\.js$|manifest\.webmanifest$|accounts/logout/$|i18n/setlang/$|t/|s/|r/|m/|games/"
    r"|tournaments/checkin/)"
)


def guest_may_open(path: str, table_id: int, evening_id: int) -> bool:
    """Whether the table's guest may open ``path``: its table, its hands (the access layer keeps these to its
    evening), its table and hands in the API (an opponent's OK given by name on the table's phone), and the pages
    open to everybody (the standings among them).

    Not its evening's pages (``evening_id``), although it keeps score of that evening: they are the organiser's
    (a new table, scorekeepers, the share link, exports, the summary, closing and settling)."""
    if _OPEN.match(path):
        return True
    return path.startswith((f"/tables/{table_id}/", f"/api/tables/{table_id}/", "/hands/", "/api/hands/"))


class TableGuestMiddleware:
    """After AuthenticationMiddleware: a table's guest reaches its table's pages only."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # Without a session cookie there is no guest: the session is not touched (no "Vary: Cookie" added).
        session = getattr(request, "session", None)
        if session is None or settings.SESSION_COOKIE_NAME not in request.COOKIES:
            return self.get_response(request)
        table_id = session.get(GUEST_TABLE)
        if table_id is None:
            return self.get_response(request)
        evening_id = session.get(GUEST_EVENING)
        if not request.user.is_authenticated:
            if guest_may_open(request.path_info, int(table_id), int(evening_id or 0)) and not _OPEN.match(
                request.path_info
            ):
                return link_renewed(request, int(table_id))
            return self.get_response(request)
        if guest_may_open(request.path_info, int(table_id), int(evening_id or 0)):
            return self.get_response(request)
        if request.method in ("GET", "HEAD") and not request.path_info.startswith("/api/"):
            return redirect("ledger:table_detail", table_id=int(table_id))
        raise Http404

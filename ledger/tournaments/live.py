"""A tournament's live standings: the players' phones and the projector (the printouts are ``pdf``).

- ``/r/<share_token>/`` (``tournament_live``): the standings for every player's phone, read only, no account; the
  round and its clock. ``/r/<share_token>/stream/`` (``tournament_stream``) is its live line: the standings first,
  then whatever ``services`` pushes after each stored hand and each new round. static/js/standings.js
  redraws the rows from the message itself, so a hand costs one push however many phones watch; only while the
  line is down does the page ask again (every few seconds, answered 304 while nothing changed).
- ``/tournaments/<id>/projector/`` (``tournament_projector``): the same for the wall, in big type, organiser only.

Anybody but the organiser gets 404 from the organiser's pages; a wrong or switched-off share token gets 404.
"""

from __future__ import annotations

import datetime
import functools
import json
import time
import zlib
from decimal import Decimal
from typing import Any

from django.contrib.auth.decorators import login_required
from django.db import OperationalError
from django.db.models import Count, Max, OuterRef, Subquery, Sum
from django.db.models.functions import Coalesce
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import condition
from django.views.decorators.vary import vary_on_headers

from ledger.live import fanout, limits, links, streams
from ledger.qr import qr_svg
from ledger.tournaments import formats, selectors
from ledger.tournaments.access import tournament_for_owner
from ledger.tournaments.models import Entrant, Tournament
from ledger.views.htmx import HtmxHttpRequest
from rules import i18n
from rules import tournament as rt

FALLBACK_POLL_SECONDS = 5  # how often a page whose live line is down asks for the standings (static/js)


# --------------------------------------------------------------------------------------------------------------
# Who may see what


def _shared(share_token: str) -> Tournament:
    """The tournament whose standings link this is; 404 once the organiser switched it off (NULL)."""
    return get_object_or_404(Tournament, share_token=share_token)


# --------------------------------------------------------------------------------------------------------------
# The standings as the pages show them


def shown_points(points: Decimal) -> str:
    """Points as the active language writes them, their own decimal places only (7,5 · 120 · −3)."""
    return str(i18n.format_number(Decimal(points), places=None))


def shown_money(amount: Decimal) -> str:
    """Money as a scoreboard shows it: +1,20 · −0,48 · 0,00 (the page says the currency once)."""
    amount = Decimal(amount)
    text = str(i18n.format_amount(amount))
    return f"+{text}" if amount > 0 else text


def clock_text(ends_at: datetime.datetime | None, now: datetime.datetime) -> str:
    """What the round clock shows at ``now``: the time left (1:05:09, 12:04, 0:59), empty without an end;
    static/js/standings.js counts on from it in the same way."""
    if ends_at is None:
        return ""
    left = int((ends_at - now).total_seconds())
    if left <= 0:
        return ""
    hours, rest = divmod(left, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def standings_context(tournament: Tournament) -> dict[str, Any]:
    """The standings partial's context (``_tournament_standings.html``): rows with their numbers as the active
    language writes them, the current round and its clock."""
    with i18n.override(translation.get_language()):
        rows = [shown_row(row) for row in selectors.standings(tournament)]
    played = selectors.current_round(tournament)
    now = timezone.now()
    over = played is not None and played.ends_at is not None and played.ends_at <= now
    return {
        "tournament": tournament,
        "rows": rows,
        "round": played,
        "for_money": formats.tournament_format(tournament).for_money,
        "currency_sign": i18n.CURRENCY_SIGNS.get(tournament.currency, tournament.currency),
        "finished": tournament.status == Tournament.Status.FINISHED,
        "clock": clock_text(played.ends_at if played else None, now),
        "time_over": over,
        # Whole seconds: every browser reads these (static/js/standings.js), not only those that take microseconds.
        "ends_at": "" if played is None or played.ends_at is None else played.ends_at.isoformat(timespec="seconds"),
        "now": now.isoformat(timespec="seconds"),
    }


def shown_row(row: rt.Standing) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "player": row.player,
        "points": shown_points(row.points),
        "won": row.won,
        "lost": row.lost,
        "money": shown_money(row.money),
        "money_sign": "plus" if row.money > 0 else "minus" if row.money < 0 else "",
    }


def _fingerprint(tournament_filter: dict[str, Any]) -> str | None:
    """A string that changes whenever the standings or the round change; one small query (None: no such
    tournament). A table's revision moves on with every hand stored, corrected, voided or restored."""
    registered = (
        Entrant.objects.filter(tournament=OuterRef("pk"))
        .order_by()
        .values("tournament")
        .annotate(count=Count("pk"))
        .values("count")
    )
    found = (
        Tournament.objects.filter(**tournament_filter)
        .annotate(
            revisions=Coalesce(Sum("round_set__tables__table__revision"), 0),
            tables=Count("round_set__tables"),
            last_round=Max("round_set__number"),
            ends=Max("round_set__ends_at"),
            registered=Subquery(registered),
        )
        .values_list("pk", "status", "revisions", "tables", "last_round", "ends", "registered", "options")
        .first()
    )
    if found is None:
        return None
    *state, options = found
    ends = state[5]
    state[5] = ends.timestamp() if ends is not None else None
    # The format (money shown or not) too, the same in every process (hash() is not).
    return "-".join(str(part) for part in state) + f"-{zlib.crc32(json.dumps(options, sort_keys=True).encode()):x}"


def _partial_etag(request: HtmxHttpRequest, tournament_filter: dict[str, Any]) -> str | None:
    # The fallback's repeated asks only (htmx): a full page carries the server's clock for the countdown, which
    # a cached copy would have wrong.
    if not request.htmx:
        return None
    state = _fingerprint(tournament_filter)
    return None if state is None else f"{state}-{request.LANGUAGE_CODE}"


def _live_etag(request: HtmxHttpRequest, share_token: str) -> str | None:
    return _partial_etag(request, {"share_token": share_token})


def _projector_etag(request: HtmxHttpRequest, tournament_id: int) -> str | None:
    if not request.user.is_authenticated:
        return None
    return _partial_etag(request, {"pk": tournament_id, "owner": request.user})


def _page_context(request: HttpRequest, tournament: Tournament, poll_url: str) -> dict[str, Any]:
    stream = tournament.share_token and reverse("ledger:tournament_stream", args=[tournament.share_token])
    return {
        **standings_context(tournament),
        "poll_url": poll_url,
        "stream_url": stream or "",
        "poll_seconds": FALLBACK_POLL_SECONDS,
        "decimal_comma": translation.get_language() in i18n.DECIMAL_COMMA,
    }


# --------------------------------------------------------------------------------------------------------------
# Pages


@vary_on_headers("HX-Request")
@condition(etag_func=_live_etag)
def tournament_live(request: HtmxHttpRequest, share_token: str) -> HttpResponse:
    """The players' phones: the standings, read only, following the games by themselves."""
    tournament = Tournament.objects.filter(share_token=share_token).first()
    if tournament is None:
        # In the reader's language, not a bare 404: the organiser switched the link off or made a new one. A page
        # that was following the standings shows the same words in their place (static/js/standings.js).
        template = (
            "ledger/tournaments/_tournament_standings.html"
            if request.htmx
            else "ledger/tournaments/tournament_live.html"
        )
        return render(request, template, {"missing": True}, status=404)
    if request.htmx:
        return render(request, "ledger/tournaments/_tournament_standings.html", standings_context(tournament))
    poll = reverse("ledger:tournament_live", args=[share_token])
    return render(request, "ledger/tournaments/tournament_live.html", _page_context(request, tournament, poll))


@limits.limited
async def tournament_stream(request: HttpRequest, share_token: str) -> HttpResponseBase:
    """The standings' live line (Server-Sent Events): the standings and the round first, then every push
    (``selectors.standings_message``). Served by the ASGI server (docs/deploy.md); elsewhere the answer
    is the first event alone, and EventSource comes back for the next one after ``streams.RETRY_MS``.

    No database connection per viewer: the link and the first standings are read once for a room of viewers
    arriving together (``links.looked_up``, ``fanout.first_state``; each message is the whole standings, so it is
    the next viewer's first), a few reads at a time per process."""
    look_up = functools.partial(
        links.looked_up, f"tournament:{share_token}", functools.partial(_shared_id, share_token)
    )
    found = await look_up()
    if found is None:
        raise Http404  # switched off or never made: EventSource gives up, the page's fallback says why
    topic = selectors.topic(found)

    async def first() -> dict[str, Any] | None:
        # The link looked up again once listening: renewed since (its message came before this line listened, and
        # cleared the look-ups), the line ends at once. Read once listening: a hand stored meanwhile is then in
        # these standings or in a message after them.
        if await look_up() != found:
            return None
        return await fanout.first_state(topic, functools.partial(_message_when_free, found), whole=True)

    return await streams.event_stream(request, topic, first, link=share_token)


# SQLite refuses a read outright (no busy wait) when its shared cache has the table locked by a writer: the
# in-memory database of the browser tests, where the test stores a hand while a viewer reconnects. A moment later
# the writer is done.
_LOCKED_TRIES = 5


def _message_when_free(tournament_id: int) -> dict[str, Any] | None:
    for attempt in range(1, _LOCKED_TRIES + 1):
        try:
            return _message(tournament_id)
        except OperationalError as error:
            if "locked" not in str(error) or attempt == _LOCKED_TRIES:
                raise
            time.sleep(0.05 * attempt)
    raise AssertionError("unreachable")  # pragma: no cover


def _shared_id(share_token: str) -> int | None:
    found: int | None = Tournament.objects.filter(share_token=share_token).values_list("pk", flat=True).first()
    return found


def _message(tournament_id: int) -> dict[str, Any] | None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    return None if tournament is None else selectors.standings_message(tournament)


@login_required
@vary_on_headers("HX-Request")
@condition(etag_func=_projector_etag)
def tournament_projector(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """The wall of the room: the standings in big type and the round clock, live through the share link's line
    (or, with the link switched off, by asking again every few seconds)."""
    tournament = tournament_for_owner(request.user, tournament_id)
    if request.htmx:
        return render(request, "ledger/tournaments/_tournament_standings.html", standings_context(tournament))
    poll = reverse("ledger:tournament_projector", args=[tournament.pk])
    context = _page_context(request, tournament, poll)
    if tournament.share_token:
        # The players' link, to scan from the room: the same standings on their phones.
        link = request.build_absolute_uri(reverse("ledger:tournament_live", args=[tournament.share_token]))
        context["share_qr"] = qr_svg(link, label=_("The standings on your phone"), scale=4)
    return render(request, "ledger/tournaments/tournament_projector.html", context)

"""The live lines of a table's phones: the seated phone's (``/seat/<table_id>/stream/``) and the scorekeeper's table
page's (``/tables/<table_id>/stream/``), both on the evening's topic (``ledger.live.fanout.evening_topic``).

Every message on the topic reaches them (a hand stored, a seat taken, a confirmation); the page fetches its live
part when a message names its table. The first event is the table's state (its revision and its seats' stamp), so a
page that reconnects fetches only when something changed meanwhile. Served by the ASGI server like every path
ending in /stream/ (docs/deploy.md); elsewhere the answer is the first event alone.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponseBase

from ledger import hooks
from ledger.access import table_for_scorekeeper
from ledger.live import fanout, limits, streams
from ledger.live.reads import read_database
from ledger.models import Evening, Table
from ledger.seats import selectors


def table_state(table_id: int) -> dict[str, Any] | None:
    """The state a line's first event carries: the table's revision and its seats' stamp, then after a "|" what the
    features above say moves the evening's pages (a confirmation, a signature: ``hooks.evening_changes``), so a page
    whose line comes back after a break fetches what it missed, a dispute among it."""
    row = Table.objects.filter(pk=table_id).values_list("revision", "evening_id").first()
    if row is None:
        return None
    revision, evening_id = row
    state = f"{revision}:{selectors.seats_stamp(table_id)}"
    changes = _features_stamp(evening_id)
    return {"table": table_id, "state": f"{state}|{changes}" if changes else state}


def _features_stamp(evening_id: int) -> str:
    changes = {f"change_{number}": expression for number, expression in enumerate(hooks.evening_changes.send(None))}
    if not changes:
        return ""
    values = Evening.objects.filter(pk=evening_id).annotate(**changes).values_list(*changes).first() or ()
    return ".".join(str(value) for value in values)


async def _line(request: HttpRequest, table_id: int, evening_id: int) -> HttpResponseBase:
    topic = fanout.evening_topic(evening_id)

    async def first() -> dict[str, Any] | None:
        # Read once listening: a change made since the look-up is then in the state or in a message.
        return await read_database(lambda: table_state(table_id))

    return await streams.event_stream(request, topic, first)


@limits.limited
async def seat_stream(request: HttpRequest, table_id: int) -> HttpResponseBase:
    """The seated phone's line, and the waiting phone's (it learns at once that it may sit). 404 for a phone with no
    claim at the table."""

    def look_up() -> int | None:
        claim = selectors.latest_claim(request, table_id)
        return None if claim is None else claim.table.evening_id

    evening_id = await read_database(look_up)
    if evening_id is None:
        raise Http404
    return await _line(request, table_id, evening_id)


@limits.limited
async def table_stream(request: HttpRequest, table_id: int) -> HttpResponseBase:
    """The scorekeeper's table page's line: another phone recorded, a phone claimed a seat. 404 for anybody who
    does not keep score of the table."""
    user = await request.auser()
    evening_id = await read_database(lambda: table_for_scorekeeper(user, table_id).evening_id)
    return await _line(request, table_id, evening_id)

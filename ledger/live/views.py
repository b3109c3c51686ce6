"""The share link's live line: the page (``ledger/views/share_link.py``) listens here for each hand."""

from __future__ import annotations

import functools
from typing import Any

from django.http import Http404, HttpRequest, HttpResponseBase

from ledger.live import fanout, limits, links, streams
from ledger.models import Evening
from ledger.views.share_link import evening_state, shared_state


@limits.limited
async def shared_stream(request: HttpRequest, token: str) -> HttpResponseBase:
    """The share page's live line (Server-Sent Events, static/js/share.js): the page's fingerprint first, then a
    short message for each hand stored, corrected or voided, upon which the page fetches its live part again.

    Served by the ASGI server (docs/deploy.md); elsewhere the answer is the first event alone. The link and the
    fingerprint are read once for the viewers arriving together, not per viewer (``links.looked_up``,
    ``fanout.first_state``).
    """
    found = await links.looked_up(f"evening:{token}", functools.partial(shared_state, token))
    if found is None:
        raise Http404  # switched off or never made: EventSource gives up, the page's refresh says why
    evening_id = found[0]
    topic = fanout.evening_topic(evening_id)

    def read() -> dict[str, Any] | None:
        # By the link too: revoked since the look-up (whose message this line did not hear), the line ends at once.
        state = evening_state(Evening.objects.filter(pk=evening_id, share_token=token))
        return None if state is None else {"state": state[1]}

    async def first() -> dict[str, Any] | None:
        # Read again once listening: a hand stored since the lookup above is then in the state or in a message.
        return await fanout.first_state(topic, read)

    return await streams.event_stream(request, topic, first, link=token)

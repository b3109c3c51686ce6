"""What the books' hooks (``ledger/hooks.py``) make the live lines hear; connected in ``LiveConfig.ready()``.

Both hooks are sent after the commit: a viewer never hears of a hand or a link that was rolled back.
"""

from __future__ import annotations

from ledger import hooks
from ledger.live import fanout
from ledger.live.links import link_message


def hands_changed(event: hooks.HandsChanged) -> None:
    """The evening's live viewers (its share link) hear that a table changed: they fetch their page's live part."""
    news = {"table": event.table_id, "revision": event.revision, "hands": event.hands}
    fanout.publish(fanout.evening_topic(event.evening_id), news)


def share_link_changed(event: hooks.ShareLinkChanged) -> None:
    """The lines opened through an evening's old share link end (``streams.event_stream``)."""
    fanout.publish(fanout.evening_topic(event.evening_id), link_message(event.token))


def connect() -> None:
    hooks.hands_changed.connect(hands_changed)
    hooks.share_link_changed.connect(share_link_changed)

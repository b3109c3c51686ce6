"""A hand recorded meanwhile won over the one a phone tapped (``errors.HandConflict``): the panel that shows both
versions side by side, each priced, and the ways out. Drawn by the table page's Record, by the offline queue's
door, and by any other page that records hands (a seated phone's): each passes where its "record it" posts.

Nothing is stored until the player chooses: "Theirs is right" stores nothing (the page is drawn anew), "Mine is
another hand" posts the tapped fields again, with the same key, after the hand that won; the features add more ways
(``hooks.hand_conflict_context``, under ``conflict_parts``: a dispute of the hand that won).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.http import HttpRequest, QueryDict
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from ledger import hooks, selectors, services
from ledger.errors import HandConflict, recorder
from ledger.models import Hand, Table

# The stamps of the page the tap was made on, not posted again: "record it" names the hand it now comes after.
_NOT_AGAIN = frozenset({"csrfmiddlewaretoken", "after", "table_revision", "_refresh"})


def conflict_context(
    request: HttpRequest,
    *,
    table: Table,
    conflict: HandConflict,
    document: dict[str, Any],
    posted: QueryDict | Iterable[tuple[str, str]],
    action: str,
    drop_url: str,
    live_url: str | None = None,
    game_only: bool = False,
    queued: str | None = None,
) -> dict[str, Any]:
    """The panel's context (``conflict``, and the features' parts): ``document`` is the tapped hand part, priced
    here, never stored; ``posted`` the tapped form's fields, which "record it" posts again to ``action`` after the
    hand that won. "Drop mine" leads to ``drop_url`` (htmx: ``live_url`` redraws ``#table-live``). ``queued``: the key
    of a hand kept on the phone, whose buttons act on the phone's queue instead (static/js/offline.js)."""
    stored = conflict.stored
    mine = services.hand_preview(table=table, hand=document, number=stored.number + 1)
    pairs = posted.lists() if isinstance(posted, QueryDict) else ((name, [value]) for name, value in posted)
    again = [(name, value) for name, values in pairs if name not in _NOT_AGAIN for value in values]
    panel = {
        "message": conflict.message,
        "stored": stored,
        "next": stored.number + 1,
        "versions": [
            _version(table, stored, _("Hand #%(number)s, recorded by %(who)s") % _named(stored)),
            _version(table, mine, _("Yours, not stored")),
        ],
        "again": [*again, ("after", str(stored.number))],
        "action": action,
        "drop_url": drop_url,
        "live_url": live_url,
        "queued": queued,
        "game_only": game_only,
    }
    parts = hooks.page_parts(hooks.hand_conflict_context, hooks.PageShown(request, stored), "conflict_parts")
    return parts | {"conflict": panel}


def conflict_panel(request: HttpRequest, **given: Any) -> SafeString:
    """The panel drawn alone (``templates/ledger/_hand_conflict.html``) for :func:`conflict_context`'s arguments."""
    context = conflict_context(request, **given) | {"table": given["table"]}
    return render_to_string("ledger/_hand_conflict.html", context, request=request)


def _named(hand: Hand) -> dict[str, Any]:
    return {"number": hand.number, "who": recorder(hand)}


def _version(table: Table, hand: Hand, title: str) -> dict[str, Any]:
    return {"title": title, "hand": hand, "played": selectors.hand_played(table, hand)}

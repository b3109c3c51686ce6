"""What a tournament table's phone sees once its link no longer opens the table.

The organiser renewed the link (a lost phone) or the next round started (the last round's links are retired): the
guest account the phone was logged in as is inactive, so its session finds nobody logged in. Its player has no
account, so the log-in page would be a dead end: the phone is told, in its language, what to do instead.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect


def link_renewed(request: HttpRequest, table_id: int | None = None, status: int = 410) -> HttpResponse:
    """What a table's phone sees once its link was renewed or its round is over (its guest logged out): in its
    language, what to do, never the log-in page its player has no account for. 410 Gone: the table's pages were
    this phone's and are no more; the API and htmx requests get the sentence as the API's error body."""
    message = _("This table's link was renewed or its round is over: ask the organiser for the new QR code.")
    if request.path_info.startswith("/api/"):
        return JsonResponse({"field": None, "error": message}, status=status)
    if table_id is not None and request.headers.get("HX-Request"):
        # htmx swaps no 410: the whole page is loaded instead, and says it.
        return HttpResponseClientRedirect(reverse("ledger:table_detail", args=[table_id]))
    return render(request, "ledger/tournaments/table_link_renewed.html", {"message": message}, status=status)

"""What invitations add to the books' pages, and drop when an account goes (``ledger.hooks``), connected once in
``InvitationsConfig.ready()``."""

from __future__ import annotations

from typing import Any

from ledger import hooks
from ledger.invitations import services
from ledger.invitations.views import SECTION, section_context


def _section(parts: str) -> Any:
    def answer(page: hooks.PageShown) -> dict[str, Any]:
        context = section_context(page.request, page.subject)
        return {**context, parts: [SECTION]} if context else {}

    return answer


evening_page = _section("evening_page_parts")
circle_page = _section("circle_page_parts")
tournament_page = _section("tournament_page_parts")


def account_deleting(event: hooks.AccountDeleting) -> None:
    services.invite_links_forget(user=event.user)


def connect() -> None:
    hooks.evening_page_context.connect(evening_page)
    hooks.circle_page_context.connect(circle_page)
    hooks.tournament_page_context.connect(tournament_page)
    hooks.account_deleting.connect(account_deleting)

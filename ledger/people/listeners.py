"""What a person's claims add to the books' and the other features' pages, and what they do when an account goes.

No listener queries on pages other people share (the share page's ETag is the same for every reader, the table
page's query count is fixed): they add links only. The home page counts the claims waiting for its reader.
"""

from __future__ import annotations

from typing import Any

from ledger import hooks
from ledger.people import selectors, services


def home_parts(page: hooks.PageShown) -> dict[str, Any]:
    """The reader's way to their own page, and the claims waiting for their answer (one query)."""
    user = page.request.user
    if not user.is_authenticated:
        return {}
    return {
        "claims_waiting": selectors.claims_to_decide(user).count(),
        "home_page_parts": ["ledger/people/_home_people.html"],
    }


def shared_parts(page: hooks.PageShown) -> dict[str, Any]:
    return {"shared_page_parts": ["ledger/people/_claim_from_share.html"]}


def member_parts(page: hooks.PageShown) -> dict[str, Any]:
    return {"member_page_parts": ["ledger/people/_claim_from_member.html"]}


def table_parts(page: hooks.TablePage) -> dict[str, Any]:
    return {"table_page_parts": ["ledger/people/_claim_from_table.html"]}


def account_deleting(event: hooks.AccountDeleting) -> None:
    """The account goes: its claims go with it, and the players it claimed are plain names again."""
    services.player_claims_drop(user=event.user)


def connect() -> None:
    hooks.home_page_context.connect(home_parts)
    hooks.shared_page_context.connect(shared_parts)
    hooks.member_page_context.connect(member_parts)
    hooks.table_page_context.connect(table_parts)
    hooks.account_deleting.connect(account_deleting)

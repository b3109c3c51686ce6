"""What the books' hooks make the devices hear; connected in ``DevicesConfig.ready()``.

The table page gets the opt-in button without a query (its query count is fixed): whether this phone is on is
asked by the button's script (static/js/push.js).
"""

from __future__ import annotations

from typing import Any

from ledger import hooks
from ledger.devices import push, services

OPT_IN = "ledger/devices/_push_optin.html"


def table_parts(page: hooks.TablePage) -> dict[str, Any]:
    return {"table_page_parts": [OPT_IN]} if push.enabled() else {}


def account_deleting(event: hooks.AccountDeleting) -> None:
    """The account goes: no phone hears from it again, and its phones' subscriptions no longer name it."""
    services.push_switch_off_account(user=event.user)


def connect() -> None:
    hooks.table_page_context.connect(table_parts)
    hooks.account_deleting.connect(account_deleting)

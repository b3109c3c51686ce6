"""Claims in Django's admin: shown, never written here (``ledger.people.services`` decides them under the player's
lock)."""

from __future__ import annotations

from django.contrib import admin

from ledger.admin import ReadOnly
from ledger.people.models import PlayerClaim


@admin.register(PlayerClaim)
class PlayerClaimAdmin(ReadOnly, admin.ModelAdmin[PlayerClaim]):
    list_display = ["user", "player", "status", "how", "requested_at", "decided_at", "decided_by"]
    list_filter = ["status", "how"]
    list_select_related = ["user", "player", "decided_by"]
    readonly_fields = ("user", "player", "status", "how", "requested_at", "decided_at", "decided_by")
    fields = readonly_fields

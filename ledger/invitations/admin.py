"""Invitation links in Django's admin: shown, never written here (``ledger.invitations.services`` makes and
revokes them); not the token, which grants a role to whoever holds it."""

from __future__ import annotations

from django.contrib import admin

from ledger.admin import ReadOnly
from ledger.invitations.models import InviteLink, InviteLinkUse


class InviteLinkUseInline(ReadOnly, admin.TabularInline[InviteLinkUse, InviteLink]):
    model = InviteLinkUse
    extra = 0
    readonly_fields = ["user", "player", "accepted_at"]


@admin.register(InviteLink)
class InviteLinkAdmin(ReadOnly, admin.ModelAdmin[InviteLink]):
    view_on_site = False  # "View on site" would lead through /admin/r/ to the link's own page, token and all
    list_display = ["kind", "evening", "circle", "tournament", "player", "created_by", "expires_at", "revoked_at"]
    list_filter = ["kind"]
    list_select_related = ["evening", "circle", "tournament", "player", "created_by"]
    readonly_fields = (
        "kind",
        "evening",
        "circle",
        "tournament",
        "player",
        "created_by",
        "created_at",
        "expires_at",
        "revoked_at",
    )
    fields = readonly_fields
    inlines = [InviteLinkUseInline]

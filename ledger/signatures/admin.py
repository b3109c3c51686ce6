"""Signatures in Django's admin: shown, never written here (``ledger.signatures.services`` signs)."""

from __future__ import annotations

from django.contrib import admin

from ledger.admin import ReadOnly
from ledger.signatures.models import Signature


@admin.register(Signature)
class SignatureAdmin(ReadOnly, admin.ModelAdmin[Signature]):
    list_display = ["evening", "player", "at", "by", "claim", "for_absent", "revision", "superseded_at"]
    list_filter = ["for_absent"]
    list_select_related = ["evening", "player", "by", "claim"]
    readonly_fields = (
        "evening",
        "player",
        "revision",
        "tables",
        "hands",
        "balance",
        "at",
        "by",
        "claim",
        "for_absent",
        "superseded_at",
    )
    fields = readonly_fields

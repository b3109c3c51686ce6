"""The circles in Django's admin: shown, never written here; ``ledger.circles`` books their tab and pot."""

from __future__ import annotations

from django.contrib import admin

from ledger.admin import ReadOnly
from ledger.circles.models import Circle, CircleEntry, CircleMember, CircleSettlement, CircleTransfer


class CircleMemberInline(ReadOnly, admin.TabularInline[CircleMember, Circle]):
    model = CircleMember
    extra = 0
    readonly_fields = ["player", "created_at"]  # not the token: a member's personal link is theirs


@admin.register(Circle)
class CircleAdmin(ReadOnly, admin.ModelAdmin[Circle]):
    list_display = ["name", "owner", "settle", "currency", "coin", "created_at"]
    list_filter = ["settle", "currency"]
    readonly_fields = ("owner", "name", "settle", "currency", "coin", "pot_share", "scorekeepers", "created_at")
    fields = readonly_fields
    inlines = [CircleMemberInline]


@admin.register(CircleEntry)
class CircleEntryAdmin(ReadOnly, admin.ModelAdmin[CircleEntry]):
    list_display = ["circle", "kind", "player", "evening", "amount", "created_by", "created_at"]
    list_filter = ["kind"]
    list_select_related = ["circle", "player", "evening", "created_by"]
    readonly_fields = [f.name for f in CircleEntry._meta.fields]


class CircleTransferInline(ReadOnly, admin.TabularInline[CircleTransfer, CircleSettlement]):
    model = CircleTransfer
    extra = 0
    readonly_fields = ["payer", "payee", "amount", "paid_at", "paid_by"]


@admin.register(CircleSettlement)
class CircleSettlementAdmin(ReadOnly, admin.ModelAdmin[CircleSettlement]):
    list_display = ["circle", "mode", "banker", "coin", "created_by", "created_at"]
    list_select_related = ["circle", "banker", "created_by"]
    readonly_fields = [f.name for f in CircleSettlement._meta.fields]
    inlines = [CircleTransferInline]

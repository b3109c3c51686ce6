from django.contrib import admin

from ledger.models import Evening, EveningEvent, Hand, HandVersion, Player, Posting, Seat, Settlement, Table, Transfer


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "iban"]
    search_fields = ["name"]


class TableInline(admin.TabularInline):
    model = Table
    fields = ["game", "seat_names", "hand_count"]
    readonly_fields = fields
    extra = 0
    show_change_link = True


@admin.register(Evening)
class EveningAdmin(admin.ModelAdmin):
    list_display = ["date", "place", "owner", "currency", "coin", "status"]
    list_filter = ["status", "currency"]
    inlines = [TableInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "evening", "game", "hand_count"]
    list_filter = ["game"]
    inlines = [SeatInline]


class PostingInline(admin.TabularInline):
    model = Posting
    extra = 0
    readonly_fields = ["player", "amount"]


class HandVersionInline(admin.TabularInline):
    model = HandVersion
    extra = 0
    readonly_fields = ["version", "status", "document", "result", "changed_by", "changed_at"]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    # Hands change only through ledger.services (pricing, postings, history); the admin only looks.
    list_display = ["number", "table", "label", "status", "version", "changed_by", "changed_at"]
    list_filter = ["status", "table__game"]
    readonly_fields = [f.name for f in Hand._meta.fields]
    inlines = [PostingInline, HandVersionInline]

    def has_add_permission(self, request):
        return False


class TransferInline(admin.TabularInline):
    model = Transfer
    extra = 0
    readonly_fields = ["payer", "payee", "amount", "paid_at", "paid_by"]


@admin.register(Settlement)
class SettlementAdmin(admin.ModelAdmin):
    # A settlement is made and dropped by closing and reopening its evening; the admin only looks.
    list_display = ["evening", "mode", "banker", "coin", "created_by", "created_at"]
    readonly_fields = [f.name for f in Settlement._meta.fields]
    inlines = [TransferInline]

    def has_add_permission(self, request):
        return False


@admin.register(EveningEvent)
class EveningEventAdmin(admin.ModelAdmin):
    list_display = ["evening", "kind", "by", "at", "note"]
    list_filter = ["kind"]
    readonly_fields = [f.name for f in EveningEvent._meta.fields]

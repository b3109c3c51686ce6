"""The admin shows the books to a superuser; it writes only what cannot break them, and only through the services.

Hands, postings, tables, seats, settlements and transfers are read-only here: deleting one posting or editing a
table's seat names leaves an evening that no longer sums to zero. The evening's money (coin, currency) and state
(open or closed) change only in the app. A player's rename goes through ``services.player_rename``, which renames
them everywhere the books speak of them, or refuses.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import Model
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.translation import gettext as _

from ledger import qr, services
from ledger.models import (
    Evening,
    EveningEvent,
    Hand,
    HandVersion,
    Player,
    Posting,
    Seat,
    Settlement,
    Table,
    Transfer,
)


class ReadOnly:
    """Shown, never added, changed or deleted here: ``ledger.services`` owns these writes."""

    # obj: the row on a model's page, the parent row on an inline's (None on a list or an add page).
    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class PlayerForm(forms.ModelForm[Player]):
    class Meta:
        model = Player
        fields = ["owner", "name", "iban"]

    def clean_name(self) -> str:
        try:
            name = services.player_name_tidy(self.cleaned_data["name"])
        except services.LedgerError as error:
            raise forms.ValidationError(error.message) from None
        # A new player's owner is in the form, and the model's unique constraint checks it; a rename keeps its owner.
        others = Player.objects.filter(owner_id=self.instance.owner_id, name=name).exclude(pk=self.instance.pk)
        if self.instance.pk and others.exists():
            raise forms.ValidationError(_("There is already a player called %(name)s.") % {"name": name})
        return name

    def clean_iban(self) -> str:
        iban = self.cleaned_data["iban"]
        try:
            return qr.check_iban(iban) if iban.strip() else ""
        except qr.InvalidIban as error:
            raise forms.ValidationError(str(error)) from None


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ["name", "owner", "iban"]
    search_fields = ["name"]
    form = PlayerForm

    def get_readonly_fields(self, request: HttpRequest, obj: Player | None = None) -> list[str]:
        # The owner's evenings seat the player: another owner would split the books.
        return ["owner"] if obj is not None else []

    def save_model(self, request: HttpRequest, obj: Player, form: PlayerForm, change: bool) -> None:
        if not change:  # a new player: nothing speaks of them yet
            services.player_get_or_create(owner=obj.owner, name=obj.name)
            return
        services.player_rename(player=obj, name=form.cleaned_data["name"])
        services.player_iban_set(player=obj, iban=form.cleaned_data["iban"])

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        # The rename's own checks (every hand priced again under the new name) refuse after the form was valid;
        # the admin's transaction is rolled back by then, so say why on the same page instead of a server error.
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except services.LedgerError as error:
            self.message_user(request, error.message, messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())


class TableInline(ReadOnly, admin.TabularInline[Table, Evening]):
    model = Table
    readonly_fields = ("game", "seat_names", "hand_count")
    fields = readonly_fields
    extra = 0
    show_change_link = True


class EveningForm(forms.ModelForm[Evening]):
    class Meta:
        model = Evening
        fields = ["date", "place"]

    def clean_place(self) -> str:
        try:
            return services.evening_place_check(self.cleaned_data["place"])
        except services.LedgerError as error:
            raise forms.ValidationError(error.message) from None


@admin.register(Evening)
class EveningAdmin(admin.ModelAdmin[Evening]):
    list_display = ["date", "place", "owner", "currency", "coin", "status"]
    list_filter = ["status", "currency"]
    form = EveningForm
    # Made, closed and reopened in the app (evening_create, evening_close, evening_reopen); the money stays. The
    # share link and the co-scorekeepers change only there too: a link is made unguessable, a keeper is invited.
    readonly_fields = ["owner", "currency", "coin", "status", "share_token", "scorekeepers"]
    inlines = [TableInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


class SeatInline(ReadOnly, admin.TabularInline[Seat, Table]):
    model = Seat
    readonly_fields = ["player", "position"]
    extra = 0


@admin.register(Table)
class TableAdmin(ReadOnly, admin.ModelAdmin[Table]):
    list_display = ["__str__", "evening", "game", "hand_count"]
    list_filter = ["game"]
    inlines = [SeatInline]


class PostingInline(ReadOnly, admin.TabularInline[Posting, Hand]):
    model = Posting
    extra = 0
    readonly_fields = ["player", "amount"]


class HandVersionInline(ReadOnly, admin.TabularInline[HandVersion, Hand]):
    model = HandVersion
    extra = 0
    readonly_fields = ["version", "dealer", "status", "document", "result", "changed_by", "changed_at"]


@admin.register(Hand)
class HandAdmin(ReadOnly, admin.ModelAdmin[Hand]):
    # Hands change only through ledger.services (pricing, postings, history); the admin only looks.
    list_display = ["number", "table", "label", "status", "version", "changed_by", "changed_at"]
    list_filter = ["status", "table__game"]
    readonly_fields = [f.name for f in Hand._meta.fields]
    inlines = [PostingInline, HandVersionInline]


class TransferInline(ReadOnly, admin.TabularInline[Transfer, Settlement]):
    model = Transfer
    extra = 0
    readonly_fields = ["payer", "payee", "amount", "paid_at", "paid_by"]


@admin.register(Settlement)
class SettlementAdmin(ReadOnly, admin.ModelAdmin[Settlement]):
    # A settlement is made and dropped by closing and reopening its evening; the admin only looks.
    list_display = ["evening", "mode", "banker", "coin", "created_by", "created_at"]
    readonly_fields = [f.name for f in Settlement._meta.fields]
    list_select_related = ["evening", "banker", "created_by"]
    inlines = [TransferInline]


@admin.register(EveningEvent)
class EveningEventAdmin(admin.ModelAdmin[EveningEvent]):
    list_display = ["evening", "kind", "by", "at", "note"]
    list_filter = ["kind"]
    readonly_fields = [f.name for f in EveningEvent._meta.fields]

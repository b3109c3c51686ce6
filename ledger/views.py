"""Pages of the ledger: plain function views, thin (HTTP in, HTTP out, glue); the logic is in services and rules.

Access: scorekeepers (the evening's creator and co-scorekeepers) see and change everything of their evenings;
anybody else gets 404, never a hint that the evening exists. Players read an evening through its share link.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Max, OuterRef, Q, Subquery, Sum
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.http import condition, require_POST

import rules
from ledger import closeout, pdf, services, tariffs
from ledger.charts import balance_chart
from ledger.forms import EveningForm, PlayerIbanForm, ScorekeeperForm, SettlementForm, TableForm
from ledger.hand_forms import form_class
from ledger.hand_forms.base import HandForm
from ledger.middleware import SESSION_LANGUAGE
from ledger.models import Evening, EveningEvent, Game, Hand, Player, Seat, Table, Transfer

# --------------------------------------------------------------------------------------------------------------
# Access helpers: each returns the object or raises 404 for anybody who may not keep its score.


def _get_evening_for_scorekeeper(request: HttpRequest, evening_id: int) -> Evening:
    return get_object_or_404(Evening.objects.for_user(request.user), pk=evening_id)


def _get_table_for_scorekeeper(request: HttpRequest, table_id: int) -> Table:
    evenings = Evening.objects.for_user(request.user)
    return get_object_or_404(Table.objects.select_related("evening").filter(evening__in=evenings), pk=table_id)


def _get_hand_for_scorekeeper(request: HttpRequest, hand_id: int) -> Hand:
    evenings = Evening.objects.for_user(request.user)
    return get_object_or_404(
        Hand.objects.select_related("table__evening").filter(table__evening__in=evenings), pk=hand_id
    )


# --------------------------------------------------------------------------------------------------------------
# Home and evenings


def home(request: HttpRequest) -> HttpResponse:
    evenings = Evening.objects.for_user(request.user)[:5] if request.user.is_authenticated else []
    return render(request, "ledger/home.html", {"evenings": evenings})


@login_required
def evening_list(request: HttpRequest) -> HttpResponse:
    evenings = Evening.objects.for_user(request.user).annotate(table_count=Count("tables"))
    return render(request, "ledger/evening_list.html", {"evenings": evenings})


@login_required
def evening_create(request: HttpRequest) -> HttpResponse:
    form = EveningForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            evening = services.evening_create(owner=request.user, **form.cleaned_data)
        except services.LedgerError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            return redirect("ledger:table_create", evening_id=evening.pk)
    return render(request, "ledger/evening_create.html", {"form": form})


@login_required
def evening_detail(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening = _get_evening_for_scorekeeper(request, evening_id)
    return render(request, "ledger/evening_detail.html", _evening_context(request, evening))


def _evening_context(request: HttpRequest, evening: Evening) -> dict[str, Any]:
    return {
        "evening": evening,
        "tables": list(evening.tables.all()),
        "balances": list(services.evening_balances(evening).items()),
        "share_url": request.build_absolute_uri(_share_path(evening)) if evening.share_token else "",
        "keepers": list(evening.scorekeepers.all()),
        "keeper_form": ScorekeeperForm(),
    }


def _share_path(evening: Evening) -> str:
    return reverse("ledger:shared_evening", args=[evening.share_token])


@login_required
@require_POST
def evening_share(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening = _get_evening_for_scorekeeper(request, evening_id)
    enabled = request.POST.get("action") != "revoke"
    services.evening_share_reset(evening=evening, enabled=enabled)
    messages.success(request, _("New share link made.") if enabled else _("Share link switched off."))
    return redirect(evening)


@login_required
@require_POST
def evening_scorekeeper_add(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening = _get_evening_for_scorekeeper(request, evening_id)
    if evening.owner != request.user:
        raise Http404
    form = ScorekeeperForm(request.POST)
    user = None
    if form.is_valid():
        user = get_user_model().objects.filter(username=form.cleaned_data["username"]).first()
    if user is None:
        messages.error(request, _("No user of that name."))
    else:
        services.evening_add_scorekeeper(evening=evening, user=user)
        messages.success(request, _("%(name)s can keep score too.") % {"name": user.get_username()})
    return redirect(evening)


# --------------------------------------------------------------------------------------------------------------
# Tables


@login_required
def table_create(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening = _get_evening_for_scorekeeper(request, evening_id)
    known = list(Player.objects.filter(owner=evening.owner).values_list("name", flat=True))
    refresh = request.htmx or "_refresh" in request.POST
    data = request.POST if request.method == "POST" else None
    form = TableForm(data, known_players=known, initial=_last_seating(evening))
    if request.method == "POST" and not refresh and form.is_valid():
        try:
            table = services.table_create(
                evening=evening,
                game=form.cleaned_data["game"],
                players=form.players(),
                rules_override=form.overrides(),
                first_dealer=form.cleaned_data["first_dealer"],
            )
        except (rules.RulesError, services.LedgerError) as error:
            field = error.field.removeprefix("rules.")
            form.add_error(
                field if field in form.fields else f"opt_{field}" if f"opt_{field}" in form.fields else None,
                error.message,
            )
        else:
            return redirect(table)
    if request.method == "POST" and refresh:
        form.errors.clear()  # a re-render for another game or preset is not a submission
    template = "ledger/_table_form.html" if request.htmx else "ledger/table_create.html"
    return render(request, template, {"evening": evening, "form": form})


def _last_seating(evening: Evening) -> dict[str, Any]:
    """Offer the seats of the evening's last table first: the same people usually play on."""
    last = evening.tables.order_by("-id").first()
    if last is None:
        return {}
    return {"game": last.game, **{f"player_{seat}": name for seat, name in enumerate(last.seat_names)}}


@login_required
def table_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _get_table_for_scorekeeper(request, table_id)
    return render(request, "ledger/table_detail.html", _table_context(table))


def _table_context(table: Table, form: HandForm | None = None) -> dict[str, Any]:
    """Everything the table page shows, in a fixed number of queries whatever the number of hands."""
    hands = list(table.hands.select_related("changed_by"))
    counted = [hand for hand in hands if hand.is_counted]
    next_dealer = services.next_dealer(table, counted[0] if counted else None)
    if form is None:
        form = _new_hand_form(table, counted, next_dealer)
    balances = table.balances()
    return {
        "table": table,
        "evening": table.evening,
        "form": form,
        "hands": hands,
        "scoreboard": [
            {"name": name, "balance": balances[name], "deals": position == next_dealer}
            for position, name in enumerate(table.seat_names)
        ],
        "next_dealer": table.seat_names[next_dealer],
        "chart": balance_chart(table.seat_names, reversed(counted)),
        "house_rules": _house_rules(table),
        "can_edit": table.evening.is_open,
    }


def _new_hand_form(table: Table, counted: list[Hand], dealer: int) -> HandForm:
    """A fresh form: the rotation's dealer, and the contract most played at this table so far."""
    initial: dict[str, Any] = {}
    contracts = Counter(hand.document.get("contract") for hand in counted if hand.document.get("contract"))
    if contracts:
        initial["contract"] = contracts.most_common(1)[0][0]
    if table.ruleset.get("bock"):
        initial["bock"] = services.bock_pending(table, counted[::-1])
    return form_class(table.game)(table, dealer=dealer, initial=initial)


def _house_rules(table: Table) -> list[tuple[str, str]]:
    """The table's frozen ruleset as readable sentences: what each option means and its value here."""
    game = rules.game(table.game)

    def shown(value: Any) -> str:
        if isinstance(value, bool):
            return _("yes") if value else _("no")
        return str(value)

    return [
        (game.options[name].translated_help(), shown(value))
        for name, value in table.ruleset.items()
        if name in game.options
    ]


# --------------------------------------------------------------------------------------------------------------
# The rules and tariff of each game: in general (public) and as frozen on one table (its scorekeepers)


def game_rules(request: HttpRequest, game: str) -> HttpResponse:
    if game not in Game.values:
        raise Http404
    chosen = rules.game(game)
    preset = request.GET.get("preset", chosen.default_preset)
    if preset not in chosen.presets:
        preset = chosen.default_preset
    ruleset = rules.resolve(game, {"preset": preset})
    context = {
        "game": game,
        "title": Game(game).label,
        "preset": preset,
        "presets": tariffs.presets(game),
        "options": tariffs.options(game, ruleset),
        "tariffs": tariffs.tariffs(game, ruleset),
    }
    return render(request, "ledger/game_rules.html", context)


@login_required
def table_rules(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _get_table_for_scorekeeper(request, table_id)
    context = {
        "game": table.game,
        "title": table.get_game_display(),
        "table": table,
        "preset": table.ruleset.get("preset", ""),
        "options": tariffs.options(table.game, table.ruleset),
        "tariffs": tariffs.tariffs(table.game, table.ruleset, seats=len(table.seat_names)),
    }
    return render(request, "ledger/game_rules.html", context)


# --------------------------------------------------------------------------------------------------------------
# The language switcher


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """Django's ``set_language`` (the cookie, back to ``next``), and for a logged-in user their remembered choice."""
    response = i18n.set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        services.user_language_set(user=request.user, language=language)
        request.session[SESSION_LANGUAGE] = language
    return response


@login_required
def hand_form(request: HttpRequest, table_id: int) -> HttpResponse:
    """The hand form re-drawn for the values chosen so far (htmx, when the contract changes)."""
    table = _get_table_for_scorekeeper(request, table_id)
    form = form_class(table.game)(table, request.GET)
    context: dict[str, Any] = {"table": table, "form": form, "action": reverse("ledger:hand_create", args=[table.pk])}
    if request.GET.get("edit"):
        hand = _get_hand_for_scorekeeper(request, int(request.GET["edit"]) if request.GET["edit"].isdecimal() else 0)
        if hand.table_id != table.pk:
            raise Http404
        context |= {"hand": hand, "action": reverse("ledger:hand_edit", args=[hand.pk])}
    return render(request, "ledger/_hand_form.html", context)


@login_required
@require_POST
def hand_create(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _get_table_for_scorekeeper(request, table_id)
    form = form_class(table.game)(table, request.POST)
    if "_refresh" not in request.POST and form.is_valid():
        try:
            services.hand_record(
                table=table,
                hand=form.document(),
                by=request.user,
                key=form.cleaned_data.get("key") or None,
                dealer=form.cleaned_data.get("dealer"),
            )
        except (rules.RulesError, services.LedgerError) as error:
            _add_error(form, error)
        else:
            if request.htmx:
                return render(request, "ledger/_table_live.html", _table_context(table))
            return redirect(table)
    if "_refresh" in request.POST:
        form.errors.clear()
    context = _table_context(table, form=form)
    if request.htmx:
        return render(request, "ledger/_table_live.html", context)
    return render(request, "ledger/table_detail.html", context, status=400 if form.errors else 200)


def _add_error(form: HandForm, error: rules.RulesError | services.LedgerError) -> None:
    if isinstance(error, rules.RulesError):
        form.add_rules_error(error)
    else:
        form.add_error(error.field if error.field in form.fields else None, error.message)


@login_required
@require_POST
def hand_undo(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _get_table_for_scorekeeper(request, table_id)
    try:
        undone = services.hand_undo_last(table=table, by=request.user)
    except services.LedgerError as error:
        messages.error(request, error.message)
    else:
        if undone is not None:
            messages.success(
                request, _("Hand #%(number)s undone (kept in the log, voided).") % {"number": undone.number}
            )
    if request.htmx:
        return render(request, "ledger/_table_live.html", _table_context(table))
    return redirect(table)


@login_required
def hand_edit(request: HttpRequest, hand_id: int) -> HttpResponse:
    hand = _get_hand_for_scorekeeper(request, hand_id)
    table = hand.table
    cls = form_class(table.game)
    if request.method == "POST":
        form = cls(table, request.POST)
        if "_refresh" not in request.POST and form.is_valid():
            try:
                services.hand_correct(
                    hand=hand,
                    document=form.document(),
                    by=request.user,
                    version=_posted_version(request),
                    dealer=form.cleaned_data.get("dealer"),
                )
            except (rules.RulesError, services.LedgerError) as error:
                _add_error(form, error)
            else:
                messages.success(request, _("Hand #%(number)s corrected.") % {"number": hand.number})
                return redirect(table)
        if "_refresh" in request.POST:
            form.errors.clear()
    else:
        form = cls(table, initial=cls.from_document(table, hand.document) | {"dealer": hand.dealer})
    context = {"hand": hand, "table": table, "form": form, "versions": list(hand.versions.select_related("changed_by"))}
    return render(request, "ledger/hand_edit.html", context, status=400 if form.errors else 200)


def _posted_version(request: HttpRequest) -> int:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        raise services.LedgerError(_("The form lost the hand's version; reload the page."), field="version") from None


@login_required
@require_POST
def hand_void(request: HttpRequest, hand_id: int) -> HttpResponse:
    hand = _get_hand_for_scorekeeper(request, hand_id)
    try:
        services.hand_void(hand=hand, by=request.user)
    except services.LedgerError as error:
        messages.error(request, error.message)
    if request.htmx:
        return render(request, "ledger/_table_live.html", _table_context(hand.table))
    return redirect(hand.table)


# --------------------------------------------------------------------------------------------------------------
# The share link: read-only, no login, refreshing itself cheaply


def _shared_etag(request: HttpRequest, token: str) -> str | None:
    """Changes whenever anything the shared page shows changes; one small query."""
    # The last history event: closing, reopening and marking a transfer paid change the page without a hand.
    last_event = EveningEvent.objects.filter(evening=OuterRef("pk")).order_by("-id").values("id")[:1]
    state = (
        Evening.objects.filter(share_token=token)
        .annotate(revisions=Sum("tables__revision"), tables_seen=Count("tables"), last_table=Max("tables__id"))
        .annotate(last_event=Subquery(last_event))
        .values_list("status", "revisions", "tables_seen", "last_table", "last_event")
        .first()
    )
    if state is None:
        return None
    return "-".join(str(part) for part in (token[:6], *state, request.LANGUAGE_CODE))


@condition(etag_func=_shared_etag)
def shared_evening(request: HttpRequest, token: str) -> HttpResponse:
    evening = get_object_or_404(Evening, share_token=token)
    tables = []
    for table in evening.tables.all():
        hands = list(table.hands.all())
        balances = table.balances()
        tables.append(
            {
                "table": table,
                "hands": hands,
                "scoreboard": [{"name": name, "balance": balances[name]} for name in table.seat_names],
                "chart": balance_chart(table.seat_names, reversed([h for h in hands if h.is_counted])),
            }
        )
    context = {"evening": evening, "tables": tables, "token": token}
    if not evening.is_open:
        context |= closeout.settlement_context(evening, with_qr=False)
    template = "ledger/_shared_live.html" if request.htmx else "ledger/shared_evening.html"
    return render(request, template, context)


# --------------------------------------------------------------------------------------------------------------
# The close-out: settlement page, transfers marked paid, reopening, the PDF summary, players' IBANs


def _get_transfer_for_scorekeeper(request: HttpRequest, transfer_id: int) -> Transfer:
    evenings = Evening.objects.for_user(request.user)
    return get_object_or_404(
        Transfer.objects.select_related("settlement__evening").filter(settlement__evening__in=evenings),
        pk=transfer_id,
    )


def _get_player_for_scorekeeper(request: HttpRequest, player_id: int) -> Player:
    # Players belong to an evening's creator; co-scorekeepers may edit those seated at the evenings they keep.
    seated = Seat.objects.filter(table__evening__in=Evening.objects.for_user(request.user)).values("player")
    return get_object_or_404(Player.objects.filter(Q(owner=request.user) | Q(pk__in=seated)), pk=player_id)


@login_required
def evening_settlement(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Open: the balances so far and the close form. Closed: rounding, transfers with QR codes, history."""
    evening = _get_evening_for_scorekeeper(request, evening_id)
    balances = services.evening_balances(evening) if evening.is_open else {}
    form = SettlementForm(request.POST or None, players=list(balances))
    if request.method == "POST" and form.is_valid():
        try:
            services.evening_close(
                evening=evening,
                by=request.user,
                mode=form.cleaned_data["mode"],
                banker=form.cleaned_data["banker"] or None,
            )
        except services.LedgerError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            messages.success(request, _("The evening is closed: here is who pays whom."))
            return redirect("ledger:evening_settlement", evening_id=evening.pk)
    context = closeout.settlement_context(evening, with_qr=True)
    if evening.is_open:
        payment_players = list(Player.objects.filter(owner_id=evening.owner_id, name__in=balances))
    else:
        payment_players = sorted(context["players"].values(), key=lambda player: player.name)
    context |= {
        "evening": evening,
        "form": form,
        "balances": balances,
        "payment_players": payment_players,
        "events": list(evening.events.select_related("by")),
    }
    return render(request, "ledger/evening_settlement.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def transfer_mark_paid(request: HttpRequest, transfer_id: int) -> HttpResponse:
    transfer = _get_transfer_for_scorekeeper(request, transfer_id)
    evening = transfer.settlement.evening
    try:
        transfer = services.transfer_mark_paid(transfer=transfer, by=request.user)
    except services.LedgerError as error:
        messages.error(request, error.message)
        return redirect("ledger:evening_settlement", evening_id=evening.pk)
    if request.htmx:
        players = {
            player.name: player for player in Player.objects.filter(owner_id=evening.owner_id, name=transfer.payee)
        }
        row = closeout.transfer_row(evening, transfer, players, with_qr=True)
        return render(request, "ledger/_transfer_row.html", {"row": row, "evening": evening, "can_edit": True})
    messages.success(request, _("Paid: %(transfer)s.") % {"transfer": transfer})
    return redirect("ledger:evening_settlement", evening_id=evening.pk)


@login_required
@require_POST
def evening_reopen(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening = _get_evening_for_scorekeeper(request, evening_id)
    try:
        services.evening_reopen(evening=evening, by=request.user)
    except services.LedgerError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("The evening is open again: unpaid transfers were dropped, paid ones are kept."))
    return redirect("ledger:evening_settlement", evening_id=evening.pk)


@login_required
def evening_summary_pdf(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening = _get_evening_for_scorekeeper(request, evening_id)
    response = HttpResponse(pdf.summary_pdf(evening, request=request), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="talon-{evening.date:%Y-%m-%d}.pdf"'
    return response


@login_required
def player_edit(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's IBAN, for payment QR codes; ``next`` leads back to the page the scorekeeper came from."""
    player = _get_player_for_scorekeeper(request, player_id)
    back = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        back = ""
    form = PlayerIbanForm(request.POST or None, initial={"iban": player.iban})
    if request.method == "POST" and form.is_valid():
        try:
            services.player_iban_set(player=player, iban=form.cleaned_data["iban"])
        except services.LedgerError as error:
            form.add_error("iban", error.message)
        else:
            messages.success(request, _("Payment details of %(name)s saved.") % {"name": player.name})
            return redirect(back or "ledger:evening_list")
    context = {"player": player, "form": form, "next": back}
    return render(request, "ledger/player_edit.html", context, status=400 if form.errors else 200)

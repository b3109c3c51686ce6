"""Pages for everybody: the home page, the language switch and each game's rules."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views import i18n
from django.views.decorators.http import require_POST

import rules
from ledger import games, hooks, services, tariffs
from ledger.middleware import SESSION_LANGUAGE
from ledger.models import Evening, Game, Invitation
from ledger.views.evenings import last_table


def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "ledger/home.html", {"evenings": []})
    # Evenings a feature lists elsewhere are left out (a tournament's tables: on the tournament's page).
    evenings = hooks.evenings_listed(Evening.objects.for_user(request.user))[:5]
    invitations = Invitation.objects.for_user(request.user).select_related("evening", "invited_by")
    context = {"evenings": evenings, "invitations": list(invitations), "last_table": last_table(request.user)}
    # The features' parts of the page (a person's claims waiting for an answer, ...).
    context |= hooks.page_parts(hooks.home_page_context, hooks.PageShown(request), "home_page_parts")
    return render(request, "ledger/home.html", context)


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
        "tariffs": games.adapter(game).tariffs(ruleset, None),
    }
    return render(request, "ledger/game_rules.html", context)


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """Django's ``set_language`` (the cookie, back to ``next``), and for a logged-in user their remembered choice."""
    response = i18n.set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        services.user_language_set(user=request.user, language=language)
        request.session[SESSION_LANGUAGE] = language
    return response

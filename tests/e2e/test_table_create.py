"""Starting a table on a phone: another game or preset redraws the house rules, and the stake typed is the one kept.

What used to go wrong: a stake typed after switching the game was thrown away (the options still counted as drawn
for the first game), and the house rules kept the first game's values (Skat showed Mariáš's 0.20).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

import rules
from ledger.models import Table
from tests.e2e.browser import PHONE
from tests.e2e.conftest import TIMEOUT_MS
from tests.e2e.ui import choose, field, settle, tap

pytestmark = pytest.mark.e2e


def _stake_help(game: str) -> str:
    return rules.game(game).options["stake"].help


@pytest.fixture
def new_table(page: Page, evening: Any) -> Page:
    page.goto(reverse("ledger:table_create", args=[evening.pk]))
    return page


@pytest.fixture
def no_js_new_table(browser: Browser, live_server: Any, alice: Any, evening: Any) -> Iterator[Page]:
    """Alice's phone with JavaScript switched off: the form must work with the "update" button alone."""
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False, **PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    client = Client()
    client.force_login(alice)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = context.new_page()
    page.goto(reverse("ledger:table_create", args=[evening.pk]))
    yield page
    context.close()


def open_house_rules(page: Page) -> None:
    details = page.locator("#table-form details")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    expect(details).to_have_attribute("open", "")


def choose_preset(page: Page, preset: str) -> None:
    page.locator("#id_preset").select_option(preset)
    settle(page)
    expect(page.locator("#id_preset")).to_have_value(preset)


def stake(page: Page) -> Any:
    return page.locator("#id_opt_stake")


def seat(page: Page, *names: str) -> None:
    for number, name in enumerate(names):
        page.locator(f"#id_player_{number}").fill(name)


def start(page: Page) -> Table:
    tap(page, page.get_by_role("button", name="Start the table"))
    expect(page.locator(".house-rules")).to_be_visible()  # the table page
    return Table.objects.get()


def expect_house_rule_on_the_table_page(page: Page, help: str, value: str) -> None:
    page.locator(".house-rules summary").click()
    term = page.locator(".house-rules dt").filter(has_text=help)
    expect(term.locator("xpath=following-sibling::dd[1]")).to_have_text(value)


def test_a_stake_typed_after_switching_the_game_is_the_stake_of_the_table(new_table):
    page = new_table
    choose(page, "game", "Šnapser")
    open_house_rules(page)
    stake(page).fill("0.50")
    seat(page, "Ana", "Ben", "Cyril")
    table = start(page)
    assert (table.game, table.ruleset["preset"], table.ruleset["stake"]) == ("snapser", "seed", "0.50")
    expect_house_rule_on_the_table_page(page, _stake_help("snapser"), "0.50")


def test_a_stake_typed_after_switching_the_preset_is_the_stake_of_the_table(new_table):
    page = new_table
    choose_preset(page, "ctyrka-desetnik")
    open_house_rules(page)
    stake(page).fill("0.50")
    seat(page, "Ana", "Ben", "Cyril", "Dana")
    table = start(page)
    assert (table.game, table.ruleset["preset"], table.ruleset["stake"]) == ("marias", "ctyrka-desetnik", "0.50")
    expect_house_rule_on_the_table_page(page, _stake_help("marias"), "0.50")


def test_switching_to_skat_draws_skats_house_rules_at_skats_preset(new_table):
    page = new_table
    expect(field(page, "opt_flek_cap")).to_have_count(1)
    choose(page, "game", "Skat")
    expect(page.locator("#id_preset")).to_have_value("isko")
    open_house_rules(page)
    expect(stake(page)).to_have_value("0.01")  # not Mariáš's 0.20
    expect(page.locator("#id_opt_bock_lost_60")).to_be_checked()  # Skat's default, though Mariáš never posted it
    expect(page.locator("#id_opt_kontra")).not_to_be_checked()
    expect(page.locator("#id_opt_seeger_won_bonus")).to_have_value("50")
    expect(field(page, "opt_flek_cap")).to_have_count(0)


def test_a_stake_nobody_touched_follows_the_preset(new_table):
    page = new_table
    open_house_rules(page)
    expect(stake(page)).to_have_value("0.20")
    choose_preset(page, "ctyrka-desetnik")
    open_house_rules(page)
    expect(stake(page)).to_have_value("0.10")
    choose_preset(page, "ctyrka-dvacetnik")
    open_house_rules(page)
    expect(stake(page)).to_have_value("0.20")


def test_what_the_scorekeeper_changed_stays_through_a_preset_switch_and_the_rest_follows(new_table):
    page = new_table
    choose(page, "game", "Skat")
    open_house_rules(page)
    stake(page).fill("0.02")
    page.locator("#id_opt_jungfrau").uncheck()
    choose_preset(page, "pub")
    open_house_rules(page)
    expect(stake(page)).to_have_value("0.02")
    expect(page.locator("#id_opt_jungfrau")).not_to_be_checked()
    expect(page.locator("#id_opt_kontra")).to_be_checked()  # pub plays Kontra; nobody touched it
    choose_preset(page, "isko")
    open_house_rules(page)
    expect(stake(page)).to_have_value("0.02")
    expect(page.locator("#id_opt_kontra")).not_to_be_checked()
    seat(page, "Ana", "Ben", "Cyril")
    table = start(page)
    ruleset = table.ruleset
    assert (ruleset["preset"], ruleset["stake"], ruleset["jungfrau"], ruleset["kontra"]) == (
        "isko",
        "0.02",
        False,
        False,
    )


def test_without_javascript_the_update_button_redraws_the_house_rules_the_same_way(no_js_new_table):
    page = no_js_new_table
    choose(page, "game", "Šnapser")
    page.get_by_role("button", name="Update the options for this game and preset").click()
    open_house_rules(page)
    expect(stake(page)).to_have_value("0.10")
    stake(page).fill("0.50")
    seat(page, "Ana", "Ben", "Cyril")
    page.get_by_role("button", name="Start the table").click()
    expect(page.locator(".house-rules")).to_be_visible()
    assert Table.objects.get().ruleset["stake"] == "0.50"


def test_without_javascript_a_table_started_before_the_update_shows_the_new_house_rules_first(no_js_new_table):
    page = no_js_new_table
    choose(page, "game", "Šnapser")
    open_house_rules(page)
    stake(page).fill("0.50")  # still the field drawn for Mariáš
    seat(page, "Ana", "Ben", "Cyril")
    page.get_by_role("button", name="Start the table").click()
    expect(page.get_by_role("alert")).to_contain_text("The house rules are now those of the game and preset")
    assert not Table.objects.exists()
    expect(stake(page)).to_have_value("0.50")  # typed, so kept
    expect(field(page, "opt_payment")).to_have_count(1)  # Šnapser's options now
    page.get_by_role("button", name="Start the table").click()
    expect(page.locator(".house-rules")).to_be_visible()
    assert Table.objects.get().ruleset["stake"] == "0.50"

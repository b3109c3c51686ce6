"""Display settings for dim pub light: in the top bar on every page (one tap from anywhere, however far down the
page), saying which theme and text size are on, remembered on the phone across reloads. On a wide screen the table
page puts the hand form beside the scoreboard and the log."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests import factories
from tests.e2e.ui import wait_for_scroll_end

pytestmark = pytest.mark.e2e


def display(page: Page, name: str) -> None:
    """Open the display menu in the top bar (when closed) and tap one of its settings."""
    menu = page.locator(".display-menu")
    if menu.get_attribute("open") is None:
        menu.locator("summary").click()
    page.get_by_role("button", name=name, exact=True).click()


def expect_on(page: Page, *names: str) -> None:
    """These settings are shown as on (pressed, and named in the menu's summary); the others as off."""
    for name in ("Light", "Dark", "High contrast", "Larger text"):
        button = page.get_by_role("button", name=name, exact=True, include_hidden=True)
        expect(button).to_have_attribute("aria-pressed", "true" if name in names else "false")
    expect(page.locator("[data-display-now]")).to_have_text(" · ".join(names))


def test_a_fresh_phone_starts_light_with_normal_text_and_says_so(phone):
    page = phone.new_page()
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    expect(page.locator("html")).not_to_have_class("large-text")
    expect_on(page, "Light")


@pytest.mark.parametrize("theme", ["dark", "contrast"])
def test_the_chosen_theme_survives_a_reload(phone, theme):
    page = phone.new_page()
    page.goto("/")
    name = {"dark": "Dark", "contrast": "High contrast"}[theme]
    display(page, name)
    expect(page.locator("html")).to_have_attribute("data-theme", theme)
    expect_on(page, name)
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-theme", theme)
    expect_on(page, name)
    display(page, "Light")
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")


def test_larger_text_survives_a_reload_and_can_be_switched_off(phone):
    page = phone.new_page()
    page.goto("/")
    display(page, "Larger text")
    expect(page.locator("html")).to_have_class("js large-text")
    expect(page.locator("html")).to_have_css("font-size", "20px")
    expect_on(page, "Light", "Larger text")
    page.reload()
    expect(page.locator("html")).to_have_css("font-size", "20px")
    display(page, "Larger text")
    page.reload()
    expect(page.locator("html")).to_have_css("font-size", "16px")
    expect_on(page, "Light")


def test_the_table_page_in_dim_light(page, evening):
    """The scorekeeper's choice holds on every page of the device."""
    table = factories.make_table(evening, "snapser")
    page.goto("/")
    display(page, "Dark")
    display(page, "Larger text")
    factories.record(table)
    page.goto(table.get_absolute_url())
    html = page.locator("html")
    expect(html).to_have_attribute("data-theme", "dark")
    expect(html).to_have_css("font-size", "20px")
    expect(page.locator("body")).to_have_css("background-color", "rgb(17, 20, 19)")  # --bg of the dark theme
    display(page, "High contrast")
    page.reload()
    expect(page.locator("body")).to_have_css("background-color", "rgb(0, 0, 0)")
    expect_on(page, "High contrast", "Larger text")


def test_the_settings_are_in_reach_at_the_bottom_of_a_long_table_page(page, evening):
    table = factories.make_table(evening, "marias")
    factories.record(table, times=12)
    page.goto(table.get_absolute_url())
    page.keyboard.press("End")
    expect(page.locator(".hand-row").last).to_be_in_viewport()
    # On a phone's table page the top bar slides away while the page scrolls down, and a swipe up brings it back.
    expect(page.locator(".topbar.slid-away")).to_have_count(1)
    # The key's smooth scroll ends before the swipe up, as a finger's would (the page may grow below it meanwhile:
    # the list of seats is fetched after the page is drawn).
    wait_for_scroll_end(page)
    page.mouse.wheel(0, -120)
    expect(page.locator(".topbar.slid-away")).to_have_count(0)
    summary = page.locator(".display-menu summary")
    expect(summary).to_be_in_viewport()
    display(page, "Dark")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")


def test_a_wide_screen_puts_the_hand_form_beside_the_scoreboard_and_the_log(page, evening):
    table = factories.make_table(evening, "snapser")
    factories.record(table)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(table.get_absolute_url())
    form = page.locator("#hand-form").bounding_box()
    for right in ("#scoreboard", ".hand-log"):
        box = page.locator(right).bounding_box()
        assert box["x"] >= form["x"] + form["width"], right  # beside the form, not under it
    assert page.locator("#scoreboard").bounding_box()["y"] < form["y"] + form["height"]
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: one column, the scoreboard first
    form = page.locator("#hand-form").bounding_box()
    assert page.locator("#scoreboard").bounding_box()["y"] + 10 < form["y"]
    assert abs(page.locator(".hand-log").bounding_box()["x"] - form["x"]) < 1


def test_the_open_menu_fits_a_small_phone(page, evening):
    table = factories.make_table(evening, "marias")
    page.set_viewport_size({"width": 320, "height": 640})
    page.goto(table.get_absolute_url())
    page.locator(".display-menu summary").click()
    menu = page.locator(".display-settings").bounding_box()
    assert menu["x"] >= 0 and menu["x"] + menu["width"] <= 320, menu
    assert page.evaluate("document.documentElement.scrollWidth") <= 320

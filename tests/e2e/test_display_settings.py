"""Display settings for dim pub light: the theme and the text size are remembered on the phone across reloads."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.e2e.ui import choose, record, screenshot

pytestmark = pytest.mark.e2e


def test_a_fresh_phone_starts_light_with_normal_text(phone):
    page = phone.new_page()
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    expect(page.locator("html")).not_to_have_class("large-text")


@pytest.mark.parametrize("theme", ["dark", "contrast"])
def test_the_chosen_theme_survives_a_reload(phone, theme):
    page = phone.new_page()
    page.goto("/")
    page.get_by_role("button", name={"dark": "Dark", "contrast": "High contrast"}[theme]).click()
    expect(page.locator("html")).to_have_attribute("data-theme", theme)
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-theme", theme)
    page.get_by_role("button", name="Light").click()
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")


def test_larger_text_survives_a_reload_and_can_be_switched_off(phone):
    page = phone.new_page()
    page.goto("/")
    page.get_by_role("button", name="Larger text").click()
    expect(page.locator("html")).to_have_class("js large-text")
    expect(page.locator("html")).to_have_css("font-size", "20px")
    page.reload()
    expect(page.locator("html")).to_have_css("font-size", "20px")
    page.get_by_role("button", name="Larger text").click()
    page.reload()
    expect(page.locator("html")).to_have_css("font-size", "16px")


def test_the_table_page_in_dim_light(page, evening):
    """The scorekeeper's choice holds on every page of the device, also after hands are recorded through htmx."""
    table = factories.make_table(evening, "snapser")
    page.goto(table.get_absolute_url())
    page.get_by_role("button", name="Dark").click()
    page.get_by_role("button", name="Larger text").click()
    choose(page, "trump", "zeleň")
    record(page)
    page.reload()
    html = page.locator("html")
    expect(html).to_have_attribute("data-theme", "dark")
    expect(html).to_have_css("font-size", "20px")
    expect(page.locator("body")).to_have_css("background-color", "rgb(17, 20, 19)")  # --bg of the dark theme
    screenshot(page, "snapser-table-dark-large-text")
    page.get_by_role("button", name="High contrast").click()
    page.reload()
    expect(page.locator("body")).to_have_css("background-color", "rgb(0, 0, 0)")
    screenshot(page, "snapser-table-high-contrast-large-text")

"""A browser's User-Agent said the way a person names their phone on the devices page: "Chrome on Android".

>>> browser_label("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
...               "Chrome/131.0.0.0 Mobile Safari/537.36")
'Chrome on Android'
>>> browser_label("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
...               "Version/17.5 Mobile/15E148 Safari/604.1")
'Safari on iPhone'
>>> browser_label("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0")
'Firefox on Windows'
>>> browser_label("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
...               "Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0")
'Edge on Windows'
>>> browser_label("")
'A browser'
"""

from __future__ import annotations

from django.utils.translation import gettext as _

# First match wins: Edge, Opera and Samsung's browser also say "Chrome", Chrome also says "Safari".
_BROWSERS = (
    ("Edg", "Edge"),
    ("OPR/", "Opera"),
    ("SamsungBrowser", "Samsung Internet"),
    ("Firefox/", "Firefox"),
    ("FxiOS", "Firefox"),
    ("CriOS", "Chrome"),
    ("Chromium/", "Chromium"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
)
# iPhone and iPad before Mac ("like Mac OS X"), Android before Linux (Android says "Linux").
_SYSTEMS = (
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Android", "Android"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("Linux", "Linux"),
)


def browser_label(user_agent: str) -> str:
    browser = _first(_BROWSERS, user_agent)
    system = _first(_SYSTEMS, user_agent)
    if browser and system:
        return _("%(browser)s on %(system)s") % {"browser": browser, "system": system}
    return browser or system or _("A browser")


def _first(names: tuple[tuple[str, str], ...], user_agent: str) -> str:
    return next((name for mark, name in names if mark in user_agent), "")

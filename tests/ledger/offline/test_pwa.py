"""The installable web app: the manifest and its icons, the service worker's script, the offline page, the policy."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.template import Context, Template
from django.templatetags.static import static
from PIL import Image

from ledger.offline import pwa
from tests import factories

STATIC = Path(__file__).resolve().parents[3] / "static"


def _manifest(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    return json.loads(response.content)


def test_the_manifest_names_the_app_its_theme_and_where_it_starts(client, db):
    manifest = _manifest(client)
    assert (manifest["name"], manifest["short_name"]) == ("Talon", "Talon")
    assert manifest["description"]
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("/", "/", "standalone")
    # The light theme's colours in talon.css: the top bar's accent, the page's background.
    css = (STATIC / "css" / "talon.css").read_text()
    light = re.search(r":root \{(.*?)\}", css, re.S).group(1)
    assert f"--accent: {manifest['theme_color']};" in light
    assert f"--bg: {manifest['background_color']};" in light


def test_the_manifest_speaks_the_visitors_language(client, db):
    client.cookies["django_language"] = "de"
    manifest = _manifest(client)
    assert manifest["lang"] == "de"
    assert manifest["description"] == "Mariáš, Šnapser und Skat am Kartentisch schreiben und abrechnen."


@pytest.mark.parametrize(
    ("sizes", "purpose"), [("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")], ids=str
)
def test_each_icon_is_a_png_of_the_size_the_manifest_says(client, db, sizes, purpose):
    icons = [icon for icon in _manifest(client)["icons"] if (icon["sizes"], icon["purpose"]) == (sizes, purpose)]
    assert len(icons) == 1
    assert icons[0]["type"] == "image/png"
    path = STATIC / icons[0]["src"].removeprefix("/static/")
    with Image.open(path) as image:
        assert image.format == "PNG"
        assert f"{image.width}x{image.height}" == sizes
        # The maskable icon fills its square (the launcher cuts the shape); the others have rounded corners.
        corner = image.convert("RGBA").getpixel((0, 0))
        assert (corner[3] == 255) == (purpose == "maskable")


def test_every_page_links_the_manifest_the_theme_colour_and_the_script(client, db):
    html = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert '<meta name="theme-color" content="#14532d">' in html
    assert '<link rel="apple-touch-icon" href="/static/img/icon-192.png">' in html
    assert '<script src="/static/js/pwa.js" defer></script>' in html


def test_the_worker_is_served_from_the_root_never_stale(client, db):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    assert client.head("/sw.js").status_code == 200


def test_the_worker_carries_its_version_and_the_shell_it_caches(client, db):
    script = client.get("/sw.js").content.decode()
    version = pwa.worker_version()
    assert re.fullmatch(r"[0-9a-f]{16}", version)
    assert f'const VERSION = "{version}";' in script
    shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", script).group(1))
    assert shell == [
        "/static/css/talon.css",
        "/static/js/talon.js",
        "/static/js/pwa.js",
        "/static/django_htmx/htmx-2.min.js",
        "/static/img/talon.svg",
        "/static/img/icon-192.png",
        "/static/img/icon-512.png",
        "/static/img/icon-maskable-512.png",
        "/manifest.webmanifest",
        "/offline/",
    ]
    assert 'const OFFLINE_URL = "/offline/";' in script
    assert "__TALON_" not in script


def test_the_shell_holds_the_htmx_script_every_page_loads(db):
    tag = Template("{% load django_htmx %}{% htmx_script %}").render(Context({}))
    assert f'src="{static(pwa.HTMX)}"' in tag


def test_a_changed_shell_file_is_a_new_version(db, monkeypatch):
    before = pwa.worker_version()
    real = pwa._static_bytes
    edited = {"css/talon.css": b"/* a new rule */"}
    monkeypatch.setattr(pwa, "_static_bytes", lambda path: real(path) + edited.get(path, b""))
    assert pwa.worker_version() != before


def test_any_changed_file_of_ours_is_a_new_version(db, settings, tmp_path):
    """Not only the shell: the worker answers every /static/ file from its cache, and plain names do not change."""
    settings.STATICFILES_DIRS = [*settings.STATICFILES_DIRS, tmp_path]
    script = tmp_path / "js" / "offline-pricing.js"
    script.parent.mkdir()
    script.write_text("// one")
    before = pwa.worker_version()
    assert pwa.worker_version() == before
    script.write_text("// two, longer")
    assert pwa.worker_version() != before


def test_the_worker_keeps_to_its_rules(client, db):
    script = client.get("/sw.js").content.decode()
    # Only GETs of this origin, never an htmx request, the API or the admin.
    assert 'request.method !== "GET" || request.headers.has("HX-Request")' in script
    assert 'path.startsWith("/api/") || path.startsWith("/admin/")' in script
    assert "url.origin !== self.location.origin" in script
    # The pages kept: a table, its rules, an evening; under their address without the query.
    kept = re.search(r"const KEPT_PAGE = /(.*)/;", script).group(1)
    for path, keeps in [
        ("/tables/12/", True),
        ("/tables/12/rules/", True),
        ("/evenings/3/", True),
        ("/tables/12/form/", False),
        ("/evenings/3/settlement/", False),
        ("/evenings/", False),
        ("/s/abc/", False),
    ]:
        assert bool(re.fullmatch(kept.replace("\\/", "/"), path)) == keeps, path
    assert 'const PAGES_CACHE = "talon-pages-" + VERSION;' in script
    assert "response.status === 200" in script and "!response.redirected" in script
    assert "clients.claim()" in script


def test_the_offline_page_tells_a_stranger_the_phone_is_offline(client, db):
    response = client.get("/offline/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "This phone is offline" in html
    assert "tables you opened on this phone before are still available" in html
    assert "data-offline-page" in html


def test_the_offline_page_names_nothing_of_a_logged_in_scorekeeper(alice_client, alice):
    evening = factories.make_evening(alice, place="Hospoda Na Růžku")
    factories.make_table(evening, "skat", players=["Ana", "Ben", "Cyril"])
    response = alice_client.get("/offline/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "This phone is offline" in html
    assert '<html lang="en"' in html and "</html>" in html  # the whole page, not a fragment
    for private in ("alice", "Hospoda", "Ana", "Ben", "Cyril", "Log out"):
        assert private not in html
    # One copy for everybody on the phone: the worker keeps it, no browser cache keeps a stale one.
    assert response["Cache-Control"] == "no-cache"


def test_a_page_says_whether_somebody_is_logged_in(client, alice_client):
    assert 'data-user="1"' in alice_client.get("/").content.decode()
    client.logout()
    assert 'data-user=""' in client.get("/").content.decode()


def test_the_table_page_allows_the_worker_and_the_manifest_and_no_eval(alice_client, evening):
    table = factories.make_table(evening, "marias")
    response = alice_client.get(table.get_absolute_url())
    policy = response["Content-Security-Policy"]
    assert "worker-src 'self'" in policy
    assert "manifest-src 'self'" in policy
    assert "'unsafe-eval'" not in policy  # the page's own; Pyodide's worker carries its own policy
    html = response.content.decode()
    assert '<p id="connection" class="connection" role="status" aria-live="polite" hidden' in html
    assert re.search(r'<button type="button" data-wake-lock aria-pressed="true" hidden[^>]*>Keep the screen on<', html)


@pytest.mark.parametrize(
    ("language", "offline", "screen", "indicator"),
    [
        ("cs", "Tento telefon je offline", "Nechat obrazovku zapnutou", "Offline: hry se ukládají v tomto telefonu"),
        ("de", "Dieses Telefon ist offline", "Bildschirm anlassen", "Offline: Spiele bleiben auf diesem Telefon"),
    ],
)
def test_the_offline_words_are_said_in_the_scorekeepers_language(
    alice_client, evening, language, offline, screen, indicator
):
    """Said, not merely translated: a catalogue merge once gave the toggle the home page's "Keep the score"."""
    alice_client.cookies["django_language"] = language
    assert offline in alice_client.get("/offline/").content.decode()
    html = alice_client.get(factories.make_table(evening, "skat").get_absolute_url()).content.decode()
    assert f">{screen}</button>" in html
    assert f'data-offline="{indicator}"' in html

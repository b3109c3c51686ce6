"""The link's page as each persona sees it, and the "Invite by link" section on the pages that make links: Alice
(who invites), Dora (holds the link), Charlie (a stranger without it) and an anonymous visitor."""

from __future__ import annotations

import datetime
import re
from urllib.parse import quote

from django.urls import reverse
from django.utils import timezone

from ledger.invitations.models import InviteLink, InviteLinkUse
from ledger.qr import qr_svg
from tests.ledger.invitations.conftest import accept_path, link_path, make_link, make_path


def _modules(svg: str) -> set[tuple[int, int]]:
    """The dark modules a QR code's SVG draws, read back from its path ("M x y.5" then "h"/"m" moves)."""
    path = re.search(r'<path stroke="#000" d="([^"]+)"', svg).group(1)
    dark, x, y = set(), 0.0, 0.0
    for command, numbers in re.findall(r"([Mmh])([-\d. ]+)", path):
        values = [float(value) for value in numbers.split()]
        if command == "M":
            x, y = values
        elif command == "m":
            x, y = x + values[0], y + values[1]
        else:
            dark.update((int(x) + step, int(y)) for step in range(int(values[0])))
            x += values[0]
    return dark


def test_an_anonymous_visitor_is_offered_to_sign_up_or_log_in_and_come_back(alice, anonymous, evening):
    link = make_link(evening, alice)
    html = anonymous.get(link_path(link)).content.decode()
    back = quote(link_path(link), safe="")
    assert ">Accept</button>" not in html
    sign_up = re.search(rf'href="([^"]+)\?next={re.escape(back)}">Sign up</a>', html).group(1)
    assert sign_up == reverse("account_signup")
    assert link_path(link) in anonymous.get(f"{sign_up}?next={back}").content.decode()  # the way back is kept
    assert f'href="{reverse("login")}?next={back}">Log in</a>' in html
    assert "U Fleků" in html  # what the link grants, to whoever holds it


def test_the_log_in_page_keeps_the_way_back_to_the_link(alice, dora, anonymous, evening):
    link = make_link(evening, alice)
    html = anonymous.get(link_path(link)).content.decode()
    log_in = re.search(r'href="([^"]+\?next=[^"]+)">Log in</a>', html).group(1).replace("&amp;", "&")
    assert link_path(link) in anonymous.get(log_in).content.decode()  # the form sends the visitor back here
    anonymous.force_login(dora)
    assert ">Accept</button>" in anonymous.get(link_path(link)).content.decode()


def test_whoever_invites_sees_the_guests_page_with_nothing_to_accept(alice, alice_browser, evening):
    link = make_link(evening, alice)
    html = alice_browser.get(link_path(link)).content.decode()
    assert "this is the page they see when they open the link" in html and ">Accept</button>" not in html


def test_the_evening_page_shows_the_live_links_with_qr_code_copy_and_revoke(alice, alice_browser, evening):
    link = make_link(evening, alice, days=30)
    html = alice_browser.get(evening.get_absolute_url()).content.decode()
    section = re.search(r'<section class="card" id="invite-links">.*?</section>', html, re.S).group(0)
    url = f"http://testserver{link_path(link)}"
    assert f'value="{url}" id="invite-url-{link.pk}"' in section
    assert f'data-copy="invite-url-{link.pk}" data-status="invite-status"' in section
    svg = re.search(r'<figure class="qr-code share-qr">(<svg.*?</svg>)', section, re.S).group(1)
    assert svg == qr_svg(url, label="Invitation link", scale=4)
    assert _modules(svg) == _modules(qr_svg(url))  # the code's modules are exactly the link's
    expires = timezone.localtime(link.expires_at).strftime("%Y")
    assert "Works until" in section and expires in section and "Accepted 0 times." in section
    assert f'action="/i/{link.token}/revoke/"' in section and ">Revoke</button>" in section
    assert "Whoever accepts a link keeps score of this evening with you." in section


def test_a_revoked_link_leaves_the_page(alice, alice_browser, evening):
    link = make_link(evening, alice)
    alice_browser.post(reverse("invitations:invite_link_revoke", args=[link.token]))
    html = alice_browser.get(evening.get_absolute_url()).content.decode()
    assert link.token not in html and "No invitation link works now." in html


def test_the_section_offers_the_players_of_the_page(alice, alice_browser, evening, snapser_table, circle, tournament):
    evening_page = alice_browser.get(evening.get_absolute_url()).content.decode()
    assert re.findall(r"<option value=\"\d+\">(\w+) only", evening_page) == ["Ana", "Ben", "Cyril"]
    circle_page = alice_browser.get(circle.get_absolute_url()).content.decode()
    assert "Whoever accepts a link becomes a member of the circle" in circle_page
    tournament_page = alice_browser.get(tournament.get_absolute_url()).content.decode()
    assert "Whoever accepts a link is registered for the tournament." in tournament_page
    assert len(re.findall(r"<option value=\"\d+\">\w+ only", tournament_page)) == 6


def test_the_section_is_redrawn_alone_for_htmx(alice_browser, evening):
    response = alice_browser.post(
        make_path("evening", evening.pk), {"key": "tap", "days": "7"}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert response.status_code == 200 and html.startswith('<section class="card" id="invite-links">')
    assert "Invitation link made: it works until" in html
    assert InviteLink.objects.get().token in html


def test_a_co_scorekeeper_and_a_stranger_see_no_section(alice, dora, dora_browser, charlie_browser, evening):
    from ledger import services

    make_link(evening, alice)
    services.evening_add_scorekeeper(evening=evening, user=dora)
    html = dora_browser.get(evening.get_absolute_url()).content.decode()
    assert 'id="invite-links"' not in html and "/i/" not in html
    assert charlie_browser.get(evening.get_absolute_url()).status_code == 404


def test_the_links_page_tells_no_other_site_its_token(alice, anonymous, evening):
    response = anonymous.get(link_path(make_link(evening, alice)))
    assert response["Referrer-Policy"] == "same-origin" and response["X-Robots-Tag"] == "noindex"


def test_a_time_of_day_ends_its_sentence_with_one_dot(alice, alice_browser, dora_browser, evening):
    """English times end with "a.m." or "p.m.": the sentence adds no second dot."""
    link = make_link(evening, alice)
    link.expires_at = timezone.make_aware(datetime.datetime(2026, 12, 8, 10, 30))
    link.save(update_fields=["expires_at"])
    section = alice_browser.get(evening.get_absolute_url()).content.decode()
    assert "Works until Dec. 8, 2026, 10:30 a.m." in section and "a.m.." not in section
    page = dora_browser.get(link_path(link)).content.decode()
    assert "The invitation works until Dec. 8, 2026, 10:30 a.m.</p>" in page

    dora_browser.post(accept_path(link))
    InviteLinkUse.objects.update(accepted_at=timezone.make_aware(datetime.datetime(2026, 12, 1, 21, 5)))
    page = dora_browser.get(link_path(link)).content.decode()
    assert "You accepted this invitation on Dec. 1, 2026, 9:05 p.m.</p>" in page

"""A link that no longer works grants nothing: expired or revoked, it answers 410 in the reader's language; an
unknown token is 404 for everybody."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from ledger.circles.models import CircleMember
from ledger.invitations import services as invitations
from ledger.invitations.models import InviteLinkUse
from tests.ledger.invitations.conftest import accept_path, link_path, make_link


def _expire(link):
    link.expires_at = timezone.now() - datetime.timedelta(seconds=1)
    link.save(update_fields=["expires_at"])


@pytest.mark.parametrize("ending", ["expired", "revoked"])
def test_a_link_that_ended_grants_nothing(alice, dora_browser, anonymous, evening, ending):
    link = make_link(evening, alice)
    if ending == "expired":
        _expire(link)
        said = "This invitation link has expired."
    else:
        invitations.invite_link_revoke(link=link, by=alice)
        said = "This invitation link was revoked."
    for browser in (dora_browser, anonymous):
        page = browser.get(link_path(link))
        assert page.status_code == 410
        html = page.content.decode()
        assert said in html and "Ask whoever invited you for a new link." in html
        assert "U Fleků" not in html and ">Accept</button>" not in html  # what it granted is not shown any more
    response = dora_browser.post(accept_path(link))
    assert response.status_code == 410 and said in response.content.decode()
    assert not evening.scorekeepers.exists() and not InviteLinkUse.objects.exists()


def test_a_circle_link_revoked_makes_no_member(alice, dora_browser, circle):
    link = make_link(circle, alice)
    invitations.invite_link_revoke(link=link, by=alice)
    assert dora_browser.post(accept_path(link)).status_code == 410
    assert CircleMember.objects.filter(circle=circle).count() == 3


def test_the_gone_page_speaks_the_readers_language(alice, anonymous, evening):
    link = make_link(evening, alice)
    _expire(link)
    page = anonymous.get(link_path(link), headers={"Accept-Language": "de"})
    assert page.status_code == 410 and '<html lang="de"' in page.content.decode()


def test_who_accepted_before_the_end_still_finds_the_way(alice, dora_browser, dora, evening):
    link = make_link(evening, alice)
    dora_browser.post(accept_path(link))
    _expire(link)
    page = dora_browser.get(link_path(link))
    assert page.status_code == 200 and "You accepted this invitation on" in page.content.decode()
    again = dora_browser.post(accept_path(link))  # a retry after the end answers the first acceptance
    assert again.status_code == 302 and again["Location"] == evening.get_absolute_url()


def test_an_unknown_token_is_not_found_for_anybody(alice, alice_browser, charlie_browser, anonymous, evening):
    link = make_link(evening, alice)
    unknown = link.token[:-1] + ("A" if link.token[-1] != "A" else "B")
    for browser in (alice_browser, charlie_browser, anonymous):
        assert browser.get(f"/i/{unknown}/").status_code == 404
    assert charlie_browser.post(f"/i/{unknown}/accept/").status_code == 404
    assert not InviteLinkUse.objects.exists()


def test_a_visitor_posting_accept_is_sent_to_log_in_and_back_to_the_link(alice, anonymous, evening):
    link = make_link(evening, alice)
    response = anonymous.post(accept_path(link))
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next=%2Fi%2F{link.token}%2F"
    assert not InviteLinkUse.objects.exists()

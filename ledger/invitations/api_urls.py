"""The invitation links' API routes, in the ``api:`` namespace (``ledger/api_urls.py`` includes them)."""

from django.urls import path

from ledger.api.method_routes import by_method
from ledger.invitations.api import (
    InviteLinkAcceptApi,
    InviteLinkCreateApi,
    InviteLinkDetailApi,
    InviteLinkListApi,
    InviteLinkRevokeApi,
)

urlpatterns = [
    path("invite-links/", by_method(get=InviteLinkListApi, post=InviteLinkCreateApi), name="invite_links"),
    path(
        "invite-links/<str:token>/",
        by_method(get=InviteLinkDetailApi, delete=InviteLinkRevokeApi),
        name="invite_link",
    ),
    path("invite-links/<str:token>/accept/", InviteLinkAcceptApi.as_view(), name="invite_link_accept"),
]

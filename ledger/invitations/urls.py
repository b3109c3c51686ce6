"""Invitation links: their maker's forms and the link itself (``/i/<token>/``), in the ``invitations:`` namespace."""

from django.urls import URLPattern, URLResolver, path

from ledger.invitations import views

app_name = "invitations"

urlpatterns: list[URLPattern | URLResolver] = [
    path("invite-links/<str:kind>/<int:target_id>/", views.invite_link_create, name="invite_link_create"),
    path("i/<str:token>/", views.invite_link, name="invite_link"),
    path("i/<str:token>/accept/", views.invite_link_accept, name="invite_link_accept"),
    path("i/<str:token>/revoke/", views.invite_link_revoke, name="invite_link_revoke"),
]

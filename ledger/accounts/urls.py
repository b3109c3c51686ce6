"""The account pages of Talon's own, under /accounts/ next to allauth's (config/urls.py)."""

from django.urls import URLPattern, URLResolver, path

from ledger.accounts import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("accounts/", views.account_home, name="account_home"),
    path("accounts/token/", views.token_create, name="account_token_create"),
    path("accounts/token/revoke/", views.token_revoke, name="account_token_revoke"),
    path("accounts/delete/", views.account_delete, name="account_delete"),
    path("accounts/signup/passkey/", views.passkey_signup, name="account_signup_passkey"),
    path("accounts/signup/passkey/create/", views.passkey_signup_create, name="account_signup_passkey_create"),
    # Before allauth's own (mfa_remove_webauthn, same path): the last passkey of an account with no password stays.
    path("accounts/2fa/webauthn/keys/<int:pk>/remove/", views.passkey_remove),
]

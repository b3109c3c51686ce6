from allauth.account import views as account_views
from django.contrib import admin
from django.urls import include, path

from ledger import views
from ledger.auth import admin_login

urlpatterns = [
    path("", views.home, name="home"),
    path("", include("ledger.urls")),
    path("api/", include("ledger.api_urls")),
    path("", include("ledger.accounts.urls")),
    path("", include("ledger.people.urls")),
    path("", include("ledger.invitations.urls")),
    path("", include("ledger.devices.urls")),
    path("", include("ledger.seats.urls")),
    path("", include("ledger.confirmations.urls")),
    path("", include("ledger.signatures.urls")),
    # allauth's log-in and log-out under Django's names too (LOGIN_URL, the templates): one log-in page.
    path("accounts/login/", account_views.login, name="login"),
    path("accounts/logout/", account_views.logout, name="logout"),
    path("accounts/", include("allauth.urls")),
    # Before the admin's own URLs: the same page, answering 429 when the log-in limit refused the attempt.
    path("admin/login/", admin_login, name="admin_login"),
    path("admin/", admin.site.urls),
    # Django's set_language (django.conf.urls.i18n), wrapped so a logged-in user's choice is remembered too.
    path("i18n/setlang/", views.language_set, name="set_language"),
    # The installable web app (ledger/offline/pwa.py): the worker is served from the root so it controls every page.
    path("", include("ledger.offline.pwa_urls")),
]

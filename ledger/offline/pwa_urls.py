"""The installable web app's routes (``ledger/offline/pwa.py``), at the site's root and outside the ``ledger:``
namespace (included by ``config/urls.py``): the service worker is served from the root so that it controls every
page."""

from django.urls import path

from ledger.offline import pwa

urlpatterns = [
    path("manifest.webmanifest", pwa.web_manifest, name="web_manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/", pwa.offline_page, name="offline"),
]

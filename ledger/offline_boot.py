"""Django for the offline worker: run once under Pyodide, in the browser, before ``ledger.offline`` is called.

No database, no apps, no URLs: the hand forms, the templates they are drawn with (``/talon/templates``) and the
translations (``/talon/locale``, Django's own for its form messages) are all the worker needs. The server never
imports this module.
"""

from __future__ import annotations

import django
from django.conf import settings

LANGUAGES = [("en", "English"), ("cs", "Čeština"), ("sk", "Slovenčina"), ("de", "Deutsch")]

settings.configure(
    DEBUG=False,
    USE_I18N=True,
    USE_TZ=True,
    LANGUAGE_CODE="en",
    LANGUAGES=LANGUAGES,
    LOCALE_PATHS=["/talon/locale"],
    INSTALLED_APPS=[],
    TEMPLATES=[
        {
            "BACKEND": "django.template.backends.django.DjangoTemplates",
            "DIRS": ["/talon/templates"],
            "OPTIONS": {"libraries": {"talon": "ledger.templatetags.talon"}},
        }
    ],
)
django.setup()

"""Django for the offline worker: run once under Pyodide, in the browser, before ``ledger.offline.pricing`` is called.

No database, no apps, no URLs: the hand forms, the templates they are drawn with (``/talon/templates``) and the
translations (``/talon/locale``, Django's own for its form messages) are all the worker needs. The server never
imports this module.

Start-up time is the phone's battery and the scorekeeper's wait, so two things Django would do are skipped:
``django.setup()`` (its logging set-up imports the mail machinery; the app registry is filled here with no apps), and
the ORM that ``django.forms`` imports for ``ModelForm`` (the hand forms are plain forms): ``django.forms.models`` is
an empty module here, which saves seconds of imports in WebAssembly.
"""

from __future__ import annotations

import sys
import types

from django.apps import apps
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
    LOGGING_CONFIG=None,
    TEMPLATES=[
        {
            "BACKEND": "django.template.backends.django.DjangoTemplates",
            "DIRS": ["/talon/templates"],
            "OPTIONS": {"libraries": {"talon": "ledger.templatetags.talon"}},
        }
    ],
)
no_model_forms = types.ModuleType("django.forms.models")
no_model_forms.__all__ = []  # type: ignore[attr-defined]
sys.modules["django.forms.models"] = no_model_forms
apps.populate([])

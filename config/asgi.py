"""The ASGI entry point: the whole Django app, for the push connections' server (uvicorn, docs/deploy.md).

gunicorn (config/wsgi.py) serves the pages and the API; uvicorn serves this, for the ``…/stream/`` paths whose
answers stay open (ledger/live). Both run the same app, so either can answer any path.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Under ASGI every request does its database work on a thread of its own, so a connection kept for reuse would
# only be left behind: Django's documentation asks for CONN_MAX_AGE=0 there.
os.environ.setdefault("CONN_MAX_AGE", "0")
application = get_asgi_application()

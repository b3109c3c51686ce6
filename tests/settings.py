"""The test run's environment: config/settings.py stays the one settings file; this only supplies what CI's
environment would (a secret key) before loading it, so a bare `pytest` works on a fresh checkout."""

import os

os.environ.setdefault("SECRET_KEY", "only-for-tests-" + "x" * 40)
# The test client and the live server speak plain HTTP on loopback, like a TLS-terminating proxy's backend.
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")

from config.settings import *  # noqa: F403

# Production serves hashed files collected by `collectstatic`; tests read them straight from static/.
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405
WHITENOISE_USE_FINDERS = True
STATIC_ROOT = None  # nothing collected; whitenoise serves from the finders

# Hashing a password properly takes a third of a second on purpose; tests create many users.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

"""Fixtures of the ledger's tests (the shared personas and tables are in tests/conftest.py)."""

from __future__ import annotations

import pytest

from tests.ledger.migrations_support import migrate_to_latest


@pytest.fixture
def back_to_the_latest_schema():
    """For a test that migrates back: leave the database as the other tests expect it, every migration applied."""
    yield
    migrate_to_latest()

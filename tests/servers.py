"""The servers some tests need besides the embedded database: PostgreSQL (transactions that really run in parallel)
and Redis (counters and pushes shared between processes).

Without them those tests skip, so that a bare `pytest` works on a fresh checkout. CI names the ones it provides in
TALON_REQUIRE_SERVICES (comma-separated: ``redis``, ``postgresql``; .ci/run sets it), and then a test that finds
one missing fails instead of skipping: a CI machine without Redis cannot pass with the Redis tests skipped.
"""

from __future__ import annotations

import os

import pytest
import redis
from django.db import connection

REDIS_URL = "redis://127.0.0.1:6379/0"


def required() -> frozenset[str]:
    return frozenset(name.strip() for name in os.environ.get("TALON_REQUIRE_SERVICES", "").split(",") if name.strip())


def _missing(service: str, reason: str) -> None:
    if service in required():
        pytest.fail(f"{reason}, and TALON_REQUIRE_SERVICES requires {service}", pytrace=False)
    pytest.skip(reason)


def redis_answers(url: str = REDIS_URL) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1).ping())
    except (redis.RedisError, OSError):
        return False


def need_redis(url: str = REDIS_URL, why: str = "") -> None:
    """Skip the test without Redis at ``url``, or fail it when Redis is required."""
    if not redis_answers(url):
        _missing("redis", f"no Redis answers at {url}" + (f": {why}" if why else ""))


def need_postgresql(why: str) -> None:
    """Skip the test unless the database under test is PostgreSQL, or fail it when PostgreSQL is required."""
    if connection.vendor != "postgresql":
        _missing("postgresql", f"the database under test is {connection.vendor}, not PostgreSQL: {why}")

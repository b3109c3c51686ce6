"""A limit on wrong join codes per client address, so nobody finds tables by trying codes.

A club room's phones often share one address (the venue's Wi-Fi), so the limit is far above what players mistype:
``SEAT_CODE_GUESSES`` wrong codes within ``SEAT_CODE_WINDOW`` seconds; past it, codes are not looked up until the
window ends. Counted in the cache (Redis in production, shared by the app processes); a cache that does not
answer counts nothing rather than refusing players.
"""

from __future__ import annotations

import hashlib
import logging

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from redis.exceptions import RedisError

from ledger.auth import client_address

log = logging.getLogger(__name__)


def _limits() -> tuple[int, int]:
    return int(getattr(settings, "SEAT_CODE_GUESSES", 60)), int(getattr(settings, "SEAT_CODE_WINDOW", 600))


def _key(request: HttpRequest) -> str:
    return "talon:seat-code-misses:" + hashlib.sha256(client_address(request).encode()).hexdigest()[:32]


def too_many(request: HttpRequest) -> bool:
    """Whether this address typed too many wrong codes lately."""
    limit, _window = _limits()
    try:
        return int(cache.get(_key(request), 0)) >= limit
    except (RedisError, OSError) as error:
        log.warning("Seat codes: the cache does not answer (%s); not counting", error)
        return False


def missed(request: HttpRequest) -> None:
    """One more wrong code from this address."""
    _limit, window = _limits()
    key = _key(request)
    try:
        if not cache.add(key, 1, window):
            cache.incr(key)
    except ValueError:  # the window ended between add and incr
        cache.add(key, 1, window)
    except (RedisError, OSError) as error:
        log.warning("Seat codes: the cache does not answer (%s); not counting", error)

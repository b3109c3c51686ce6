"""Limits on log-ins: a password cannot be guessed, and nobody can lock its owner out.

Built on django-axes: its backend, signals, middleware and settings (AXES_* in config/settings.py), with one
handler of our own because axes cannot be configured into what we need.

- What is counted (AXES_LOCKOUT_PARAMETERS): attempts per user name and client address together, at most
  LOGIN_RATE_LIMIT; and per client address whatever the names, at most LOGIN_RATE_ADDRESS_LIMIT. Guesses from
  elsewhere never touch the owner's counters; rotating names from one address runs into the address's counter.
  Both counters start at the first attempt and end LOGIN_RATE_WINDOW seconds later. An address many people share
  (LOGIN_RATE_SHARED_ADDRESSES: a club's Wi-Fi) has the higher LOGIN_RATE_SHARED_ADDRESS_LIMIT.
- Per account, every address together (:func:`_account_slowed`): past LOGIN_RATE_ACCOUNT_LIMIT attempts, one
  password every LOGIN_RATE_ACCOUNT_SPACING seconds is checked; sooner is a 429 saying how long to wait. Guessing
  from many addresses slows to a crawl; the owner is delayed, never locked out.
- Why not axes's own ``AxesCacheHandler``: it reads the count before the password is checked and adds the failure
  after, so attempts racing each other all pass the read before any is counted (40 parallel attempts had 40
  passwords checked against a limit of 5). :class:`AttemptHandler` takes the attempt first, with one atomic
  increment per counter, and the password is checked only while every counter stays within its limit; a right
  password gives the attempt back. So at most the limit of wrong passwords is ever checked, however many race.
- Where: Django's cache. With CACHE_URL at Redis every gunicorn worker and app server counts on the same
  counters; without it each process counts on its own. If Redis stops answering, the counters move to the
  process's memory (logged) until it answers again: log-ins keep working, limited per process.
- :class:`LoginLimitBackend` is the only authentication backend: the log-in page (allauth's, by user name or
  e-mail), its re-authentication, the admin and anything else calling ``authenticate`` go through it. A passkey
  log-in checks no password and takes no attempt. The API takes tokens (and the browser's session), never
  passwords.
- The log-in page's form (ledger/accounts/forms.py) and :func:`admin_login` say why a refused attempt was refused;
  axes's middleware answers it with 429 (:func:`lockout_response`), with Retry-After when the wait is known.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import ipaddress
import json
import logging
from typing import Any

from allauth.account.auth_backends import AuthenticationBackend
from allauth.account.models import EmailAddress
from axes.backends import AxesBackend
from axes.handlers.cache import AxesCacheHandler
from axes.helpers import get_cache_timeout, get_client_parameters, get_client_username, get_failure_limit
from axes.models import AccessAttempt
from axes.signals import user_locked_out
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

# The counters one log-in attempt took, on its request: given back when the password was right.
TAKEN = "talon_login_taken"
# Where the counters go while the shared cache does not answer: this process's memory.
_local = LocMemCache("talon-login-counters", {})


def client_address(request: HttpRequest | None) -> str:
    """AXES_CLIENT_IP_CALLABLE: REMOTE_ADDR, or, behind LOGIN_RATE_PROXIES trusted proxies, the address the
    outermost of them saw (counted from the right of X-Forwarded-For, so a client cannot forge it)."""
    if request is None:
        return ""
    proxies = getattr(settings, "LOGIN_RATE_PROXIES", 0)
    header: str = request.META.get("HTTP_X_FORWARDED_FOR", "")
    forwarded = [part.strip() for part in header.split(",") if part.strip()]
    if proxies and len(forwarded) >= proxies:
        return forwarded[-proxies]
    return str(request.META.get("REMOTE_ADDR", ""))


# Where the name comes from: allauth's log-in form and its credentials ("login", then "username" or "email"),
# the admin's form and code on the server ("username").
_NAME_FIELDS = ("login", "username", "email")


def login_name(request: HttpRequest | None, credentials: dict[str, Any] | None) -> str | None:
    """AXES_USERNAME_CALLABLE: the user name as typed, trimmed and case-folded ("Alice " and "alice" count
    together); an account's e-mail address counts as its user name (else every account had twice the guesses)."""
    source: Any = credentials if credentials else getattr(request, "POST", {})
    for field in _NAME_FIELDS:
        name = source.get(field)
        if isinstance(name, str) and name.strip():
            return _account_name(name.strip()) if "@" in name else name.strip().casefold()
    return None


def _account_name(address: str) -> str:
    """The user name of the account with this e-mail address: allauth's addresses (kept in lower case, indexed),
    else the account's own e-mail field, which allauth's log-in accepts too (an account made before allauth, or by
    an administrator, has no allauth address); an address nobody has counts as typed, so the counters tell nobody
    which addresses exist."""
    names = EmailAddress.objects.filter(email=address.lower()).order_by("-verified", "pk")
    username: str | None = names.values_list("user__username", flat=True).first()
    if username is None:
        user_model = get_user_model()
        accounts = user_model.objects.filter(email__iexact=address).order_by("pk")
        username = accounts.values_list(user_model.USERNAME_FIELD, flat=True).first()
    return (username or address).casefold()


def _counters(request: HttpRequest, credentials: dict[str, Any] | None) -> list[tuple[str, int]]:
    """The counters an attempt takes, each with its limit: one per entry of AXES_LOCKOUT_PARAMETERS.

    The key is a hash of the entry's values as JSON: axes's own keys join the values without a separator, so a
    name ending in "8" from 1.2.3.4 would count on the counter of the name without it from 81.2.3.4.
    """
    username = get_client_username(request, credentials)
    agent = request.META.get("HTTP_USER_AGENT", "")[:255]
    counters = []
    address = client_address(request)
    for values in _parameters(username, address, agent, request, credentials):
        if "username" in values:
            limit = get_failure_limit(request, credentials)
        elif _shared(address):
            limit = settings.LOGIN_RATE_SHARED_ADDRESS_LIMIT
        else:
            limit = settings.LOGIN_RATE_ADDRESS_LIMIT
        counters.append((_key(values), limit))
    return counters


def _shared(address: str) -> bool:
    """Whether many people log in from ``address`` (LOGIN_RATE_SHARED_ADDRESSES: a club's Wi-Fi)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in _networks(tuple(settings.LOGIN_RATE_SHARED_ADDRESSES)))


@functools.cache
def _networks(listed: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """The setting's networks, read once per value (not at every log-in attempt)."""
    return tuple(ipaddress.ip_network(network, strict=False) for network in listed)


def _account_slowed(request: HttpRequest, credentials: dict[str, Any] | None, window: int) -> tuple[Any, bool]:
    """Take the attempt on the account's own counter (every address together); past LOGIN_RATE_ACCOUNT_LIMIT, the
    attempt goes on only if no other was let through for this account within LOGIN_RATE_ACCOUNT_SPACING seconds.

    A delay, not a lock-out: guessing from many addresses gets one password checked every few seconds at most,
    and the owner, told how long to wait, gets in after that wait. Returns the counter taken and whether refused.
    """
    username = get_client_username(request, credentials)
    if not username:
        return None, False
    key = _key({"account": username})
    store, count = _take(key, window)
    if count <= settings.LOGIN_RATE_ACCOUNT_LIMIT:
        return (store, key), False
    try:
        let_through = cache.add(f"{key}:spaced", 1, settings.LOGIN_RATE_ACCOUNT_SPACING)
    except (RedisError, OSError):
        let_through = _local.add(f"{key}:spaced", 1, settings.LOGIN_RATE_ACCOUNT_SPACING)
    if not let_through:
        request.talon_login_wait = settings.LOGIN_RATE_ACCOUNT_SPACING  # type: ignore[attr-defined]
    return (store, key), not let_through


def _parameters(*args: Any) -> list[dict[str, Any]]:
    # An entry without any value (no address: a log-in without a request) has no counter.
    return [values for values in get_client_parameters(*args) if any(values.values())]


def _key(values: dict[str, Any]) -> str:
    return "login-attempts:" + hashlib.sha256(json.dumps(values, sort_keys=True).encode()).hexdigest()


def _increment(store: BaseCache, key: str, window: int) -> int:
    """One more on the counter: atomic in the cache (Redis INCR, or under LocMemCache's lock)."""
    while True:
        store.add(key, 0, window)
        try:
            count = store.incr(key)
        except ValueError:  # the window ended between add and incr: this attempt opens the next one
            continue
        if count <= 1:
            # Whoever opens a window makes sure it closes: Redis's INCR on a key that expired a moment before
            # (between the EXISTS and the INCR of Django's incr) makes a new key that never expires.
            store.touch(key, window)
        return count


def _take(key: str, window: int) -> tuple[BaseCache, int]:
    try:
        return cache, _increment(cache, key, window)
    except (RedisError, OSError) as error:
        log.warning("Log-in counters: the cache does not answer (%s); counting in this process", error)
        return _local, _increment(_local, key, window)


def _give_back(request: HttpRequest) -> None:
    for store, key in getattr(request, TAKEN, None) or []:
        try:
            store.decr(key)
        except ValueError:
            pass  # the window has ended: nothing to give back
        except (RedisError, OSError) as error:
            log.warning("Log-in counters: could not give an attempt back (%s)", error)
    setattr(request, TAKEN, None)


class AttemptHandler(AxesCacheHandler):
    """AXES_HANDLER: axes's cache handler, taking each attempt before its password is checked."""

    def is_locked(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> bool:
        """Take the attempt and say whether it is over a limit: axes asks once per attempt, before the password."""
        window = get_cache_timeout(request) or settings.LOGIN_RATE_WINDOW
        taken, refused = [], False
        for key, limit in _counters(request, credentials):
            store, count = _take(key, window)
            taken.append((store, key))
            refused = refused or count > limit
        if not refused:
            account, refused = _account_slowed(request, credentials, window)
            taken += [account] if account else []
        setattr(request, TAKEN, taken)
        return refused

    def reset_attempts(
        self, *, ip_address: str | None = None, username: str | None = None, ip_or_username: bool = False
    ) -> int:
        """``manage.py axes_reset_username`` and ``axes_reset_ip``: the counters of exactly that name and address
        (the keys are hashes, so a name's counters from every address cannot be found, as with axes's own)."""
        name = login_name(None, {"username": username}) if username else None
        attempt = AccessAttempt(username=name, ip_address=ip_address)
        keys = [_key(values) for values in _parameters(name, ip_address, "", attempt, None)]
        for store in (cache, _local):
            with contextlib.suppress(RedisError, OSError):
                store.delete_many(keys)
        return len(keys)

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        counts = []
        for key, _limit in _counters(request, credentials):
            try:
                counts.append(int(cache.get(key, 0)))
            except (RedisError, OSError):
                counts.append(int(_local.get(key, 0)))
        return max(counts, default=0)

    def user_login_failed(
        self, sender: object, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
    ) -> None:
        if request is None:
            return  # LoginLimitBackend took the attempt on a stand-in request
        if getattr(request, TAKEN, None) is None and not self.is_whitelisted(request, credentials):
            self.is_locked(request, credentials)  # a failure our backend never saw: count it now
        setattr(request, TAKEN, None)
        if getattr(request, "axes_locked_out", False):
            request.axes_credentials = credentials  # type: ignore[attr-defined]
            username = get_client_username(request, credentials)
            log.warning("Log-in refused: too many attempts for %r from %s", username, client_address(request))
            user_locked_out.send("axes", request=request, username=username, ip_address=client_address(request))


class LoginLimitBackend(AxesBackend, AuthenticationBackend):  # type: ignore[misc]  # allauth has no types
    """The only authentication backend: axes's check, which takes the attempt, then allauth's password check (by
    user name or by e-mail address)."""

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> User | None:  # AUTH_USER_MODEL is Django's own
        # Code on the server (a management command, the test client's login) may leave the request out: its
        # attempts count per name with no address, never unlimited.
        attempt = request if request is not None else HttpRequest()
        super().authenticate(attempt, username, password, **kwargs)  # PermissionDenied when over a limit
        user: User | None = AuthenticationBackend.authenticate(
            self, request, username=username, password=password, **kwargs
        )
        if user is not None:
            _give_back(attempt)
        return user


def too_many(request: HttpRequest | None = None) -> str:
    """Why the attempt was refused: the limit, and how long to wait when the account's spacing said so."""
    wait = getattr(request, "talon_login_wait", None)
    if wait:
        return _("Too many log-ins to this account from elsewhere. Wait %(seconds)s seconds and try again.") % {
            "seconds": wait
        }
    return _("Too many failed log-ins. Wait a few minutes and try again.")


def refused(request: HttpRequest) -> bool:
    """Whether the log-in limit refused this request's attempt (its password was not even checked)."""
    return bool(getattr(request, "axes_locked_out", False))


def admin_login(request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
    """The admin's own log-in page, answering 429 with "Too many failed log-ins" when the limit refused it."""
    response = admin.site.login(request, extra_context)
    if refused(request):
        messages.error(request, too_many(request))
        response.status_code = 429
    return response


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: dict[str, Any] | None = None
) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: the answer the view drew (the log-in pages say why), as 429."""
    response = original_response
    if response is None:
        response = HttpResponse(too_many(request), content_type="text/plain; charset=utf-8")
    response.status_code = 429
    wait = getattr(request, "talon_login_wait", None)
    if wait:
        response["Retry-After"] = str(wait)
    return response

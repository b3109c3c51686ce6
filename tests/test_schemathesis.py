"""A bounded schemathesis run against the API in-process: whatever it sends, the server answers without a 5xx.

Each operation gets a few generated requests (bodies and parameters from the OpenAPI schema), as Alice with her
token, against an evening, table, hand, closed evening, transfer, circle and tournament that exist: half of the
generated ids are replaced with real ones so requests reach the services, not only the 404 path.
"""

from __future__ import annotations

import json
import zlib

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

from ledger import services
from ledger.circles import services as circles
from ledger.devices.services import push_subscribe
from ledger.tournaments import services as tournaments
from tests import factories
from tests.ledger.devices.push_service import FakeBrowser


def _openapi() -> dict:
    """The schema /api/schema/ serves, made in-process (no request, no database)."""
    generated = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(OpenApiJsonRenderer().render(generated))


APP = get_wsgi_application()
schema = schemathesis.openapi.from_dict(_openapi())


@pytest.fixture
def in_process(settings):
    settings.ALLOWED_HOSTS = ["localhost"]  # the host schemathesis's WSGI client sends
    settings.SECURE_SSL_REDIRECT = False  # it speaks plain HTTP to the app in-process
    # The WSGI handler would close the test's database connection (and its transaction) after each request;
    # Django's own test client disconnects these signals the same way.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def world(alice):
    evening = factories.make_evening(alice)
    table = factories.make_table(evening, "snapser")
    hand = factories.record(table)[0]
    closed = factories.make_evening(alice, place="Closed")
    factories.record(factories.make_table(closed, "skat"))
    services.evening_close(evening=closed, by=alice)
    circle = circles.circle_create(owner=alice, name="Friday", members=["Ana", "Ben"], settle="tab")
    club = tournaments.tournament_create(
        owner=alice, game="skat", name="Club night", players=factories.PLAYERS["skat"], rounds=2, start=True
    )
    return {
        "token": Token.objects.create(user=alice).key,
        "ids": {
            "evening_id": evening.pk,
            "table_id": table.pk,
            "hand_id": hand.pk,
            "transfer_id": closed.settlement.transfers.first().pk,
            "token": evening.share_token,
            "circle_id": circle.pk,
            "player_id": circle.members.get(name="Ana").pk,
            "tournament_id": club.pk,
            "device_id": push_subscribe(
                device="a" * 64,
                user=alice,
                subscription=FakeBrowser("https://push.example.org/x").subscription(),
                user_agent="",
            )[0].pk,
        },
    }


@schema.parametrize()
@hypothesis_settings(
    max_examples=20,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.filter_too_much],
)
def test_no_request_makes_the_server_fail(case, world, in_process):
    if case.path_parameters:
        case.path_parameters = {
            name: world["ids"][name] if zlib.crc32(str(value).encode()) % 2 == 0 else value
            for name, value in case.path_parameters.items()
        }
    case.call_and_validate(
        app=APP,
        headers={"Authorization": f"Token {world['token']}"},
        checks=[not_a_server_error, status_code_conformance, response_schema_conformance],
    )

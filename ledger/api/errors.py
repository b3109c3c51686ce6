"""One exception handler: domain errors become 400 or 409, every error body is ``{"field", "error"}``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

import rules
from ledger import services


class ErrorSerializer(serializers.Serializer[dict[str, Any]]):
    """What every error answer carries: the field to fix (a dotted path, or null) and a sentence."""

    field = serializers.CharField(allow_null=True)
    error = serializers.CharField()


class ConflictSerializer(ErrorSerializer):
    """409: a stale version (``version`` is the hand's current one: reload and retry) or a closed evening."""

    version = serializers.IntegerField(required=False)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, services.StaleVersion):
        return Response({"field": exc.field, "error": exc.message, "version": exc.current.version}, status=409)
    if isinstance(exc, services.EveningClosed):
        return Response({"field": exc.field, "error": exc.message}, status=409)
    if isinstance(exc, rules.RulesError | services.LedgerError):
        return Response({"field": exc.field, "error": exc.message}, status=400)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # a bug: let Django log it and answer 500
    if isinstance(exc, exceptions.ValidationError):
        errors = dict(_flatten(exc.detail))
        field, messages = next(iter(errors.items()), ("non_field_errors", ["Invalid input."]))
        response.data = {"field": field, "error": messages[0], "errors": errors}
    elif isinstance(exc, exceptions.ParseError):
        response.data = {"field": getattr(exc, "field", "body"), "error": str(exc.detail)}
    else:
        detail = exc.detail if isinstance(exc, exceptions.APIException) else "Not found."
        response.data = {"field": None, "error": str(detail)}
    return response


def _flatten(detail: Any, path: str = "") -> Iterator[tuple[str, list[str]]]:
    """DRF's nested error details as dotted paths (``players.1``, ``rules``), like ``rules.RulesError`` fields."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = "non_field_errors" if key == "non_field_errors" and not path else f"{path}{key}"
            yield from _flatten(value, f"{name}.")
    elif isinstance(detail, list) and detail and not all(isinstance(item, str) for item in detail):
        for index, value in enumerate(detail):
            if value:
                yield from _flatten(value, f"{path}{index}.")
    else:
        messages = detail if isinstance(detail, list) else [detail]
        yield path.rstrip(".") or "non_field_errors", [str(message) for message in messages]

"""One APIView per operation, several operations on one URL: ``GET`` and ``POST /api/evenings/`` are two views.

Django routes by path only, so ``by_method`` builds the one view a path needs, handing each request to the view
of its method; ``SchemaGenerator`` lists each of those views as its own operation in the OpenAPI schema.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import URLPattern
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.generators import EndpointEnumerator as BaseEndpointEnumerator
from drf_spectacular.generators import SchemaGenerator as BaseSchemaGenerator
from drf_spectacular.openapi import AutoSchema as BaseAutoSchema
from rest_framework import serializers
from rest_framework.views import APIView


def by_method(**views: type[APIView]) -> Callable[..., HttpResponse]:
    """``by_method(get=EveningListApi, post=EveningCreateApi)``: the view for one path."""
    handlers = {method.upper(): view.as_view() for method, view in views.items()}
    if "GET" in handlers:
        handlers.setdefault("HEAD", handlers["GET"])
    allowed = ", ".join(sorted(handlers))

    @csrf_exempt  # each APIView checks CSRF itself for session-authenticated requests
    def view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method == "OPTIONS":
            response = HttpResponse(status=200)
            response["Allow"] = f"{allowed}, OPTIONS"
            return response
        handler = handlers.get(request.method or "")
        if handler is None:
            response = JsonResponse({"field": None, "error": f'Method "{request.method}" not allowed.'}, status=405)
            response["Allow"] = allowed
            return response
        return handler(request, *args, **kwargs)

    view.views_by_method = {m: h for m, h in handlers.items() if m != "HEAD"}  # type: ignore[attr-defined]
    return view


class EndpointEnumerator(BaseEndpointEnumerator):
    def _get_api_endpoints(self, patterns: Any, prefix: str) -> list[tuple[str, str, str, Any]]:
        endpoints = []
        for pattern in self.patterns if patterns is None else patterns:
            by_method_views = getattr(getattr(pattern, "callback", None), "views_by_method", None)
            if isinstance(pattern, URLPattern) and by_method_views:
                path_regex = prefix + str(pattern.pattern)
                path = self.get_path_from_regex(path_regex)
                endpoints += [(path, path_regex, method, view) for method, view in by_method_views.items()]
            else:
                endpoints += super()._get_api_endpoints([pattern], prefix)
        return endpoints


class SchemaGenerator(BaseSchemaGenerator):
    endpoint_inspector_cls = EndpointEnumerator


class AutoSchema(BaseAutoSchema):
    """Names components after their view: ``EveningCreateApi.InputSerializer`` becomes ``EveningCreateInput``."""

    def get_serializer_name(self, serializer: serializers.Serializer, direction: str) -> str:
        parts = type(serializer).__qualname__.split(".")
        return "".join(part.removesuffix("Api").removesuffix("Serializer") for part in parts)

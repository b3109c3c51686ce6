"""One APIView per operation, several operations on one URL: ``GET`` and ``POST /api/evenings/`` are two views.

Django routes by path only, so ``by_method`` builds the one view a path needs (a ``MethodRoute``), handing each
request to the view of its method. In the OpenAPI schema, the preprocessing hook ``split_method_routes`` (set in
``SPECTACULAR_SETTINGS``) puts each of those views in the route's place, so each is its own operation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.http import HttpRequest, HttpResponse, JsonResponse
from drf_spectacular.openapi import AutoSchema as BaseAutoSchema
from rest_framework import serializers
from rest_framework.views import APIView

Endpoint = tuple[str, str, str, Any]  # path, path regex, method, view callback: drf-spectacular's endpoint


class MethodRoute(APIView):
    """The view of one path whose methods are separate APIViews (``handlers``: method → view); see ``by_method``.

    It only forwards: authentication, CSRF, throttling and errors are each handler's own.
    """

    handlers: ClassVar[dict[str, Callable[..., HttpResponse]]] = {}

    @property
    def allowed_methods(self) -> list[str]:
        return [*self.handlers, "OPTIONS"]

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        allowed = ", ".join(sorted(self.handlers))
        if request.method == "OPTIONS":
            response = HttpResponse(status=200)
            response["Allow"] = f"{allowed}, OPTIONS"
            return response
        handler = self.handlers.get(request.method or "")
        if handler is None:
            response = JsonResponse({"field": None, "error": f'Method "{request.method}" not allowed.'}, status=405)
            response["Allow"] = allowed
            return response
        return handler(request, *args, **kwargs)


def by_method(**views: type[APIView]) -> Callable[..., HttpResponse]:
    """``by_method(get=EveningListApi, post=EveningCreateApi)``: the view for one path."""
    handlers = {method.upper(): view.as_view() for method, view in views.items()}
    if "GET" in handlers:
        handlers.setdefault("HEAD", handlers["GET"])
    name = "".join(view.__name__ for view in views.values()) + "Route"
    route: type[MethodRoute] = type(name, (MethodRoute,), {"handlers": handlers})
    return route.as_view()


def split_method_routes(endpoints: list[Endpoint]) -> list[Endpoint]:
    """drf-spectacular preprocessing hook: a ``MethodRoute``'s operations are described by their own views."""
    split = []
    for path, path_regex, method, callback in endpoints:
        route = getattr(callback, "cls", None)
        if isinstance(route, type) and issubclass(route, MethodRoute):
            callback = route.handlers[method]
        split.append((path, path_regex, method, callback))
    return split


class AutoSchema(BaseAutoSchema):
    """Names components after their view: ``EveningCreateApi.InputSerializer`` becomes ``EveningCreateInput``."""

    def get_serializer_name(self, serializer: serializers.Serializer[Any], direction: str) -> str:
        parts = type(serializer).__qualname__.split(".")
        return "".join(part.removesuffix("Api").removesuffix("Serializer") for part in parts)

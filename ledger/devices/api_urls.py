"""The devices' API routes, in the ``api:`` namespace (``ledger/api_urls.py`` includes them)."""

from django.urls import URLPattern, URLResolver, path

from ledger.devices.api import DeviceListApi, DeviceSwitchOffApi

urlpatterns: list[URLPattern | URLResolver] = [
    path("devices/", DeviceListApi.as_view(), name="devices"),
    path("devices/<int:device_id>/", DeviceSwitchOffApi.as_view(), name="device"),
]

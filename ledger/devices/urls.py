"""The devices' pages, in the ``devices:`` namespace (included by ``config/urls.py``)."""

from django.urls import URLPattern, URLResolver, path

from ledger.devices import views

app_name = "devices"

urlpatterns: list[URLPattern | URLResolver] = [
    path("devices/", views.device_list, name="device_list"),
    path("devices/<int:subscription_id>/off/", views.device_switch_off, name="device_switch_off"),
    path("devices/push/subscribe/", views.push_subscribe, name="push_subscribe"),
    path("devices/push/unsubscribe/", views.push_unsubscribe, name="push_unsubscribe"),
    path("devices/push/state/", views.push_state, name="push_state"),
]

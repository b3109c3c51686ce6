from django.apps import AppConfig


class DevicesConfig(AppConfig):
    name = "ledger.devices"
    label = "talon_devices"
    verbose_name = "Devices and Web Push"

    def ready(self) -> None:
        from ledger.devices import checks, listeners  # noqa: F401 - importing checks registers them

        listeners.connect()

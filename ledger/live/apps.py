from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "ledger.live"
    label = "talon_live"
    verbose_name = "Live lines"

    def ready(self) -> None:
        from ledger.live import listeners

        listeners.connect()

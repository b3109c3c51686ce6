from django.apps import AppConfig


class CirclesConfig(AppConfig):
    name = "ledger.circles"
    label = "talon_circles"
    verbose_name = "Circles"

    def ready(self) -> None:
        from ledger.circles import listeners

        listeners.connect()

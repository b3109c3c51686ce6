from django.apps import AppConfig


class SeatsConfig(AppConfig):
    name = "ledger.seats"
    label = "talon_seats"
    verbose_name = "Seats held by phones"

    def ready(self) -> None:
        from ledger.seats import listeners

        listeners.connect()

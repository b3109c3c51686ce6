from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "ledger.tournaments"
    label = "talon_tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from ledger.tournaments import listeners

        listeners.connect()

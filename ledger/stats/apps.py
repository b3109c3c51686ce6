from django.apps import AppConfig


class StatsConfig(AppConfig):
    name = "ledger.stats"
    label = "talon_stats"
    verbose_name = "Statistics"

    def ready(self) -> None:
        from ledger.stats import listeners

        listeners.connect()

from django.apps import AppConfig


class ConfirmationsConfig(AppConfig):
    name = "ledger.confirmations"
    label = "talon_confirmations"
    verbose_name = "Confirmations and disputes"

    def ready(self) -> None:
        from ledger.confirmations import listeners

        listeners.connect()

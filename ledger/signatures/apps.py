from django.apps import AppConfig


class SignaturesConfig(AppConfig):
    name = "ledger.signatures"
    label = "talon_signatures"
    verbose_name = "Signatures"

    def ready(self) -> None:
        from ledger.signatures import listeners

        listeners.connect()

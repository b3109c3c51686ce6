from django.apps import AppConfig


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = "Ledger"

    def ready(self) -> None:
        from ledger import middleware  # noqa: F401 - connects the login receiver that restores the user's language

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "ledger.accounts"
    label = "talon_accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from ledger.accounts import listeners

        listeners.connect()

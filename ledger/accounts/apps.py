from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "ledger.accounts"
    label = "talon_accounts"
    verbose_name = "Accounts"

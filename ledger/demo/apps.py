from django.apps import AppConfig


class DemoConfig(AppConfig):
    name = "ledger.demo"
    label = "talon_demo"
    verbose_name = "Demo data"

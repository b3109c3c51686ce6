from django.apps import AppConfig


class PeopleConfig(AppConfig):
    name = "ledger.people"
    label = "talon_people"
    verbose_name = "People"

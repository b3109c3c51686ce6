from django.apps import AppConfig


class PeopleConfig(AppConfig):
    """A person's own account linked to the players scorekeepers keep for them: claims, their own pages, their
    data to take away."""

    name = "ledger.people"
    label = "talon_people"
    verbose_name = "People"

    def ready(self) -> None:
        from ledger.people import listeners

        listeners.connect()

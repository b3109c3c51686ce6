from django.apps import AppConfig


class InvitationsConfig(AppConfig):
    name = "ledger.invitations"
    label = "talon_invitations"
    verbose_name = "Invitations"

    def ready(self) -> None:
        from ledger.invitations import listeners

        listeners.connect()

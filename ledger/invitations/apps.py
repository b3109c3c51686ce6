from django.apps import AppConfig


class InvitationsConfig(AppConfig):
    name = "ledger.invitations"
    label = "talon_invitations"
    verbose_name = "Invitations"

from django.apps import AppConfig


class OfflineConfig(AppConfig):
    """The table page without a network: the bundle the browser prices with, its worker, the queued hands' door
    and the installable web app (manifest, service worker, offline page)."""

    name = "ledger.offline"
    label = "talon_offline"
    verbose_name = "Offline entry"

    def ready(self) -> None:
        from ledger import hooks
        from ledger.offline.table_page import offline_context

        hooks.table_page_context.connect(offline_context)

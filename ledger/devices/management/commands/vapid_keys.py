"""``manage.py vapid_keys``: a new VAPID key pair for Web Push, as the lines to put in the server's environment."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from ledger.devices.keys import new_pair


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push (WEBPUSH_VAPID_PUBLIC_KEY, WEBPUSH_VAPID_PRIVATE_KEY)."

    def handle(self, *args: Any, **options: Any) -> None:
        public, private = new_pair()
        self.stdout.write(f"WEBPUSH_VAPID_PUBLIC_KEY={public}\nWEBPUSH_VAPID_PRIVATE_KEY={private}\n")

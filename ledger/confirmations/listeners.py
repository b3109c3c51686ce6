"""What the books' hooks make the confirmations hear; connected in ``ConfirmationsConfig.ready()``."""

from __future__ import annotations


def connect() -> None:
    pass

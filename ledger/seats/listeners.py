"""What the books' hooks make the seats hear; connected in ``SeatsConfig.ready()``."""

from __future__ import annotations


def connect() -> None:
    pass

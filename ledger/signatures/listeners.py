"""What the books' hooks make the signatures hear; connected in ``SignaturesConfig.ready()``."""

from __future__ import annotations


def connect() -> None:
    pass

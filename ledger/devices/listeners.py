"""What the books' hooks make the devices hear; connected in ``DevicesConfig.ready()``."""

from __future__ import annotations


def connect() -> None:
    pass

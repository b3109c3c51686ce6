"""The document's name and version, and the refusal of one that cannot be imported."""

from __future__ import annotations

FORMAT = "talon-evening"
VERSION = 1


class ImportRefused(ValueError):
    """The document cannot be imported; the message names where (``table 2 (skat), hand #7: …``)."""

"""One hand form per game; ``form_class(game)`` picks it."""

from __future__ import annotations

from ledger.hand_forms.base import HandForm
from ledger.hand_forms.marias import MariasHandForm
from ledger.hand_forms.skat import SkatHandForm
from ledger.hand_forms.snapser import SnapserHandForm

FORMS: dict[str, type[HandForm]] = {"marias": MariasHandForm, "skat": SkatHandForm, "snapser": SnapserHandForm}


def form_class(game: str) -> type[HandForm]:
    return FORMS[game]

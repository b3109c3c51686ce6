"""One evening as a JSON document, and back: a backup of one evening, or a move to another server.

The document (``format: talon-evening``, ``version: 1``) holds what the ledger stores, in its own words::

    {"format": "talon-evening", "version": 1, "exported_at": "…",
     "evening": {"date", "place", "currency", "coin", "status", "created_at", "owner", "scorekeepers"},
     "players": [{"name", "iban"}],
     "tables": [{"game", "ruleset", "seat_names", "first_dealer", "recording", "confirmation", "hand_count",
                 "revision", "created_at",
                 "hands": [{"number", "version", "dealer", "status", "document", "result", "key",
                            "entered_by", "entered_at", "changed_by", "changed_at",
                            "versions": [{"version", "dealer", "status", "document", "result",
                                          "changed_by", "changed_at"}]}]}],
     "settlement": null | {"mode", "banker", "coin", "exact", "rounded", "created_by", "created_at",
                           "transfers": [{"payer", "payee", "amount", "paid_at", "paid_by"}],
                           "carried": true (only when the plan went elsewhere: a circle's tab)},
     "events": [{"kind", "by", "at", "note"}]}

Money is a decimal string, times are ISO 8601 with their offset, users are user names. Postings are not written
out: they are each hand's ``result.amounts``, as ``services.hand_record`` stores them. A result's ``label`` and
``lines`` are its English text; newer exports' ``result.source`` says how they were made (message ids and their
parameters, which Talon says in any language), where earlier exports carry ``result.texts``, one copy per language.
The import reads neither: it prices every hand again.

The import is one more writer of the ledger and writes through its services (DESIGN.md, "One read side"): the
evening and its tables are made by ``evening_create`` and ``table_create`` (coin, names, ruleset checked as in the
app); every hand, voided ones and old versions included, is priced again under its table's frozen ruleset and must
come to its exported amounts, and the ledger's own result is stored (a document's explanation lines are never
trusted); the postings are written by ``hands_post`` (zero sums checked); the settlement is planned again by
``settlement_plan`` from the imported hands and must come to the exported balances and transfers. Anything else
refuses the whole import, naming where (``table 2 (skat), hand #7: …``). It creates a new evening for the
importing user, all in one transaction; users named in the document become that user unless the document names them
as its owner or a scorekeeper and they exist here.
Scorekeepers and the share link are not carried over: access is granted anew on the importing server.
"""

from ledger.exchange.document import FORMAT, VERSION, ImportRefused
from ledger.exchange.importing import evening_import
from ledger.exchange.writing import evening_export

__all__ = ["FORMAT", "VERSION", "ImportRefused", "evening_export", "evening_import"]

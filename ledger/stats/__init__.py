"""Statistics: per player and per circle, per game and date range (``selectors``), read from per-table summaries
(``models``) that each recorded or changed hand keeps up to date (``increments``) and that can be recomputed
from scratch (``summaries``); the pages, the API and the statistics sheet of the spreadsheets.

Built on the books (``ledger``), beside the live lines and the offline entry; circles and tournaments build on
it. The books reach it only through ``ledger.hooks``, connected in ``ledger.stats.apps``.
"""

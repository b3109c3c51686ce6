"""Circles of regulars: members across evenings, a running tab or a pot, the members' own links.

Built on the books (``ledger``) and the statistics (``ledger.stats``); the books reach it only through
``ledger.hooks``, connected in ``ledger.circles.apps``.
"""

"""Tournaments: a club night of many tables, built on the books (each table of each round is an evening of its own).

- ``models``: the tournament, its registered players, rounds and tables (kept in the ``ledger`` app's tables);
- ``formats``: what ``Tournament.options`` says, read and checked; ``results``: a table's result from its hands;
- ``services``: registering, check-in, starting a round, finishing, the tables' and the standings' links;
- ``selectors``: the current round, its tables, the players, the standings and the message the viewers are sent;
- ``listeners``: what the books' hooks tell the tournaments (hands changed, which evenings are listed, a table
  phone's page), connected in ``apps.TournamentsConfig.ready``;
- ``views``, ``live``, ``pdf``, ``api``, ``forms``, ``urls``, ``api_urls``: the organiser's pages, the players' and
  the projector's standings, the printouts and the API;
- ``table_guest``, ``table_link``: a table's phone, confined to its table, and what it sees once its link is gone;
- ``demo``: the demo's tournaments.

The game-by-game parts (table sizes, draw, movement, series and placement points, fees, prizes) are
``rules.tournament``.
"""

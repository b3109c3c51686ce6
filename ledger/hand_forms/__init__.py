"""One hand form per game (``marias``, ``skat``, ``snapser``); ``ledger.games`` says which game has which."""

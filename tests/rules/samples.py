"""One plain document per game, priced by RULES.md (S1, M2, N1): the base that limit and junk tests vary."""

SKAT = {
    "game": "skat",
    "players": ["Ana", "Ben", "Cyril"],
    "hand": {"declarer": "Ana", "contract": "grand", "matadors": 1, "declarer_points": 61},
}
MARIAS = {
    "game": "marias",
    "players": ["Ana", "Ben", "Cyril", "Dana"],
    "hand": {"declarer": "Ana", "partner": "Cyril", "contract": "hra", "trump": "bells", "points": 60},
}
SNAPSER = {
    "game": "snapser",
    "players": ["Ana", "Ben", "Cyril"],
    "hand": {"declarer": "Ana", "trump": "bells", "announcement": "hram", "winner": "declarer", "result": "s_vodou"},
}

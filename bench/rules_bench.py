"""Rules throughput: price N random valid Skat hands and print hands per second.

    python bench/rules_bench.py [N]      (default 20000)

The hands come from a seeded `random.Random`, so two runs price the same hands; only the machine differs.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path[0] = str(Path(__file__).resolve().parents[1])  # from anywhere; not bench/ (requests.py shadows requests)

import rules  # noqa: E402 - needs the path above
from rules.skat import HOLDABLE, LEGAL_BIDS, NULL_VALUES, TRUMP_GAMES  # noqa: E402

PLAYERS = ("Ana", "Ben", "Cyril", "Dora")
SEED = 20240229


def skat_document(rng: random.Random) -> dict[str, Any]:
    """One random hand the engine must accept, under the pub rules so that every path is taken."""
    players = list(PLAYERS[: rng.choice((3, 4))])
    dealer = rng.choice(players)
    active = [p for p in players if len(players) == 3 or p != dealer]
    contract = rng.choice([*TRUMP_GAMES, "null", "ramsch", "passed"])
    hand: dict[str, Any] = {"contract": contract, "dealer": dealer, "bock": rng.randint(0, 2)}
    if contract in TRUMP_GAMES:
        points = rng.choice(sorted(HOLDABLE))  # no cards add up to 1: never 1 or 119
        hand |= {
            "declarer": rng.choice(active),
            "matadors": rng.randint(1, 4 if contract == "grand" else 11),
            "without": rng.random() < 0.5,
            "hand": rng.random() < 0.3,
            "bid": rng.choice((18, 20, 22, 23, 24, 27, 30, 36, 48)),
            "declarer_points": points,
            "schwarz": points == 120 and rng.random() < 0.5,
            "kontra": rng.randint(0, 2),
        }
    elif contract == "null":
        hand_game, ouvert = rng.random() < 0.5, rng.random() < 0.5
        value = NULL_VALUES[(hand_game, ouvert)]
        bid = rng.choice([b for b in sorted(LEGAL_BIDS) if b <= value])
        hand |= {"declarer": rng.choice(active), "hand": hand_game, "ouvert": ouvert, "bid": bid}
        hand |= {"won": rng.random() < 0.5, "kontra": rng.randint(0, 2)}
    elif contract == "ramsch":
        shares = (1, 0, 0)
        while not all(share in HOLDABLE for share in shares):
            a, b = sorted(rng.sample(range(1, 120), 2))
            shares = (a, b - a, 120 - b)
        ramsch_points = dict(zip(active, shares, strict=True))
        most = max(ramsch_points.values())
        loser = next(p for p in active if ramsch_points[p] == most)
        hand |= {"ramsch_points": ramsch_points, "ramsch_loser": loser}
    return {"game": "skat", "players": players, "rules": {"preset": "pub"}, "hand": hand}


def main(argv: list[str]) -> None:
    n = int(argv[1]) if len(argv) > 1 else 20_000
    rng = random.Random(SEED)
    documents = [skat_document(rng) for _ in range(n)]
    start = time.perf_counter()
    for document in documents:
        rules.score(document)
    elapsed = time.perf_counter() - start
    print(f"skat: {n} hands in {elapsed:.2f} s = {n / elapsed:,.0f} hands/s")


if __name__ == "__main__":
    main(sys.argv)

"""PDF summary cost: build an evening of N hands in a throwaway SQLite database and time its summary.

    python bench/pdf_bench.py [N ...]      (default: 30 300)

Half the hands at a Skat table, half at a Šnapser table, the evening closed with IBANs on file, so the PDF has
both charts, every explanation line and a payment QR code per transfer. Prints, per size, the best and the
median of three renders, split into the Django side (queries and template) and WeasyPrint (layout and PDF).
"""

from __future__ import annotations

import atexit
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])  # from anywhere; not bench/ (requests.py shadows requests)

WORKDIR = tempfile.mkdtemp(prefix="talon-pdf-bench-")
atexit.register(shutil.rmtree, WORKDIR, ignore_errors=True)
os.environ["DATABASE_URL"] = f"sqlite:///{WORKDIR}/bench.sqlite3"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.template.loader import render_to_string  # noqa: E402
from weasyprint import HTML  # noqa: E402

from ledger import pdf, services  # noqa: E402
from ledger.models import Evening, Player  # noqa: E402

REPEAT = 3
PLAYERS = ["Šárka", "Jürgen", "Ľubo"]
SKAT = [
    {"declarer": "Šárka", "contract": "grand", "matadors": 1, "declarer_points": 61},
    {"declarer": "Jürgen", "contract": "clubs", "matadors": 2, "declarer_points": 45},
    {"declarer": "Ľubo", "contract": "null", "won": False},
]
SNAPSER = [
    {"declarer": "Ľubo", "trump": "leaves", "announcement": "hram", "winner": "declarer", "result": "s_vodou"},
    {"declarer": "Jürgen", "trump": "hearts", "announcement": "hram", "winner": "defenders", "result": "bez_vody"},
    {"declarer": "Šárka", "trump": "bells", "announcement": "durch", "winner": "declarer", "raises": 1},
]


def evening_of(hands: int, owner: object) -> Evening:
    evening = services.evening_create(
        owner=owner, date=django.utils.timezone.localdate(), place="Bench", currency="EUR"
    )
    skat = services.table_create(evening=evening, game="skat", players=PLAYERS)
    snapser = services.table_create(evening=evening, game="snapser", players=PLAYERS)
    for number in range(hands):
        table, documents = (skat, SKAT) if number % 2 == 0 else (snapser, SNAPSER)
        services.hand_record(table=table, hand=dict(documents[number // 2 % 3]), by=owner)
    for player in Player.objects.filter(owner=owner):
        services.player_iban_set(player=player, iban="SK31 1200 0000 1987 4263 7541")
    services.evening_close(evening=evening, by=owner)
    return evening


def measure(evening: Evening) -> tuple[list[float], list[float], int, int]:
    django_side, weasy_side = [], []
    document = b""
    for _ in range(REPEAT):
        start = time.perf_counter()
        html = render_to_string("ledger/summary_pdf.html", pdf.summary_context(evening))
        middle = time.perf_counter()
        rendered = HTML(string=html).render()
        document = rendered.write_pdf()
        end = time.perf_counter()
        django_side.append(middle - start)
        weasy_side.append(end - middle)
    return django_side, weasy_side, len(rendered.pages), len(document)


def main(argv: list[str]) -> None:
    sizes = [int(arg) for arg in argv[1:]] or [30, 300]
    call_command("migrate", verbosity=0)
    owner = get_user_model().objects.create_user(username="bench")
    for size in sizes:
        evening = evening_of(size, owner)
        django_side, weasy_side, pages, size_bytes = measure(evening)
        total = [a + b for a, b in zip(django_side, weasy_side, strict=True)]
        print(
            f"{size:>4} hands: best {min(total):.2f} s, median {statistics.median(total):.2f} s "
            f"(Django {statistics.median(django_side):.2f} s + WeasyPrint {statistics.median(weasy_side):.2f} s), "
            f"{pages} pages, {size_bytes / 1024:.0f} KiB"
        )


if __name__ == "__main__":
    main(sys.argv)

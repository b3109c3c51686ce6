"""The bundle the browser prices with holds everything the worker imports: unpacked and booted as the worker does
(``static/js/pricing-worker.js``), in a Python that sees nothing but the bundle and the standard library, it prices a
hand of every game as the server does, in every language the page speaks."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from ledger.offline import bundle
from ledger.offline import pricing as offline
from tests import factories
from tests.ledger.offline.test_offline import HANDS, form_fields, offline_state, tapped, without_stamps

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "cs", "sk", "de")

# What the worker runs, with the bundle unpacked under ROOT instead of /talon: the templates and catalogues are read
# from there (the settings are set before the first template or translation is read).
WORKER = """
import json, sys
root, asked = sys.argv[1], sys.stdin.read()
sys.path.insert(0, root)
import ledger.offline.boot
from django.conf import settings
settings.TEMPLATES[0]["DIRS"] = [root + "/templates"]
settings.LOCALE_PATHS = [root + "/locale"]
from ledger.offline.pricing import dispatch
answers = [dispatch(request) for request in json.loads(asked)]
outside = sorted(
    name for name, module in sys.modules.items()
    if (name.split(".")[0] in ("ledger", "rules", "django", "asgiref", "sqlparse"))
    and not str(getattr(module, "__file__", None) or root).startswith(root)
)
print(json.dumps({"answers": answers, "outside": outside, "models": "ledger.models" in sys.modules}))
"""


def test_the_bundle_prices_a_hand_of_every_game_on_its_own(alice_client, evening, tmp_path):
    zipfile.ZipFile(io.BytesIO(bundle.bundle())).extractall(tmp_path)
    base = Path(bundle.settings.BASE_DIR)
    rules_files = {path.relative_to(base).as_posix() for path in (base / "rules").rglob("*.py")}
    assert rules_files <= {path.relative_to(tmp_path).as_posix() for path in (tmp_path / "rules").rglob("*.py")}
    requests = []
    for game in ("marias", "snapser", "skat"):
        table = factories.make_table(evening, game)
        page = alice_client.get(table.get_absolute_url()).content.decode()
        state = offline_state(page)
        taps = HANDS[game][1]
        if game == "skat":  # the declarer is a record button: the forehand (the dealer sits out)
            taps = taps | {"declarer": table.seat_names[(offline.next_hand(state, []).dealer + 1) % 3]}
        fields = tapped(form_fields(page), taps)
        queued = {"key": dict(fields)["key"], "fields": fields, "status": "waiting", "reason": ""}
        for language in LANGUAGES:  # the catalogues it ships: the same words as the server's
            asked = {"call": "queue", "state": state | {"language": language}, "queued": [queued]}
            requests.append(json.dumps(asked | {"tapped": queued["key"]}))
    # -I: no user site, no PYTHONPATH; -S: not even the virtualenv's packages, only the standard library.
    run = subprocess.run(
        [sys.executable, "-I", "-S", "-c", WORKER, str(tmp_path)],
        input=json.dumps(requests),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert found["outside"] == [] and not found["models"]
    for request, answer in zip(requests, found["answers"], strict=True):
        priced, server = json.loads(answer), json.loads(offline.dispatch(request))
        assert not priced["refused"], priced.get("form")
        assert priced["tapped"] == server["tapped"] and priced["tapped"]["amounts"]
        assert without_stamps(form_fields(priced["form"])) == without_stamps(form_fields(server["form"]))
        assert priced["scoreboard"] == server["scoreboard"] and priced["rows"] == server["rows"]

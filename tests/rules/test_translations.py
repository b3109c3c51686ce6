"""The worked examples of RULES.md in the players' own words: Czech and Slovak table words, German Skat terms.

English is asserted beside each game's own tests; the numbers never change with the language.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

import rules
from rules.base import payment_line
from rules.i18n import override

NBSP = "\N{NO-BREAK SPACE}"
THREE = ["Ana", "Ben", "Cyril"]
FOUR = ["Ana", "Ben", "Cyril", "Dana"]

M1: dict[str, Any] = {
    "game": "marias",
    "players": FOUR,
    "hand": {
        "declarer": "Ana",
        "partner": "Cyril",
        "contract": "sedma",
        "trump": "hearts",
        "flek": {"hra": 1, "sedma": 2},
        "points": 80,
        "marriages": {"declarer": [40]},
        "seven": {"side": "declarer", "won": False},
    },
}


def snapser(raises: int) -> dict[str, Any]:
    hand = {"declarer": "Ana", "trump": "hearts", "announcement": "hram", "raises": raises}
    return {"game": "snapser", "players": THREE, "hand": hand | {"winner": "declarer", "result": "bez_vody"}}


def skat(**hand: Any) -> dict[str, Any]:
    grand = {"declarer": "Ana", "contract": "grand", "matadors": 1, "declarer_points": 61}
    return {"game": "skat", "players": THREE, "hand": grand | hand}


S4 = skat(hand=True)
S7 = skat(hand=True, schneider_announced=True, declarer_points=95)


def priced(document: dict[str, Any], language: str) -> rules.Score:
    with override(language):
        return rules.score(document)


def money_lines(result: rules.Score) -> list[str]:
    return [f"{line.label}: {line.detail}" for line in result.lines if line.amount is not None]


# --------------------------------------------------------------------------------------------------------------
# Mariáš M1 (the seed's own example) and M13 (the defenders' silent hundred): the game's own lines (rules.score adds
# who pays whom at the end), each component won or lost with its points, the first factor signed.


def marias_lines(document: dict[str, Any], language: str) -> list[str]:
    game, table = rules.table(document)
    with override(language):
        result = game.price(table, game.parse(table, document["hand"]))
    return [f"{line.label}: {line.detail}" for line in result.lines]


M13: dict[str, Any] = M1 | {
    "hand": {
        "declarer": "Ana",
        "partner": "Cyril",
        "contract": "stovka",
        "trump": "leaves",
        "points": 50,
        "marriages": {"declarer": [20], "defenders": [40, 20]},
    }
}


@pytest.mark.parametrize(
    ("language", "label", "lines"),
    [
        (
            "cs",
            "Lepší sedma, re na sedmu, flek na hru",
            [
                "body + hlášky: hrající 80 + 40 = 120, obrana 10",
                f"hra v lepších, flek, výhra (120:10), tichá stovka: 0,20 × 2 × 2 × 2 × 2 × 2 = 6,40{NBSP}Kč",
                f"sedma v lepších, re, prohra (zabitá): −0,40 × 2 × 4 = −3,20{NBSP}Kč",
            ],
        ),
        (
            "sk",
            "Sedma v červenom, re na sedmu, flek na hru",
            [
                "body + hlášky: hrajúci 80 + 40 = 120, obrana 10",
                f"hra v červenom, flek, výhra (120:10), tichá stovka: 0,20 × 2 × 2 × 2 × 2 × 2 = 6,40{NBSP}Kč",
                f"sedma v červenom, re, prehra (zabitá): −0,40 × 2 × 4 = −3,20{NBSP}Kč",
            ],
        ),
        (
            "de",
            "Sedma in Herz (lepší), Re auf die Sedma, Flek auf die Hra",
            [
                "Punkte + Hlášky: Spieler 80 + 40 = 120, Gegenspieler 10",
                "Hra in Herz (lepší), Flek, gewonnen (120:10), stille Hundert (tichá stovka): "
                f"0,20 × 2 × 2 × 2 × 2 × 2 = 6,40{NBSP}Kč",
                f"Sedma in Herz (lepší), Re, verloren (Sieben abgestochen): −0,40 × 2 × 4 = −3,20{NBSP}Kč",
            ],
        ),
        (
            "en",
            "Sedma in hearts (lepší), re on the sedma, flek on the hra",
            [
                "card points + hlášky (marriages): declarer's side 80 + 40 = 120, defenders 10",
                "hra in hearts (lepší), flek, won (120:10), silent hundred (tichá stovka): "
                f"0.20 × 2 × 2 × 2 × 2 × 2 = 6.40{NBSP}Kč",
                f"sedma in hearts (lepší), re, lost (seven killed): −0.40 × 2 × 4 = −3.20{NBSP}Kč",
            ],
        ),
    ],
)
def test_m1_in_each_language(language: str, label: str, lines: list[str]) -> None:
    result = priced(M1, language)
    assert (result.label, marias_lines(M1, language)) == (label, lines)
    assert (result.value, result.amounts["Ana"]) == (Decimal("3.20"), Decimal("3.20"))


@pytest.mark.parametrize(
    ("language", "lines"),
    [
        (
            "cs",
            [
                "body + hlášky: hrající 50 + 20 = 70, obrana 40 + 60 = 100",
                "stovka v zelených, prohra (70), chybí 3 desítky, hlášky obrany 60, jejich tichých 100: "
                f"−0,80 × (3 + 6) × 2 = −14,40{NBSP}Kč",
            ],
        ),
        (
            "sk",
            [
                "body + hlášky: hrajúci 50 + 20 = 70, obrana 40 + 60 = 100",
                "stovka v zelenom, prehra (70), chýba 3 desiatky, hlášky obrany 60, ich tichých 100: "
                f"−0,80 × (3 + 6) × 2 = −14,40{NBSP}Kč",
            ],
        ),
        (
            "de",
            [
                "Punkte + Hlášky: Spieler 50 + 20 = 70, Gegenspieler 40 + 60 = 100",
                "Stovka in Grün, verloren (70), 3 Zehner zu wenig, Hlášky der Gegenspieler 60, stille Hundert mit 100: "
                f"−0,80 × (3 + 6) × 2 = −14,40{NBSP}Kč",
            ],
        ),
        (
            "en",
            [
                "card points + hlášky (marriages): declarer's side 50 + 20 = 70, defenders 40 + 60 = 100",
                "stovka in leaves, lost (70), 3 tens short, defenders' hlášky 60, silent hundred with 100: "
                f"−0.80 × (3 + 6) × 2 = −14.40{NBSP}Kč",
            ],
        ),
    ],
)
def test_m13_in_each_language(language: str, lines: list[str]) -> None:
    assert marias_lines(M13, language) == lines
    minus, plus = Decimal("-14.40"), Decimal("14.40")
    assert priced(M13, language).amounts == {"Ana": minus, "Ben": plus, "Cyril": minus, "Dana": plus}


@pytest.mark.parametrize(
    ("language", "hra", "durch"),
    [
        ("cs", "hra v kulích, prohra (30:60): −0,20", "durch, prohra: −4,00"),
        ("sk", "hra v guliach, prehra (30:60): −0,20", "durch, prehra: −4,00"),
        ("de", "Hra in Schellen, verloren (30:60): −0,20", "Durch, verloren: −4,00"),
        ("en", "hra in bells, lost (30:60): −0.20", "durch, lost: −4.00"),
    ],
)
def test_a_lost_marias_component_says_so_in_each_language(language: str, hra: str, durch: str) -> None:
    lost_hra = M1 | {"hand": {"declarer": "Ana", "partner": "Cyril", "contract": "hra", "trump": "bells", "points": 30}}
    lost_durch = M1 | {"hand": {"declarer": "Ana", "contract": "durch", "won": False}}
    assert marias_lines(lost_hra, language)[-1] == f"{hra}{NBSP}Kč"
    assert marias_lines(lost_durch, language) == [f"{durch}{NBSP}Kč"]


# --------------------------------------------------------------------------------------------------------------
# Šnapser (bez vody in hearts, raised)


@pytest.mark.parametrize(
    ("language", "raises", "line"),
    [
        ("sk", 1, ("bez vody v červenom, kontra", f"4 × 2 × 2 × 0,10{NBSP}€ = 1,60{NBSP}€")),
        ("sk", 2, ("bez vody v červenom, re", f"4 × 2 × 4 × 0,10{NBSP}€ = 3,20{NBSP}€")),  # N4: kontra + re
        ("cs", 2, ("bez vody v červených, re", f"4 × 2 × 4 × 0,10{NBSP}€ = 3,20{NBSP}€")),
        ("de", 2, ("bez vody in Rot, Re", f"4 × 2 × 4 × 0,10{NBSP}€ = 3,20{NBSP}€")),
        ("en", 2, ("bez vody in hearts, re", "4 × 2 × 4 × €0.10 = €3.20")),
    ],
)
def test_snapser_bez_vody_in_hearts(language: str, raises: int, line: tuple[str, str]) -> None:
    result = priced(snapser(raises), language)
    total = [(each.label, each.detail) for each in result.lines if each.amount is not None]
    assert (result.label, total) == (line[0], [line])
    assert result.amounts["Ana"] == Decimal("0.80") * 2**raises * 2


def test_snapser_explains_itself_in_slovak() -> None:
    result = priced(snapser(2), "sk")
    assert [(line.label, line.detail) for line in result.lines] == [
        ("bez vody", "prehrávajúci majú menej ako 33 bodov, × 4"),
        ("červený tromf", "× 2"),
        ("kontra, re", "× 4"),  # each raise said once, never "re: kontra, re: × 4"
        ("bez vody v červenom, re", f"4 × 2 × 4 × 0,10{NBSP}€ = 3,20{NBSP}€"),
        (f"Ben a Cyril platia po 3,20{NBSP}€, dostane Ana", ""),
    ]


@pytest.mark.parametrize(
    ("language", "lines"),
    [
        (
            "cs",
            [
                ("za 12", "ohlášená: 66 a „dosť“ dřív, než soupeři vezmou štych; nevyšlo, vyhrávají soupeři, × 12"),
                ("za 12, prohrál volící", f"−12 × 0,10{NBSP}€ = −1,20{NBSP}€"),
                (f"Ben a Cyril dostanou po 1,20{NBSP}€, platí Ana", ""),
            ],
        ),
        (
            "sk",
            [
                ("za 12", "ohlásená: 66 a „dosť“ skôr, než súperi zoberú štich; nevyšlo, vyhrávajú súperi, × 12"),
                ("za 12, prehral voliaci", f"−12 × 0,10{NBSP}€ = −1,20{NBSP}€"),
                (f"Ben a Cyril dostanú po 1,20{NBSP}€, platí Ana", ""),
            ],
        ),
        (
            "de",
            [
                (
                    "za 12",
                    "angesagt: 66 und „dosť“, bevor die Gegner einen Stich machen; nicht geschafft, die Gegner "
                    "gewinnen, × 12",
                ),
                ("za 12, Ansager verloren", f"−12 × 0,10{NBSP}€ = −1,20{NBSP}€"),
                (f"Ana zahlt Ben und Cyril je 1,20{NBSP}€", ""),
            ],
        ),
    ],
)
def test_snapser_n5_says_the_chooser_lost_with_a_minus(language: str, lines: list[tuple[str, str]]) -> None:
    doc = snapser(0) | {"hand": {"declarer": "Ana", "trump": "leaves", "announcement": "za12", "winner": "defenders"}}
    assert [(line.label, line.detail) for line in priced(doc, language).lines] == lines


def test_snapser_says_the_chooser_lost_in_czech_and_slovak_differently() -> None:
    doc = snapser(0) | {"hand": {"declarer": "Ana", "trump": "leaves", "announcement": "za12", "winner": "defenders"}}
    assert {language: priced(doc, language).label for language in ("cs", "sk", "de")} == {
        "cs": "za 12, prohrál volící",
        "sk": "za 12, prehral voliaci",
        "de": "za 12, Ansager verloren",
    }


# --------------------------------------------------------------------------------------------------------------
# Who pays whom, the last line of every hand (rules.base.payment_line), in the players' words


def _payment(language: str, **amounts: str) -> str:
    with override(language):
        return payment_line({player: Decimal(amount) for player, amount in amounts.items()}, "EUR").label


TWO_AGAINST_TWO = {"Franta": "-0.40", "Pepa": "0.40", "Jarda": "-0.40", "Mirek": "0.40"}
ONE_RECEIVES = {"Ana": "-0.20", "Ben": "0.60", "Cyril": "-0.20", "Dana": "-0.20"}
ONE_PAYS = {"Ana": "-2.40", "Ben": "1.20", "Cyril": "1.20"}
ONE_TO_ONE = {"Ana": "0.60", "Ben": "-0.60"}
UNEVEN = {"Ana": "0.40", "Ben": "-0.50", "Cyril": "0.40", "Dana": "-0.30"}
NOTHING = {"Ana": "0", "Ben": "0"}


@pytest.mark.parametrize(
    ("language", "amounts", "sentence"),
    [
        ("cs", TWO_AGAINST_TWO, f"Franta a Jarda platí po 0,40{NBSP}€, dostanou Pepa a Mirek"),
        ("sk", TWO_AGAINST_TWO, f"Franta a Jarda platia po 0,40{NBSP}€, dostanú Pepa a Mirek"),
        ("de", TWO_AGAINST_TWO, f"Franta und Jarda zahlen Pepa und Mirek je 0,40{NBSP}€"),
        ("cs", ONE_RECEIVES, f"Ana, Cyril a Dana platí po 0,20{NBSP}€, dostane Ben"),
        ("sk", ONE_RECEIVES, f"Ana, Cyril a Dana platia po 0,20{NBSP}€, dostane Ben"),
        ("de", ONE_RECEIVES, f"Ana, Cyril und Dana zahlen Ben je 0,20{NBSP}€"),
        ("cs", ONE_PAYS, f"Ben a Cyril dostanou po 1,20{NBSP}€, platí Ana"),
        ("sk", ONE_PAYS, f"Ben a Cyril dostanú po 1,20{NBSP}€, platí Ana"),
        ("de", ONE_PAYS, f"Ana zahlt Ben und Cyril je 1,20{NBSP}€"),
        ("cs", ONE_TO_ONE, f"Ben platí 0,60{NBSP}€, dostane Ana"),
        ("sk", ONE_TO_ONE, f"Ben platí 0,60{NBSP}€, dostane Ana"),
        ("de", ONE_TO_ONE, f"Ben zahlt Ana 0,60{NBSP}€"),
        ("cs", UNEVEN, f"Ben platí 0,50{NBSP}€ a Dana platí 0,30{NBSP}€; Ana a Cyril dostanou po 0,40{NBSP}€"),
        ("sk", UNEVEN, f"Ben platí 0,50{NBSP}€ a Dana platí 0,30{NBSP}€; Ana a Cyril dostanú po 0,40{NBSP}€"),
        ("de", UNEVEN, f"Ben zahlt 0,50{NBSP}€ und Dana zahlt 0,30{NBSP}€; Ana und Cyril bekommen je 0,40{NBSP}€"),
        ("cs", NOTHING, "Nikdo nic neplatí"),
        ("sk", NOTHING, "Nikto nič neplatí"),
        ("de", NOTHING, "Niemand zahlt etwas"),
    ],
)
def test_the_payment_line_in_each_language(language: str, amounts: dict[str, str], sentence: str) -> None:
    assert _payment(language, **amounts) == sentence


# --------------------------------------------------------------------------------------------------------------
# Skat in German (S4, S7) and the pub rules


@pytest.mark.parametrize(
    ("document", "label", "count", "detail", "score"),
    [
        pytest.param(S4, "Grand Hand mit 1", "Grand mit 1, Spiel 2, Hand 3 × 24 = 72", "61 Augen", 72, id="S4"),
        pytest.param(
            S7,
            "Grand Hand Schneider angesagt mit 1",
            "Grand mit 1, Spiel 2, Hand 3, Schneider 4, angesagt 5 × 24 = 120",
            "95 Augen",
            120,
            id="S7",
        ),
    ],
)
def test_skat_in_german(document: dict[str, Any], label: str, count: str, detail: str, score: int) -> None:
    result = priced(document, "de")
    assert (result.label, result.lines[0].label, result.lines[0].detail) == (label, count, detail)
    assert result.lines[1].label == f"Gewonnen: Ana +{score}"
    assert result.lines[-2].label == f"Geld: 0,01{NBSP}€ pro Punkt"  # then who pays whom (test_payment_line.py)
    assert result.score == {"Ana": score, "Ben": 0, "Cyril": 0}


def test_skat_in_german_names_the_suits_and_the_lost_null() -> None:
    clubs = priced(skat(contract="clubs", matadors=2, without=True, declarer_points=59), "de")
    assert clubs.label == "Kreuz ohne 2"
    assert [line.label for line in clubs.lines[:2]] == ["Kreuz ohne 2, Spiel 3 × 12 = 36", "Verloren: −2 × 36 = −72"]
    assert clubs.lines[1].detail == "61 nötig"
    null_ouvert = {"declarer": "Ana", "contract": "null", "ouvert": True, "won": False}
    null = priced({"game": "skat", "players": THREE, "hand": null_ouvert}, "de")
    assert (null.label, null.lines[1].detail) == ("Null ouvert", "der Alleinspieler hat einen Stich gemacht")


def test_skat_pub_rules_in_german() -> None:
    doc = skat(kontra=2, bock=1, declarer_points=60) | {"rules": {"preset": "pub"}}
    labels = [line.label for line in priced(doc, "de").lines]
    assert labels[1:4] == ["Kontra und Re × 4", "Bock × 2", "Verloren: −2 × 384 = −768"]
    ramsch = {"contract": "ramsch", "ramsch_points": {"Ana": 70, "Ben": 50, "Cyril": 0}, "jungfrau": ["Cyril"]}
    result = priced({"game": "skat", "players": THREE, "rules": {"preset": "pub"}, "hand": ramsch}, "de")
    assert (result.label, [(line.label, line.detail) for line in result.lines[:2]]) == (
        "Ramsch Jungfrau",
        [("Ramsch: Ana hat die meisten Augen", "−70"), ("Jungfrau × 2", "ohne Stich: Cyril; Ana −140")],
    )
    durchmarsch = {"contract": "ramsch", "durchmarsch": "Ben"}
    result = priced({"game": "skat", "players": THREE, "rules": {"preset": "pub"}, "hand": durchmarsch}, "de")
    assert (result.label, result.lines[0].label) == ("Durchmarsch", "Durchmarsch: Ben hat alle Stiche")


# --------------------------------------------------------------------------------------------------------------
# Errors: the field stays, the message is translated


@pytest.mark.parametrize(
    ("document", "field", "messages"),
    [
        pytest.param(
            skat(declarer_points=121),
            "declarer_points",
            {"cs": "musí být celé číslo od 0 do 120", "de": "muss eine ganze Zahl von 0 bis 120 sein"},
            id="skat",
        ),
        pytest.param(
            skat(kontra=1),
            "kontra",
            {
                "cs": "Kontra je v těchto pravidlech vypnutá (zapněte rules.kontra); musí být 0",
                "de": "Kontra ist in diesen Regeln aus (rules.kontra einschalten); muss 0 sein",
            },
            id="skat-kontra",
        ),
        pytest.param(
            M1 | {"hand": M1["hand"] | {"points": 75}},
            "points",
            {
                "cs": "musí být body strany hrajícího v desítkách od 0 do 90 (esa a desítky po 10, poslední štych 10)",
                "de": "müssen die Punkte der Spielerpartei in Zehnern von 0 bis 90 sein "
                "(Asse und Zehner je 10, letzter Stich 10)",
            },
            id="marias",
        ),
        pytest.param(
            snapser(0) | {"hand": {"declarer": "Ana", "trump": "bells", "announcement": "nehram", "raises": 1}},
            "raises",
            {
                "cs": "nehrám končí hru hned, takže ji nelze zvýšit; nechte raises na 0",
                "de": "nehrám beendet das Spiel sofort und kann nicht erhöht werden; raises auf 0 lassen",
            },
            id="snapser",
        ),
        pytest.param(
            snapser(0) | {"players": ["Ana"]},
            "players",
            {
                "cs": "Šnapser hrají 2 nebo 3 nebo 4 hráči, ne 1",
                "de": "Šnapser spielen 2 oder 3 oder 4 Spieler, nicht 1",
            },
            id="registry",
        ),
    ],
)
def test_errors_keep_the_field_and_translate_the_message(
    document: dict[str, Any], field: str, messages: dict[str, str]
) -> None:
    for language, message in messages.items():
        with override(language), pytest.raises(rules.RulesError) as caught:
            rules.score(document)
        assert caught.value.as_dict() == {"field": field, "error": message}


def test_settlement_errors_are_translated_with_the_languages_numbers() -> None:
    from rules.settlement import plan_transfers, settle

    with override("de"), pytest.raises(rules.RulesError) as caught:
        plan_transfers({"Ana": Decimal("1"), "Ben": Decimal("-2.5")})
    assert caught.value.as_dict() == {"field": "balances", "error": "muss genau 0 ergeben, nicht −1,5"}
    with override("sk"), pytest.raises(rules.RulesError) as caught:
        plan_transfers({"Ana": Decimal("1.50"), "Ben": Decimal("-1.50")}, coin=Decimal("1.00"))
    assert caught.value.message == "musí byť celý počet mincí po 1,00; najprv zaokrúhlite"
    with override("cs"), pytest.raises(rules.RulesError) as caught:
        settle({"Ana": Decimal(1), "Ben": Decimal(-1)}, Decimal(1), "banker", "Dora")
    assert caught.value.message == "„Dora“ nesedí u tohoto stolu; hráči: Ana, Ben"

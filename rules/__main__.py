"""Command line: ``python -m rules score [--lang LANG] [FILE|-]``, ``python -m rules schema GAME``,
``python -m rules presets [--lang LANG]``.

JSON in, JSON out. Bad input exits with status 2 and prints ``{"field": …, "error": …}``. ``--lang`` (en, cs, sk,
de; default en) picks the language of labels, explanation lines, errors and option help.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

import rules
from rules import i18n
from rules.base import settings_as_json
from rules.i18n import _


def main(argv: list[str] | None = None, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules", description="Price card-game hands.")
    commands = parser.add_subparsers(dest="command", required=True)
    score_cmd = commands.add_parser("score", help="price one hand document (JSON) and print the result")
    score_cmd.add_argument("file", nargs="?", default="-", help="a JSON file, or - for standard input")
    schema_cmd = commands.add_parser("schema", help="print the JSON Schema of a game's hand document")
    schema_cmd.add_argument("game", choices=rules.GAME_NAMES)
    presets_cmd = commands.add_parser("presets", help="list every game's presets with their settings")
    for command in (score_cmd, presets_cmd):
        command.add_argument(
            "--lang", choices=i18n.LANGUAGES, default=i18n.DEFAULT_LANGUAGE, help="language of the texts (default en)"
        )
    args = parser.parse_args(argv)
    with i18n.override(getattr(args, "lang", None)):
        return _run(args, stdin, stdout)


def _run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    try:
        if args.command == "score":
            output: Any = rules.score(_read_document(args.file, stdin)).as_dict()
        elif args.command == "schema":
            output = rules.schema(args.game)
        else:
            output = _presets()
    except rules.RulesError as error:
        _dump(error.as_dict(), stdout)
        return 2
    _dump(output, stdout)
    return 0


def _read_document(path: str, stdin: TextIO) -> Any:
    try:
        if path == "-":
            return json.load(stdin)
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as error:
        raise rules.RulesError("file", _("cannot be read: %(reason)s") % {"reason": error.strerror}) from error
    except json.JSONDecodeError as error:
        message = _("is not valid JSON: %(reason)s at line %(line)s") % {"reason": error.msg, "line": error.lineno}
        raise rules.RulesError("document", message) from error
    except RecursionError as error:  # json reads nested arrays and objects recursively
        # The reason stays English, as the json module's own reasons above do.
        raise rules.RulesError("document", _("cannot be read: %(reason)s") % {"reason": "nested too deeply"}) from error


def _presets() -> dict[str, Any]:
    listing: dict[str, Any] = {}
    for name in rules.GAME_NAMES:
        game = rules.game(name)
        listing[name] = {
            "title": game.title,
            "default": game.default_preset,
            "presets": {preset: rules.resolve(name, {"preset": preset}) for preset in game.presets},
            "options": {
                option: {"default": settings_as_json({"d": spec.default})["d"], "help": spec.translated_help()}
                | ({"choices": list(spec.choices)} if spec.choices else {})
                for option, spec in game.options.items()
            },
        }
    return listing


def _dump(data: Any, stdout: TextIO) -> None:
    text = json.dumps(data, ensure_ascii=False, indent=2)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (a player named "\ud800"): only JSON's escapes can write it
        text = json.dumps(data, indent=2)
    stdout.write(text + "\n")


if __name__ == "__main__":
    sys.exit(main())

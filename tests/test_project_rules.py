"""Meta-tests for the project's own rules (STYLE.md): `rules/` stays pure Python."""

import ast
import subprocess
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parent.parent / "rules"


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_no_module_under_rules_imports_django():
    offenders = {
        str(path.relative_to(RULES)): sorted(name for name in _imported_modules(path) if name.split(".")[0] == "django")
        for path in sorted(RULES.rglob("*.py"))
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_importing_every_rules_module_loads_no_django():
    modules = sorted(
        ".".join(path.relative_to(RULES.parent).with_suffix("").parts).removesuffix(".__init__")
        for path in RULES.rglob("*.py")
        if path.stem != "__main__"
    )
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=RULES.parent)
    assert result.stdout.strip() == "[]"


def test_the_purity_check_sees_a_django_import(tmp_path):
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("from django.db import models\nimport decimal\n", encoding="utf-8")
    assert _imported_modules(sneaky) == {"django.db", "decimal"}


def test_every_name_rules_labels_exports_is_used_by_the_app():
    """rules.labels exists for the pages: a name in its ``__all__`` that no page code calls is dead code."""
    from rules import labels

    app = RULES.parent
    sources = [
        path.read_text(encoding="utf-8")
        for folder in ("ledger", "templates")
        for path in sorted((app / folder).rglob("*"))
        if path.suffix in {".py", ".html"}
    ]
    assert [name for name in labels.__all__ if not any(name in source for source in sources)] == []


TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def _multiline_comments(source: str) -> list[int]:
    """The lines where a ``{#`` comment starts that does not end on the same line.

    Django's ``{# … #}`` is one line only: one that goes on to the next line is no comment, and its text, ``{#`` and
    ``#}`` included, is printed on the page. Django's own lexer says which ``{#`` it did not take as a comment; inside
    ``{% comment %}`` and ``{% verbatim %}`` the text is not printed as a template, so a ``{#`` there is harmless.
    """
    from django.template.base import Lexer, TokenType

    lines: list[int] = []
    inside: str | None = None  # the block the lexer's text is in: comment or verbatim
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0] if token.contents.split() else ""
            if inside is None and name in ("comment", "verbatim"):
                inside = name
            elif inside is not None and name == f"end{inside}":
                inside = None
        elif token.token_type == TokenType.TEXT and inside is None and "{#" in token.contents:
            before = token.contents[: token.contents.index("{#")]
            lines.append((token.lineno or 1) + before.count("\n"))
    return lines


def test_no_template_has_a_comment_over_several_lines():
    """``{# … #}`` spanning lines prints its text on the page: use ``{% comment %}`` for more than one line."""
    offenders = {
        str(path.relative_to(TEMPLATES)): found
        for path in sorted(TEMPLATES.rglob("*"))
        if path.is_file() and (found := _multiline_comments(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}, "a {# #} comment spans lines (its text is printed): use {% comment %} … {% endcomment %}"


def test_the_comment_check_sees_a_comment_over_two_lines():
    assert _multiline_comments("<p>{# one line #}</p>\n{% comment %}two\nlines{% endcomment %}\n") == []
    assert _multiline_comments("{% load i18n %}\n<p>{# one line\nand the next #}</p>\n{# fine #}") == [2]
    assert _multiline_comments("{% verbatim %}{# not a template\n#}{% endverbatim %}") == []
    # The comment the record buttons' template started with: printed on every table page.
    old = "{% load i18n %}{# The last choice of a new hand: each button is a submit\nbutton that records. #}\n<div>"
    assert _multiline_comments(old) == [1]

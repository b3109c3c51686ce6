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
    modules = sorted(f"rules.{path.stem}" for path in RULES.glob("*.py") if path.stem not in {"__init__", "__main__"})
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

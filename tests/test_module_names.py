"""No module of the package binds one module-level name twice: a reading that looks a pattern up by its name at call
time gets the last binding, whatever the lines above it meant (precision_said's HEARSAY was bound twice, and its
hearsay check read the second, a wider pattern; rate_tried's BROKE was bound a second time for a while, and a
lower rate said to put the failure off stopped being read)."""
import ast
from pathlib import Path

from conftest import ROOT


def _bound_twice(source: str) -> dict[str, list[int]]:
    bound: dict[str, list[int]] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names = [node.target.id]
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names = [node.name]
        else:
            names = []
        for name in names:
            bound.setdefault(name, []).append(node.lineno)
    return {name: lines for name, lines in bound.items() if len(lines) > 1}


def test_no_module_binds_a_name_twice():
    twice = {str(path.relative_to(ROOT)): found for path in sorted((ROOT / "trainwreck").rglob("*.py"))
             if (found := _bound_twice(path.read_text(encoding="utf-8")))}
    assert twice == {}
    assert _bound_twice("A = 1\ndef f():\n    return A\nA = 2\n") == {"A": [1, 4]}      # (and the check can fail)

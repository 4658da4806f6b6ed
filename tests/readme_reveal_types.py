"""What a user's type checker sees in the README's examples (issue 28, item 10).

Extracts every ``python`` block of the README, turns each top-level expression into
``reveal_type(<expression>)`` and adds ``reveal_type(<name>)`` after each top-level assignment to
a name, runs mypy on the blocks and prints one line per revealed type.  Lines whose type is
``Any`` or ``object`` (nothing a checker can use; numpy's untracked array rank
``tuple[Any, ...]`` aside) are marked ``VAGUE``; the exit code is the
number of them (capped at 100).  Slow (mypy), so a script, not a gate test::

    python -m tests.readme_reveal_types
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)
_REVEALED = re.compile(r'^(?P<file>[^:]+):(?P<line>\d+): note: Revealed type is "(?P<type>.*)"$')
_VAGUE = re.compile(r"\bAny\b|\bbuiltins\.object\b")
#: numpy's shape parameter of an array whose rank is not tracked: not vague for a user.
_SHAPE = "tuple[Any, ...]"


def _instrument(source: str) -> str | None:
    """The block with its expressions revealed, or ``None`` when it is not valid Python."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    lines = source.splitlines()
    out: list[str] = []
    for node in tree.body:
        end = node.end_lineno or node.lineno
        text = "\n".join(lines[node.lineno - 1 : end])
        if isinstance(node, ast.Expr) and not (
            isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id == "print"
        ):
            out.append(f"reveal_type({ast.unparse(node.value)})  # {lines[node.lineno - 1]!r}")
            continue
        out.append(text)
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        out.append(f"reveal_type({name.id})")
    return "\n".join(out) + "\n"


def main() -> int:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        files: list[Path] = []
        for i, match in enumerate(_BLOCK.finditer(readme)):
            code = _instrument(match.group(1))
            if code is None or "reveal_type" not in code:
                continue
            path = Path(tmp) / f"readme_block_{i:02d}.py"
            path.write_text(code, encoding="utf-8")
            files.append(path)
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "mypy",
                "--config-file",
                str(ROOT / "pyproject.toml"),
                "--no-error-summary",
                *map(str, files),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        vague = 0
        # by module name: mypy's cache may report a previous run's temporary path
        sources = {p.stem: p.read_text(encoding="utf-8").splitlines() for p in files}
        for line in proc.stdout.splitlines():
            m = _REVEALED.match(line)
            if m is None:
                continue
            shown = sources[Path(m["file"]).stem][int(m["line"]) - 1]
            shown = shown.split("  # ")[0].removeprefix("reveal_type(").removesuffix(")")
            mark = "VAGUE " if _VAGUE.search(m["type"].replace(_SHAPE, "")) else ""
            vague += bool(mark)
            print(f"{mark}{Path(m['file']).stem}:{m['line']}: {shown} -> {m['type']}")
        errors = [
            line for line in proc.stdout.splitlines() if ": error:" in line and "reveal" not in line
        ]
        if errors:
            print(f"({len(errors)} mypy errors in the blocks, e.g. user modules not present):")
            for line in errors[:10]:
                print("  " + line)
    print(f"{vague} vague types")
    return min(vague, 100)


if __name__ == "__main__":
    raise SystemExit(main())

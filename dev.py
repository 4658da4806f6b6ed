#!/usr/bin/env python3
"""Set up the environment and run the project's jobs, with nothing but Python >= 3.11.

    python3 dev.py prove   # create .venv, install, run `verifiedref prove --profile quick`
    python3 dev.py test    # create .venv, install, run the gate: ruff, mypy --strict,
                           # lint-imports (import contracts), stubtest, pytest, and the
                           # documentation site (built with warnings as errors, doctests run)
    python3 dev.py docs    # create .venv, install, build the site: docs/_build/html/index.html
    python3 dev.py mutate FAMILY [--max-children N] [--sample PATTERN | --every K]
                           [--tests PATH ...] [--resume] [--report-only]
                           # mutmut on reference/FAMILY (fast paths excluded) with the
                           # family's tests; writes benchmarks/results/mutation_FAMILY.md

The environment lives in ``.venv`` (re-used while pyproject.toml is unchanged).  torch is
installed first as the pinned CPU wheel (``torch==2.13.0``) so no CUDA build is ever pulled;
set ``VERIFIEDREF_TORCH=none`` to skip torch (its tests then skip).  ``VERIFIEDREF_VENV=PATH``
uses an existing virtualenv as it is (nothing installed).
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = Path(os.environ.get("VERIFIEDREF_VENV", ROOT / ".venv"))  # set: use that venv as it is
TORCH_PIN = "torch==2.13.0"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")


def run(*cmd: str | Path) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], cwd=ROOT, check=True)


def ensure_env() -> None:
    if sys.version_info < (3, 11):
        sys.exit(f"dev.py: Python >= 3.11 is required, this is {sys.version.split()[0]}")
    if "VERIFIEDREF_VENV" in os.environ:
        return
    torch = os.environ.get("VERIFIEDREF_TORCH", TORCH_PIN)
    stamp_text = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + torch.encode()).hexdigest()
    stamp = VENV / ".verifiedref-stamp"
    if stamp.exists() and stamp.read_text() == stamp_text:
        return
    if not (BIN / "python").exists():
        run(sys.executable, "-m", "venv", VENV)
    py = BIN / "python"
    run(py, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    extras = "plot,dev,docs"
    if torch != "none":
        run(py, "-m", "pip", "install", "--quiet", torch)
        extras = "torch," + extras
    run(py, "-m", "pip", "install", "--quiet", "-e", f".[{extras}]")
    stamp.write_text(stamp_text)


def prove(extra: list[str]) -> None:
    run(BIN / "verifiedref", "prove", "--profile", "quick", *extra)


def test(extra: list[str]) -> None:
    folders = ["reference", "properties", "proofs_numeric", "verifiedref", "tests", "benchmarks"]
    run(BIN / "ruff", "check", *folders, "dev.py")
    run(BIN / "mypy")
    run(BIN / "lint-imports")  # import contracts: [tool.importlinter] in pyproject.toml
    run(
        BIN / "python",
        "-m",
        "mypy.stubtest",
        "sympy",
        "--mypy-config-file",
        "pyproject.toml",
        "--ignore-missing-stub",
    )
    workers = os.environ.get("VERIFIEDREF_WORKERS", "auto")
    run(BIN / "python", "-m", "pytest", "-m", "not gpu and not slow", "-n", workers, "-q", *extra)
    docs([])


def docs(extra: list[str]) -> None:
    """Build the site with warnings as errors, then run its examples (the doctest builder reads
    the environment the HTML build pickled, so the sources are read once)."""
    probe = subprocess.run([str(BIN / "python"), "-c", "import sphinx, myst_parser"], cwd=ROOT)
    if probe.returncode != 0:
        sys.exit(
            f"dev.py: the documentation needs the `docs` extra in {VENV} (pip install -e .[docs])"
        )
    start = time.perf_counter()
    sphinx: list[str | Path] = [
        BIN / "python",
        "-m",
        "sphinx",
        "-W",
        "--keep-going",
        "-q",
        "-d",
        "docs/_build/doctrees",
    ]
    run(*sphinx, "-E", "-b", "html", "docs", "docs/_build/html", *extra)  # -E: docstrings re-read
    run(*sphinx, "-b", "doctest", "docs", "docs/_build/doctest", *extra)
    pages = sum(1 for _ in (ROOT / "docs" / "_build" / "html").rglob("*.html"))
    print(
        f"docs: {pages} pages, built and doctested in {time.perf_counter() - start:.0f}s",
        flush=True,
    )


MUTATE_HELP = """\
Run mutmut (the `dev` extra) on the reference modules of one family with that family's tests.

The run happens in a scratch copy, .mutmut/FAMILY/ (git-ignored; pytest skips dot folders),
holding reference/, properties/, proofs_numeric/, tests/ and pyproject.toml with a
[tool.mutmut] table for this family appended; mutmut then copies that tree once more into
.mutmut/FAMILY/mutants/ (its own layout: every function of a mutated module becomes a
trampoline that dispatches to the original or to one mutant, chosen by an environment
variable) and runs, for each mutant, only the selected tests that reach the mutated function.
Mutated: reference/FAMILY.py, or reference/FAMILY/*.py except fast*.py (the fast paths are
checked against the reference by the fast-vs-reference tests).  Tests: tests/FAMILY/test_*.py
except test_fast*.py and test_torch*.py (they exercise the fast paths and import torch, which
is not fork-safe), with -m "not gpu and not slow" and the Hypothesis `smoke` profile.

The table goes to benchmarks/results/mutation_FAMILY.md.  Its "Triage" section is kept across
runs and edited by hand: one row per surviving mutant with a verdict (equivalent, message-only,
or test added: the test that kills it); survivors whose diff only changes a string literal of a
`raise` statement are triaged "message-only" automatically.
"""

TRIAGE_VERDICTS = ("equivalent", "message-only", "test added", "real gap")


def _family_targets(family: str) -> tuple[list[str], list[str]]:
    """(only_mutate, do_not_mutate) glob patterns of mutmut for a family."""
    module = ROOT / "reference" / f"{family}.py"
    package = ROOT / "reference" / family
    if module.is_file():
        return [f"reference/{family}.py"], []
    if (package / "__init__.py").is_file():
        return [f"reference/{family}/*"], [f"reference/{family}/fast*.py"]
    sys.exit(f"dev.py mutate: no reference/{family}.py nor reference/{family}/ package")


def _default_tests(family: str) -> list[str]:
    folder = ROOT / "tests" / family
    if not folder.is_dir():
        sys.exit(f"dev.py mutate: no tests/{family}/")
    return [
        f"tests/{family}/{path.name}"
        for path in sorted(folder.glob("test_*.py"))
        if not path.name.startswith(("test_fast", "test_torch"))
    ]


def _toml_list(items: list[str]) -> str:
    return "[" + ", ".join('"' + item.replace('"', '\\"') + '"' for item in items) + "]"


def _prepare_scratch(family: str, tests: list[str]) -> Path:
    """Fresh .mutmut/FAMILY/ with the sources, the tests and a pyproject.toml for mutmut."""
    scratch = ROOT / ".mutmut" / family
    if scratch.exists():
        shutil.rmtree(scratch)
    scratch.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in ("reference", "properties", "proofs_numeric", "verifiedref"):
        shutil.copytree(ROOT / folder, scratch / folder, ignore=ignore)
    return _refresh_scratch(scratch, family, tests)


def _refresh_scratch(scratch: Path, family: str, tests: list[str]) -> Path:
    """Copy the current tests and write the pyproject.toml with this family's [tool.mutmut]."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "tests", scratch / "tests", ignore=ignore, dirs_exist_ok=True)
    only, never = _family_targets(family)
    marker = "not gpu and not slow"
    table = f"""

[tool.mutmut]  # written by dev.py mutate {family}
source_paths = ["reference"]
only_mutate = {_toml_list(only)}
do_not_mutate = {_toml_list(never)}
also_copy = ["properties/", "proofs_numeric/", "verifiedref/"]
pytest_add_cli_args = ["-p", "no:cacheprovider", "-m", "{marker}"]
pytest_add_cli_args_test_selection = {_toml_list(tests)}
use_git_change_detection = false
"""
    text = (ROOT / "pyproject.toml").read_text()
    (scratch / "pyproject.toml").write_text(text + table)
    return scratch


def _mutmut_statuses(scratch: Path, env: dict[str, str]) -> dict[str, str]:
    out = subprocess.run(
        [str(BIN / "mutmut"), "results", "--all", "true"],
        cwd=scratch,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    statuses: dict[str, str] = {}
    for line in out.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and "__mutmut_" in name:
            statuses[name] = status
    return statuses


_DIFFS_SCRIPT = """
import json, sys
from mutmut.mutation.diff_apply import find_mutant, get_diff_for_mutant
names = json.loads(sys.stdin.read())
print(json.dumps({n: get_diff_for_mutant(n, path=find_mutant(n).path) for n in names}))
"""


def _mutmut_diffs(scratch: Path, env: dict[str, str], names: list[str]) -> dict[str, str]:
    """The diff of each named mutant (what `mutmut show NAME` prints), in one process."""
    out = subprocess.run(
        [str(BIN / "python"), "-c", _DIFFS_SCRIPT],
        cwd=scratch,
        env=env,
        input=json.dumps(names),
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    diffs: dict[str, str] = json.loads(out)
    return diffs


_NAMES_SCRIPT = """
import json, sys
from pathlib import Path
from mutmut.configuration import config
from mutmut.mutation.file_mutation import mutate_file_contents
from mutmut.utils.format_utils import get_mutant_name
names = []
for path in sorted(Path("reference").rglob("*.py")):
    if config().should_mutate(path):
        mutated = mutate_file_contents(str(path), path.read_text())
        names += [get_mutant_name(path, name) for name in mutated.mutant_names]
print(json.dumps(sorted(names)))
"""


def _every_kth(scratch: Path, env: dict[str, str], every: int, offset: int) -> list[str]:
    """Every `every`-th name, from `offset`, of the family's mutants sorted by name."""
    out = subprocess.run(
        [str(BIN / "python"), "-c", _NAMES_SCRIPT],
        cwd=scratch,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    names: list[str] = json.loads(out)
    return names[offset::every]


_STRING = re.compile(r"""(?:[rbfu]{0,2})("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')""", re.IGNORECASE)


def _message_only(diff: str) -> bool:
    """True when the diff changes one line, only inside string literals, in a `raise` statement."""
    lines = diff.splitlines()
    minus = [
        i for i, line in enumerate(lines) if line.startswith("-") and not line.startswith("---")
    ]
    plus = [
        i for i, line in enumerate(lines) if line.startswith("+") and not line.startswith("+++")
    ]
    if len(minus) != 1 or len(plus) != 1:
        return False
    old, new = lines[minus[0]][1:], lines[plus[0]][1:]
    if _STRING.sub("S", old) != _STRING.sub("S", new):
        return False
    # the statement the line belongs to: walk up to the line that opens it
    for line in reversed(lines[: minus[0] + 1]):
        body = line[1:].strip() if line[:1] in " -" else line.strip()
        if body.startswith("raise "):
            return True
        if body.startswith(("def ", "return ", "if ", "for ", "while ")) or " = " in body:
            return False
    return False


SURVIVING = ("survived", "no tests", "suspicious")
RUNS_HEADER = (
    "| run | date | took | mutants run | killed | timeout | survived | no tests | equivalent "
    "| message-only | untriaged | score (killed / non-equivalent) | without message-only |"
)


def _read_section(report: Path, title: str) -> list[str]:
    if not report.exists():
        return []
    out: list[str] = []
    inside = False
    for line in report.read_text().splitlines():
        if line.startswith("## "):
            inside = line.startswith(f"## {title}")
            continue
        if inside:
            out.append(line)
    return out


def _read_triage(report: Path) -> dict[str, tuple[str, str]]:
    triage: dict[str, tuple[str, str]] = {}
    for line in _read_section(report, "Triage"):
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        row = len(cells) >= 3 and cells[0].startswith("`")
        if row and not cells[2].startswith("auto") and cells[1] in TRIAGE_VERDICTS:
            triage[cells[0].strip("`")] = (cells[1], cells[2])
    return triage


def _mutmut_version() -> str:
    out = subprocess.run(
        [str(BIN / "python"), "-c", "import importlib.metadata as m; print(m.version('mutmut'))"],
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.strip()


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}% ({part}/{whole})" if whole else "n/a"


def _write_report(
    family: str,
    statuses: dict[str, str],
    diffs: dict[str, str],
    command: str,
    tests: list[str],
    seconds: float,
    sample: str | None,
    resume: bool,
) -> None:
    report = ROOT / "benchmarks" / "results" / f"mutation_{family}.md"
    kept = _read_triage(report)
    earlier = [line for line in _read_section(report, "Runs") if line.startswith("| ")][2:]
    checked = {name: status for name, status in statuses.items() if status != "not checked"}
    counts: dict[str, int] = {}
    for status in checked.values():
        counts[status] = counts.get(status, 0) + 1
    survivors = sorted(name for name, status in checked.items() if status in SURVIVING)
    triage: dict[str, tuple[str, str]] = {}
    for name in survivors:
        if name in kept:
            triage[name] = kept[name]
        elif _message_only(diffs.get(name, "")):
            triage[name] = ("message-only", "auto: only a string literal of a `raise` changes")
        else:
            triage[name] = ("untriaged", "")
    verdicts = [verdict for verdict, _ in triage.values()]
    equivalent, message = verdicts.count("equivalent"), verdicts.count("message-only")
    killed = counts.get("killed", 0) + counts.get("timeout", 0) + counts.get("segfault", 0)
    total = len(checked)
    only, never = _family_targets(family)
    row = (
        f"| {'after triage' if resume else 'first'} | {datetime.date.today().isoformat()} "
        f"| {seconds:.0f} s | {total} | {counts.get('killed', 0)} | {counts.get('timeout', 0)} "
        f"| {counts.get('survived', 0)} | {counts.get('no tests', 0)} | {equivalent} | {message} "
        f"| {verdicts.count('untriaged')} | {_percent(killed, total - equivalent)} "
        f"| {_percent(killed, total - equivalent - message)} |"
    )
    lines = [
        f"# Mutation score: {family}",
        "",
        f"- last command: `{command}` (mutmut {_mutmut_version()})",
        f"- mutated: {', '.join(only)}" + (f" except {', '.join(never)}" if never else ""),
        f"- tests: {' '.join(tests)} (-m 'not gpu and not slow', Hypothesis profile smoke)",
        f"- mutants: {len(statuses)} generated, {total} run"
        + (f" (deterministic sample: {sample})" if sample else ""),
        "- killed counts a mutant's timeout or crash as a kill (mutmut's convention); a mutant",
        '  whose function no selected test reaches is "no tests" and counts as a survivor;',
        "  equivalent and message-only come from the triage below (a row's figures use the",
        "  triage as it stood when that row was written).  An `after triage` run re-runs the",
        "  survivors of the run before it with the tests as they are now.",
        "",
        "## Runs",
        "",
        RUNS_HEADER,
        "|" + " --- |" * 3 + " ---: |" * 10,
        *(earlier if resume else []),
        row,
        "",
        "## Triage",
        "",
        "| mutant | verdict | reason |",
        "| --- | --- | --- |",
    ]
    lines += [f"| `{name}` | {triage[name][0]} | {triage[name][1]} |" for name in survivors]
    notes = _read_section(report, "Notes")  # hand-written, kept as it is
    if notes:
        lines += ["", "## Notes", *notes]
    report.write_text("\n".join(lines) + "\n")
    print(f"dev.py mutate: wrote {report.relative_to(ROOT)}", flush=True)


def mutate(extra: list[str]) -> None:
    parser = argparse.ArgumentParser(
        prog="python3 dev.py mutate",
        description=MUTATE_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("family")
    parser.add_argument("--max-children", type=int, default=1, help="mutmut workers (default 1)")
    parser.add_argument(
        "--sample",
        help="run only the mutants whose names match this fnmatch pattern, e.g. '*__mutmut_*[05]'",
    )
    parser.add_argument(
        "--every",
        type=int,
        help="run only every K-th mutant of the family's mutants sorted by name (from --offset)",
    )
    parser.add_argument("--offset", type=int, default=0, help="with --every: first index (0)")
    parser.add_argument("--tests", nargs="+", help="test files or folders instead of the default")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="keep .mutmut/FAMILY/ and re-run only the previous run's survivors with the current "
        "tests (after triage); the other mutants keep their verdicts",
    )
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="run nothing: rewrite the table from .mutmut/FAMILY/ (e.g. after an interrupted "
        "run, or after editing the triage)",
    )
    parser.add_argument("--took", type=float, default=0.0, help="with --report-only: run time, s")
    args = parser.parse_args(extra)
    if args.every is not None and (args.sample or args.every < 1 or args.offset < 0):
        parser.error("--every takes K >= 1 and --offset >= 0, and not with --sample")
    tests = args.tests or _default_tests(args.family)
    scratch = ROOT / ".mutmut" / args.family
    saved = scratch / "statuses.json"
    sample_file = scratch / "sample.txt"  # how the first run sampled, for later rewrites
    sample: str | None = None
    if args.sample:
        sample = f"names matching `{args.sample}`"
    elif args.every:
        sample = f"every {args.every}-th mutant by sorted name, from index {args.offset}"
    elif (args.resume or args.report_only) and sample_file.exists():
        sample = sample_file.read_text().strip() or None
    env = dict(os.environ, VERIFIEDREF_HYPOTHESIS_PROFILE="smoke")
    env.pop("PYTHONPATH", None)
    cmd = [str(BIN / "mutmut"), "run", "--max-children", str(args.max_children)]
    before: dict[str, str] = {}
    if args.report_only:
        statuses = _mutmut_statuses(scratch, env)
        if saved.exists():  # a resumed run: mutmut itself only knows the re-run mutants
            merged = json.loads(saved.read_text())
            merged.update({n: st for n, st in statuses.items() if st != "not checked"})
            statuses = merged
        saved.write_text(json.dumps(statuses, indent=0, sort_keys=True))
        diffs = _mutmut_diffs(scratch, env, [n for n, st in statuses.items() if st in SURVIVING])
        command = "python3 dev.py mutate " + " ".join(extra)
        _write_report(args.family, statuses, diffs, command, tests, args.took, sample, args.resume)
        return
    if args.resume:
        if not saved.exists():
            sys.exit(f"dev.py mutate: --resume needs a finished run in {saved.parent}")
        before = json.loads(saved.read_text())
        rerun = sorted(name for name, status in before.items() if status in SURVIVING)
        if not rerun:
            sys.exit("dev.py mutate: no survivors to re-run")
        _refresh_scratch(scratch, args.family, tests)
        cmd += rerun
    else:
        _prepare_scratch(args.family, tests)
        sample_file.write_text(sample or "")
        if args.sample:
            cmd.append(args.sample)
        elif args.every:
            cmd += _every_kth(scratch, env, args.every, args.offset)
    print("+ (cd", scratch.relative_to(ROOT), "&&", " ".join(cmd[:8]), "...)", flush=True)
    start = time.perf_counter()
    subprocess.run(cmd, cwd=scratch, env=env, check=True)
    seconds = time.perf_counter() - start
    statuses = _mutmut_statuses(scratch, env)
    if args.resume:
        statuses = {
            name: (statuses[name] if before[name] in SURVIVING else status)
            for name, status in before.items()
        }
    saved.write_text(json.dumps(statuses, indent=0, sort_keys=True))
    diffs = _mutmut_diffs(
        scratch, env, [n for n, status in statuses.items() if status in SURVIVING]
    )
    command = "python3 dev.py mutate " + " ".join(extra)
    _write_report(args.family, statuses, diffs, command, tests, seconds, sample, args.resume)


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in ("prove", "test", "docs", "setup", "mutate"):
        sys.exit("usage: python3 dev.py {prove|test|docs|setup|mutate} [extra arguments]")
    start = time.perf_counter()
    ensure_env()
    command, extra = sys.argv[1], sys.argv[2:]
    try:
        if command == "prove":
            prove(extra)
        elif command == "test":
            test(extra)
        elif command == "docs":
            docs(extra)
        elif command == "mutate":
            mutate(extra)
    except subprocess.CalledProcessError as exc:
        print(f"dev.py {command}: FAILED ({time.perf_counter() - start:.0f}s)", flush=True)
        sys.exit(exc.returncode or 1)
    print(f"dev.py {command}: OK ({time.perf_counter() - start:.0f}s)", flush=True)


if __name__ == "__main__":
    main()

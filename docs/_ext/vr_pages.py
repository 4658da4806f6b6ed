"""Sphinx extension: the pages that are generated from the registries at build time.

On ``builder-inited`` it writes reST into ``docs/generated/`` (git-ignored, rewritten on every
build, never edited by hand):

* ``generated/families/<family>.rst``: the paper (from :data:`reference._papers.PAPERS`), what
  is implemented (the catalogue of ``verifiedref list``, the fast and torch paths, the suites'
  variants), the suites with their checks and conventions (what ``verifiedref describe`` prints),
  the theorem checks with their claims and evidence (mutants caught, from
  ``proofs_numeric/_teeth.json``; slack, from ``proofs_numeric/_slack.json``) and the family's
  worked example (``docs/examples/<family>.rst``, run by the doctest builder);
* ``generated/suites/generic.rst``: the suites every registered function runs (bad and hard input);
* ``generated/api/<family>.rst`` and ``generated/api/<package>.rst``: autodoc directives for every
  name in the ``__all__`` of every public module (no part of its dotted name starts with ``_``),
  each object documented once, under the shortest public path that exports it;
* ``generated/algorithms.rst``: the table of ``verifiedref list --markdown``.

On ``autodoc-process-docstring`` it appends to the docstring of every catalogued algorithm the
suites and theorem checks that cover it, linked to their entries on the family page.
"""

from __future__ import annotations

import importlib
import inspect
import math
import pkgutil
import re
import types
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

LOGGER = logging.getLogger(__name__)

#: Top-level packages of the wheel, in the order of the API index.
PACKAGES = ("reference", "properties", "proofs_numeric", "verifiedref")

#: properties modules that are data for the registries, not API (the catalogue records are).
_NOT_API = ("properties.catalogue.",)

_SPECIAL = re.compile(r"([\\*`|_<>\[\]])")


def plain(text: str) -> str:
    """``text`` as literal reST prose: markup characters escaped, whitespace collapsed."""
    return _SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def heading(text: str, char: str) -> list[str]:
    """A reST section title underlined with ``char`` (display width of the escaped text)."""
    return [text, char * max(len(text), 4), ""]


def label(kind: str, name: str) -> str:
    """The cross-reference label of a suite, check or family entry."""
    return f"{kind}-{name}".lower()


def code(text: str) -> str:
    """``text`` as inline literal (double backquotes; a backquote inside is escaped away)."""
    return "``" + str(text).replace("`", "'") + "``"


def first_paragraph(doc: str | None) -> str:
    """The first paragraph of a docstring on one line, as reST (``|`` escaped in its prose)."""
    text = inspect.cleandoc(doc or "")
    line = " ".join(text.split("\n\n")[0].split())
    parts = _LITERAL.split(line)
    return "".join(
        part if k % 2 else part.replace("\\|", "|").replace("|", "\\|")
        for k, part in enumerate(parts)
    )


# ---------------------------------------------------------------------------------- objects
def public_modules(package: str) -> list[str]:
    """The package and its submodules whose dotted names have no part starting with ``_``."""
    root = importlib.import_module(package)
    names = [package]
    path = getattr(root, "__path__", None)
    if path is not None:
        for info in pkgutil.walk_packages(path, package + "."):
            parts = info.name.split(".")
            if any(part.startswith("_") for part in parts) or info.name.startswith(_NOT_API):
                continue
            names.append(info.name)
    return names


def exported(module_name: str) -> list[tuple[str, Any]]:
    """``(name, object)`` for every name of the module's ``__all__`` (none without one)."""
    module = importlib.import_module(module_name)
    out: list[tuple[str, Any]] = []
    for name in getattr(module, "__all__", ()):
        if hasattr(module, name):
            obj = getattr(module, name)
            if not isinstance(obj, types.ModuleType):
                out.append((name, obj))
    return out


_INTERNED = (bool, int, float, complex, str, bytes, type(None))


def _identity(obj: Any) -> object:
    """What makes two exports the same object: its id, or its type and value for the immutable
    scalars that Python may share between unrelated names."""
    if isinstance(obj, _INTERNED):
        return (type(obj).__name__, repr(obj))
    return id(obj)


def directive_for(obj: Any) -> str:
    """The autodoc directive that documents ``obj``."""
    if inspect.isclass(obj):
        return "autoclass"
    if inspect.isfunction(obj) or inspect.isbuiltin(obj):
        return "autofunction"
    return "autodata"


class Api:
    """Where each public object is documented: module -> its names, and id -> dotted path."""

    def __init__(self, groups: dict[str, list[str]]) -> None:
        self.groups = groups  # page -> modules, in documentation order
        self.home: dict[object, str] = {}
        self.exporters: dict[str, list[str]] = {}  # documented path -> every module exporting it
        self.members: dict[str, list[tuple[str, Any]]] = {}
        for modules in groups.values():
            for module in modules:
                kept: list[tuple[str, Any]] = []
                for name, obj in exported(module):
                    key = (name, _identity(obj)) if isinstance(obj, _INTERNED) else _identity(obj)
                    if key in self.home:
                        self.exporters[self.home[key]].append(module)
                        continue
                    self.home[key] = f"{module}.{name}"
                    self.exporters[f"{module}.{name}"] = [module]
                    kept.append((name, obj))
                self.members[module] = kept
        self.paths = set(self.exporters)

    def path_of(self, obj: Any) -> str | None:
        """The dotted path under which ``obj`` is documented, if it is (classes, functions)."""
        if isinstance(obj, _INTERNED):
            return None
        return self.home.get(_identity(obj))


def api_groups(families: Iterable[str]) -> dict[str, list[str]]:
    """API pages -> modules: one page per family (reference, suites, theorem checks), then the
    harness of each package."""
    every = {package: public_modules(package) for package in PACKAGES}
    groups: dict[str, list[str]] = {}
    claimed: set[str] = set()
    for family in families:
        modules = [
            m
            for m in every["reference"]
            if m == f"reference.{family}" or m.startswith(f"reference.{family}.")
        ]
        modules += [
            m
            for m in (f"properties.{family}", f"proofs_numeric.{family}")
            if m in every["properties"] + every["proofs_numeric"]
        ]
        groups[family] = modules
        claimed.update(modules)
    for package in PACKAGES:
        groups[package] = [m for m in every[package] if m not in claimed]
    return groups


# ---------------------------------------------------------------------------------- registry
def _function_object(dotted: str) -> Any:
    """The object named ``module:function`` (``None`` when it does not resolve)."""
    from pkgutil import resolve_name

    try:
        return resolve_name(dotted)
    except (ImportError, AttributeError, ValueError):
        return None


def _ref(api: Api, dotted: str, family: str | None = None) -> str:
    """A link to the API entry of ``module:function``, or the name as a literal; on a family's
    page the name is shown relative to ``reference.<family>``."""
    shown = dotted.replace(":", ".")
    if family is not None and shown.startswith(f"reference.{family}."):
        shown = shown[len(f"reference.{family}.") :]
    obj = _function_object(dotted)
    path = api.path_of(obj) if obj is not None else None
    if path is None:
        return code(shown)
    return f":py:obj:`{shown} <{path}>`"


class Registry:
    """Everything the generated pages read from the registries, loaded once."""

    def __init__(self) -> None:
        from proofs_numeric._registry import all_theorems, teeth
        from proofs_numeric._slack import slack_cell, slack_record
        from properties._registry import all_algorithms, all_suites
        from reference._families import FAMILIES

        self.families = FAMILIES
        self.algorithms = all_algorithms()
        self.suites = all_suites()
        self.theorems = all_theorems()
        self.teeth = teeth()
        slacks = slack_record()
        self.slack = {t.name: slack_cell(slacks, t.name) for t in self.theorems}
        self.covers: dict[int, tuple[list[str], list[str]]] = {}  # id(fn) -> suites, checks
        for algo in self.algorithms:
            obj = _function_object(algo.function)
            if obj is None:
                continue
            checks = [t.name for t in self.theorems if algo.function in t.algorithms]
            suites, names = self.covers.setdefault(id(obj), ([], []))
            suites.extend(s for s in algo.suites if s not in suites)
            names.extend(c for c in checks if c not in names)
        for t in self.theorems:
            for function in t.algorithms:
                obj = _function_object(function)
                if obj is not None:
                    names = self.covers.setdefault(id(obj), ([], []))[1]
                    if t.name not in names:
                        names.append(t.name)

    def suites_of(self, family: str) -> list[Any]:
        """The family's suites, in registry order."""
        return [s for name, s in self.suites.items() if name.split(".", 1)[0] == family]

    def suite_link(self, name: str) -> str:
        """A link to a suite's entry."""
        return f":ref:`{name} <{label('suite', name)}>`"


def _evidence(entry: Any, record: dict[str, tuple[str, ...]]) -> str:
    from properties._cli.listing import evidence

    return evidence(entry, record)


# ------------------------------------------------------------------------------------ pages
def paper_section(family: str) -> list[str]:
    """The family's papers: title, authors, venue, arXiv, what the spec rests on."""
    from reference._papers import FAMILY_PAPERS, PAPERS

    lines = heading("The paper" if len(FAMILY_PAPERS[family]) == 1 else "The papers", "-")
    for spec in FAMILY_PAPERS[family]:
        paper = PAPERS[spec]
        arxiv = f", arXiv:{paper.arxiv}" if paper.arxiv else " (no arXiv version found)"
        lines += [
            f"- *{plain(paper.title)}*. {plain(', '.join(paper.authors))}. "
            f"{plain(paper.venue)}{arxiv}.",
            "",
            f"  Spec {spec:02d}; source status: {plain(paper.sources)}.",
            "",
        ]
    return lines


def _module_exists(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def implemented_section(family: str, reg: Registry, api: Api) -> list[str]:
    """The catalogue rows of the family, its fast and torch paths, its suites' variants."""
    lines = heading("What is implemented", "-")
    rows = [a for a in reg.algorithms if a.family == family]
    lines += [
        f"The reference, ``reference.{family}`` (``verifiedref list``):",
        "",
        ".. list-table::",
        "   :header-rows: 1",
        "   :widths: 30 25 22 23",
        "",
        "   * - algorithm",
        "     - entry point",
        "     - suites",
        "     - theorem checks",
    ]
    for algo in rows:
        checks = [t.name for t in reg.theorems if algo.function in t.algorithms]
        suites = ", ".join(reg.suite_link(s) for s in algo.suites) or "—"
        names = ", ".join(f":ref:`{c} <{label('check', c)}>`" for c in checks) or "—"
        lines += [
            f"   * - {plain(algo.name)}",
            f"     - {_ref(api, algo.function, family)}",
            f"     - {suites}",
            f"     - {names}",
        ]
    lines.append("")
    for suffix, what in (
        ("fast", "Fast path (numpy, same names and signatures as the reference)"),
        ("fast_efg", "Sequence-form fast path"),
        ("fast_torch", "Torch path (the ``torch`` extra; batched where the name says so)"),
    ):
        module = f"reference.{family}.{suffix}"
        if not _module_exists(module):
            continue
        names = [f":py:obj:`{name} <{module}.{name}>`" for name, _ in api.members.get(module, [])]
        lines += [f"{what}: ``{module}``", ""]
        lines += [("   " + ", ".join(names)) if names else "   (no public names)", ""]
    if not any(_module_exists(f"reference.{family}.{s}") for s in ("fast", "fast_torch")):
        lines += ["No fast or torch path: the reference is the only implementation.", ""]
    variants = [(s.name, s.variants) for s in reg.suites_of(family) if s.variants]
    if variants:
        lines += ["Variants the suites accept (``--variant NAME``, the first is the default):", ""]
        for name, table in variants:
            lines.append(f"- {reg.suite_link(name)}: " + ", ".join(code(v) for v in table))
        lines.append("")
    lines += [f"API reference: :doc:`/generated/api/families/{family}`.", ""]
    return lines


def suite_entry(suite: Any, heading_char: str) -> list[str]:
    """A suite as ``verifiedref describe`` shows it, in reST."""
    from properties._cli.describe import protocol_signature
    from properties._runner import Capabilities
    from properties._suite import PRECISIONS

    lines = [f".. _{label('suite', suite.name)}:", ""]
    lines += heading(suite.name, heading_char)
    lines += [plain(suite.description), ""]
    protocol = suite.protocol
    signature = protocol_signature(protocol)
    qualname = f"{protocol.__module__}.{protocol.__qualname__}"
    lines += [
        f"Protocol :py:class:`{protocol.__qualname__} <{qualname}>`: "
        f"{code(protocol.__qualname__ + signature)}",
        "",
        f".. list-table:: Checks ({len(suite.checks)})",
        "   :header-rows: 1",
        "   :widths: 20 30 50",
        "",
        "   * - check",
        "     - anchor",
        "     - what it checks",
    ]
    for c in suite.checks:
        extra = []
        if c.requires:
            extra.append("requires " + ", ".join(code(r) for r in sorted(c.requires)))
        if c.domains:
            extra.append("domains " + ", ".join(code(d) for d in sorted(c.domains)))
        summary = first_paragraph(c.fn.__doc__) or "—"
        lines += [
            f"   * - {code(c.name)}",
            f"     - {plain(c.anchor)}" + (f" ({'; '.join(extra)})" if extra else ""),
            f"     - {summary}",
        ]
    lines.append("")
    if suite.variants:
        lines += ["Variants (``--variant NAME``; the first is the default):", ""]
        lines += [f"- {code(k)}: {plain(v)}" for k, v in suite.variants.items()]
        lines.append("")
    if suite.domains:
        lines += ["Domains (``--domain NAME``; the first is the default):", ""]
        lines += [f"- {code(k)}: {plain(v)}" for k, v in suite.domains.items()]
        lines.append("")
    else:
        lines += ["Domains: one, every input the checks draw (no ``--domain``).", ""]
    notes = [
        "capabilities (``--capability FLAG``): "
        + ", ".join(code(f) for f in Capabilities.flag_names()),
        "precision (``--precision``): "
        + ", ".join(f"{code(k)} (u = {v:.3g})" for k, v in PRECISIONS.items()),
        *(plain(n) for n in suite.notes),
    ]
    lines += ["Options:", ""]
    lines += [f"- {n}" for n in notes]
    lines += [
        "",
        "Run it on your callable::",
        "",
        f"   verifiedref crosscheck {suite.name} yourpkg.module:callable",
        "",
    ]
    return lines


def theorem_entry(entry: Any, reg: Registry, api: Api) -> list[str]:
    """A theorem check: claim, paper, what it exercises, evidence, slack."""
    lines = [f".. _{label('check', entry.name)}:", ""]
    lines += heading(entry.name, "~")
    lines += [f"**Claim:** {plain(entry.theorem)} ({plain(entry.paper)}).", ""]
    doc = first_paragraph(entry.driver.__doc__)
    if doc:
        lines += [doc, ""]
    exercised = ", ".join(_ref(api, a, entry.family) for a in entry.algorithms)
    caught = reg.teeth.get(entry.name, ())
    lines += [
        f"- exercises: {exercised or 'no library code (a sanity check, not evidence)'}",
        f"- profiles: {', '.join(code(p) for p in entry.profiles)}",
        f"- evidence: {plain(_evidence(entry, reg.teeth))}" + (":" if caught else ""),
    ]
    if caught:
        lines.append("")
        lines += [f"  - {code(m)}" for m in caught]
        lines.append("")
    lines += [
        f"- slack (bound / measured, quick profile): {code(reg.slack.get(entry.name, '-'))}",
        "",
    ]
    return lines


def family_page(family: str, reg: Registry, api: Api, examples: Path) -> str:
    """The whole family page."""
    from reference._papers import FAMILY_PAPERS, PAPERS

    title = f"{family}: {PAPERS[FAMILY_PAPERS[family][0]].title}"
    lines = [f".. _{label('family', family)}:", ""]
    lines += ["=" * len(plain(title)), plain(title), "=" * len(plain(title)), ""]
    lines += [
        ".. This page is generated from the registries by docs/_ext/vr_pages.py.",
        "",
    ]
    lines += paper_section(family)
    lines += implemented_section(family, reg, api)
    suites = reg.suites_of(family)
    lines += heading("Conformance suites", "-")
    lines += [f".. currentmodule:: properties.{family}", ""]
    lines += [
        "Each suite runs Hypothesis checks on any callable of the suite's shape "
        f"(``verifiedref describe SUITE`` prints the same). {len(suites)} suites; every public "
        "function also runs the generic :doc:`bad-input and hard-input suites "
        "</generated/suites/generic>`.",
        "",
    ]
    for suite in suites:
        lines += suite_entry(suite, "~")
    theorems = [t for t in reg.theorems if t.family == family]
    lines += heading("Theorem checks", "-")
    lines += [f".. currentmodule:: proofs_numeric.{family}", ""]
    lines += [
        f"{len(theorems)} checks, run by ``verifiedref prove --only {family}``. Evidence: the "
        "wrong implementations (mutants) of ``tests/<family>/proof_mutants.py`` and the "
        "generated keyword mutants that the check is known to catch; slack: how far the "
        "reference sits inside the bound on the check's own instances.",
        "",
    ]
    for entry in theorems:
        lines += theorem_entry(entry, reg, api)
    lines += heading("Worked example", "-")
    example = examples / f"{family}.rst"
    if example.exists():
        lines += [f".. include:: /examples/{family}.rst", ""]
    else:
        LOGGER.warning("no worked example for family %s (docs/examples/%s.rst)", family, family)
    return "\n".join(lines) + "\n"


def generic_suites_page(reg: Registry) -> str:
    """The suites that are not a family's (``bad_input``, ``hard_input``)."""
    from reference._families import FAMILIES

    lines = heading("Bad-input and hard-input suites", "=")
    lines += [
        "Every public function registered in a family's catalogue runs these two suites "
        "(``verifiedref crosscheck bad_input yourpkg:fn --like reference.games:duality_gap``).",
        "",
    ]
    for name, suite in reg.suites.items():
        if name.split(".", 1)[0] not in FAMILIES:
            lines += suite_entry(suite, "-")
    return "\n".join(lines) + "\n"


def api_page(page: str, api: Api) -> str:
    """autodoc directives for the modules of one API page."""
    from reference._families import FAMILIES

    if page in FAMILIES:
        title = f"{page}"
        intro = [
            f"The public names of ``reference.{page}`` and its modules, its conformance suites "
            f"(``properties.{page}``) and its theorem checks (``proofs_numeric.{page}``). "
            f"The family page: :ref:`{label('family', page)}`.",
            "",
        ]
    else:
        title = f"{page} (harness)" if page != "reference" else "reference (shared types)"
        intro = []
    lines = heading(plain(title), "=") + intro
    for module in api.groups[page]:
        members = api.members.get(module, [])
        if not members:
            continue
        lines += heading(code(module), "-")
        lines += [f".. automodule:: {module}", "   :no-members:"]
        if module in api.paths:  # a module named like a function it exports (activations.rational)
            lines.append("   :no-index:")
        lines.append("")
        for name, obj in members:
            directive = directive_for(obj)
            lines += [f".. {directive}:: {module}.{name}"]
            if directive == "autoclass":
                lines += ["   :members:", "   :show-inheritance:"]
            lines.append("")
    return "\n".join(lines) + "\n"


def algorithms_page(reg: Registry, api: Api) -> str:
    """Every catalogued algorithm with its suites and theorem checks."""
    lines = heading("Algorithms, suites and theorem checks", "=")
    lines += [
        "Every catalogued entry point (``verifiedref list``), generated from the registries. "
        "Checks that only ``prove --profile full`` runs are marked so on their family page.",
        "",
        ".. list-table::",
        "   :header-rows: 1",
        "   :widths: 12 28 24 18 18",
        "",
        "   * - family",
        "     - algorithm",
        "     - entry point",
        "     - suites",
        "     - theorem checks",
    ]
    for algo in reg.algorithms:
        checks = [t.name for t in reg.theorems if algo.function in t.algorithms]
        lines += [
            f"   * - :ref:`{algo.family} <{label('family', algo.family)}>`",
            f"     - {plain(algo.name)}",
            f"     - {_ref(api, algo.function)}",
            "     - " + (", ".join(reg.suite_link(s) for s in algo.suites) or "—"),
            "     - " + (", ".join(f":ref:`{c} <{label('check', c)}>`" for c in checks) or "—"),
        ]
    return "\n".join(lines) + "\n"


def _write(path: Path, text: str) -> None:
    """Write ``text`` unless the file already holds it (keeps incremental builds incremental)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


_STATE: dict[str, Any] = {}


def generate(app: Sphinx) -> None:
    """Write every generated page (``builder-inited``)."""
    srcdir = Path(app.srcdir)
    out = srcdir / "generated"
    reg = Registry()
    api = Api(api_groups(reg.families))
    _STATE["reg"], _STATE["api"] = reg, api
    wanted: set[Path] = set()

    def emit(relative: str, text: str) -> None:
        path = out / relative
        wanted.add(path)
        _write(path, text)

    for family in reg.families:
        emit(f"families/{family}.rst", family_page(family, reg, api, srcdir / "examples"))
        emit(f"api/families/{family}.rst", api_page(family, api))
    for package in PACKAGES:
        emit(f"api/{package}.rst", api_page(package, api))
    emit("suites/generic.rst", generic_suites_page(reg))
    emit("algorithms.rst", algorithms_page(reg, api))
    for stale in out.rglob("*.rst"):
        if stale not in wanted:
            stale.unlink()


def _data_doc(api: Api, name: str, obj: Any, lines: list[str]) -> None:
    """A constant's ``#:`` comment, wherever it is defined, instead of the docstring of its type
    (a dict's, ndarray's) that autodoc finds when the name is documented where it is re-exported."""
    from sphinx.pycode import ModuleAnalyzer
    from sphinx.util.docstrings import prepare_docstring

    inherited = {
        doc
        for doc in (type(obj).__doc__, getattr(getattr(obj, "__origin__", None), "__doc__", None))
        if doc
    }
    current = "\n".join(lines).strip()
    if not any(current == "\n".join(prepare_docstring(doc)).strip() for doc in inherited):
        return
    lines.clear()
    short = name.rsplit(".", 1)[-1]
    seen = api.exporters.get(name, [])
    for module in seen:
        found = _definition_module(module, short)
        try:
            comments = ModuleAnalyzer.for_module(found).find_attr_docs()
        except Exception:  # no source to read: the constant stays without a description
            continue
        if ("", short) in comments:
            lines.extend(comments[("", short)])
            return


def _definition_module(module: str, name: str) -> str:
    """The module whose source assigns ``name``: ``module`` or the one it imports it from."""
    import ast

    source = inspect.getsource(importlib.import_module(module))
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.level == 0
            and any(alias.name == name and alias.asname is None for alias in node.names)
        ):
            return node.module
    return module


def add_coverage(
    app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]
) -> None:
    """Append "Checked by" (suites and theorem checks) to a catalogued function's docstring."""
    reg: Registry | None = _STATE.get("reg")
    api: Api | None = _STATE.get("api")
    if what == "data" and api is not None:
        _data_doc(api, name, obj, lines)
        return
    if reg is None or what not in ("function", "class", "method"):
        return
    covered = reg.covers.get(id(obj))
    if not covered:
        return
    suites, checks = covered
    lines += ["", ".. rubric:: Checked by", ""]
    if suites:
        lines.append("- suites: " + ", ".join(reg.suite_link(s) for s in suites))
    if checks:
        lines.append(
            "- theorem checks: " + ", ".join(f":ref:`{c} <{label('check', c)}>`" for c in checks)
        )
    lines.append("")


_LITERAL = re.compile(r"(``.+?``|:[\w:]+:`[^`]*`|`[^`]*`)")


def literal_bars(
    app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]
) -> None:
    """Escape ``|`` in docstring prose: the library's docstrings write ``|x|`` for absolute
    values and never use reST substitutions.  Literal text, literal blocks, directives' bodies
    and doctest lines are left as they are."""
    block_indent: int | None = None
    for i, line in enumerate(lines):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if block_indent is not None:
            if not stripped or indent > block_indent:
                continue
            block_indent = None
        if stripped.startswith((">>>", "...")):
            continue
        if stripped.endswith("::") or stripped.startswith(".. "):
            block_indent = indent
        if "|" not in line:
            continue
        parts = _LITERAL.split(line)
        lines[i] = "".join(
            part if k % 2 else part.replace("\\|", "|").replace("|", "\\|")
            for k, part in enumerate(parts)
        )


_READS_PRIVATE = re.compile(r"(?<![\w.])_[A-Za-z]\w*\s*[.\[]")


def _as_source(value: object) -> str:
    """A default value written as the sources write it (``math.inf``, double quotes)."""
    if isinstance(value, float) and math.isinf(value):
        return "math.inf" if value > 0 else "-math.inf"
    if isinstance(value, str) and '"' not in value:
        return f'"{value}"'
    return repr(value)


def declared_defaults(app: Sphinx, obj: Any, bound_method: bool) -> None:
    """Show the value of a default that reads its one declaration (``_LION.learning_rate``).

    ``autodoc_preserve_defaults`` keeps the source text of defaults (``math.inf``,
    ``NS_STEPS``); a default read from a private configuration instance or table (a factory
    or torch class that takes its defaults from the reference's configuration) is shown as
    its value instead.
    """
    function = getattr(obj, "__func__", obj)
    try:
        sig = inspect.signature(function)
    except (TypeError, ValueError):
        return
    scope = getattr(inspect.unwrap(function), "__globals__", None)
    if scope is None:
        return
    changed = False
    parameters = []
    for param in sig.parameters.values():
        text = getattr(param.default, "name", None)  # sphinx's DefaultValue keeps the source
        if isinstance(text, str) and _READS_PRIVATE.search(text):
            value = eval(text, scope)  # a default expression of our own source
            param = param.replace(default=type(param.default)(_as_source(value)))
            changed = True
        parameters.append(param)
    if changed:
        function.__signature__ = sig.replace(parameters=parameters)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the generator and the docstring hooks."""
    app.connect("builder-inited", generate)
    app.connect("autodoc-process-docstring", add_coverage)
    app.connect("autodoc-process-docstring", literal_bars)
    app.connect("autodoc-before-process-signature", declared_defaults)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}

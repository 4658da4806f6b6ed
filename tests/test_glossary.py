"""The public names of ``reference/`` follow ``docs/GLOSSARY.md``.

The walk reads the source with :mod:`ast` (no import, so the torch paths are covered without
torch): every public module, its public functions, the public methods and ``__init__`` of its
public classes, and the annotated fields of its public classes (the dataclass fields of configs
and results).  The rules checked are the glossary's, for the names it fixes:

* no public name from the list of retired spellings (``seed``, ``random_state``, ``n_iter``,
  ``max_steps``, ``tolerance``, ...): iteration caps are ``max_iter``, tolerances ``tol``,
  randomness ``rng`` / ``generator``;
* ``lr`` only in a ``torch.optim.Optimizer`` subclass (torch's convention there), and ``eta``
  nowhere (step sizes are ``step_size`` or ``learning_rate``);
* ``gamma`` nowhere in ``reference.games`` (the Douglas-Rachford step γ is ``step_size``;
  other families keep ``gamma`` where the paper's γ is not a step size);
* beside a stopping tolerance ``tol``, an iteration cap is ``max_iter`` (an inner loop's cap is
  ``max_inner``), never ``iterations`` / ``steps`` / ``rounds``, which are exact counts;
* a parameter annotated as a ``numpy.random.Generator`` is ``rng`` (or ``<what>_rng`` for a
  second stream), one annotated as a ``torch.Generator`` only is ``generator``.

Exceptions are listed in :data:`ALLOWED` with the reason; an entry that no longer matches a
name fails the test, so the list cannot go stale.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Spellings the glossary retires, with the name that replaces them.
RETIRED: dict[str, str] = {
    "seed": "rng (numpy) or generator (torch)",
    "random_state": "rng",
    "n_iter": "max_iter (a cap) or iterations (an exact count)",
    "n_iters": "max_iter (a cap) or iterations (an exact count)",
    "num_iter": "max_iter (a cap) or iterations (an exact count)",
    "num_iters": "max_iter (a cap) or iterations (an exact count)",
    "niter": "max_iter (a cap) or iterations (an exact count)",
    "maxiter": "max_iter (or max_inner for an inner solver)",
    "max_iters": "max_iter",
    "max_iterations": "max_iter",
    "max_steps": "max_iter",
    "num_steps": "steps",
    "n_steps": "steps",
    "tolerance": "tol",
    "eta": "step_size (an algorithm) or learning_rate (an optimizer of a training loss)",
    "lr": "learning_rate (lr only in torch.optim.Optimizer classes)",
}

#: Modules where the paper's γ is a step size, so ``gamma`` is retired there for ``step_size``.
STEP_SIZE_GAMMA_MODULES = ("reference.games",)

#: Exact counts that may not stand for the cap of a loop that stops on ``tol``.
EXACT_COUNTS = frozenset({"iterations", "steps", "rounds", "epochs"})

#: ``(where, name)`` -> reason.  ``where`` is ``module:Qualified.name`` as :func:`_entries`
#: reports it (a class's fields under the class name).
ALLOWED: dict[tuple[str, str], str] = {}


@dataclass(frozen=True)
class Entry:
    """One public name: where it is declared, the name, its siblings, its annotation."""

    where: str
    name: str
    siblings: tuple[str, ...]
    annotation: str
    in_optimizer: bool
    is_config_or_call: bool


def _modules() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted((ROOT / "reference").rglob("*.py")):
        rel = path.relative_to(ROOT)
        if any(part.startswith("_") and part != "__init__.py" for part in rel.parts):
            continue
        dotted = ".".join(rel.with_suffix("").parts).removesuffix(".__init__")
        yield dotted, ast.parse(path.read_text(encoding="utf-8"))


def _base_names(node: ast.ClassDef) -> list[str]:
    return [ast.unparse(base) for base in node.bases]


def _optimizer_classes(tree: ast.Module) -> set[str]:
    """Classes of the module that derive from ``torch.optim.Optimizer`` (through classes of the
    same module)."""
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, node in classes.items():
            if name in found:
                continue
            bases = _base_names(node)
            if any(b.endswith("optim.Optimizer") or b in found for b in bases):
                found.add(name)
                changed = True
    return found


def _params(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.arg]:
    a = fn.args
    return [x for x in (*a.posonlyargs, *a.args, *a.kwonlyargs) if x.arg not in ("self", "cls")]


def _entries() -> Iterator[Entry]:
    for module, tree in _modules():
        yield from _entries_in(module, tree)


def _entries_in(module: str, tree: ast.Module) -> Iterator[Entry]:
    optimizers = _optimizer_classes(tree)
    if True:
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                if node.name.startswith("_"):
                    continue
                args = _params(node)
                names = tuple(a.arg for a in args)
                for a in args:
                    text = "" if a.annotation is None else ast.unparse(a.annotation)
                    yield Entry(f"{module}:{node.name}", a.arg, names, text, False, True)
            elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                opt = node.name in optimizers
                fields = [
                    i
                    for i in node.body
                    if isinstance(i, ast.AnnAssign)
                    and isinstance(i.target, ast.Name)
                    and not i.target.id.startswith("_")
                ]
                field_names = tuple(f.target.id for f in fields if isinstance(f.target, ast.Name))
                # a result reports the iterations performed beside the tol it was run with
                result = bool({"converged", "stop_reason"} & set(field_names))
                for f in fields:
                    assert isinstance(f.target, ast.Name)
                    yield Entry(
                        f"{module}:{node.name}",
                        f.target.id,
                        field_names,
                        ast.unparse(f.annotation),
                        opt,
                        not result,
                    )
                for item in node.body:
                    if not isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                        continue
                    if item.name.startswith("_") and item.name != "__init__":
                        continue
                    args = _params(item)
                    names = tuple(a.arg for a in args)
                    for a in args:
                        text = "" if a.annotation is None else ast.unparse(a.annotation)
                        yield Entry(
                            f"{module}:{node.name}.{item.name}", a.arg, names, text, opt, True
                        )


def _violations(entries: Iterator[Entry] | None = None) -> dict[tuple[str, str], str]:
    found: dict[tuple[str, str], str] = {}
    for e in _entries() if entries is None else entries:
        key = (e.where, e.name)
        if e.name in RETIRED and not (e.name == "lr" and e.in_optimizer):
            found[key] = f"retired spelling: use {RETIRED[e.name]}"
        elif e.name == "gamma" and e.where.startswith(STEP_SIZE_GAMMA_MODULES):
            found[key] = "the Douglas-Rachford step gamma is step_size"
        elif (
            e.is_config_or_call
            and e.name in EXACT_COUNTS
            and "tol" in e.siblings
            and "max_iter" not in e.siblings
        ):
            found[key] = "an iteration cap beside tol is max_iter"
        elif "np.random.Generator" in e.annotation and not (
            e.name == "rng" or e.name.endswith("_rng")
        ):
            found[key] = "a numpy Generator parameter is rng (or <what>_rng)"
        elif (
            "torch.Generator" in e.annotation
            and "np.random.Generator" not in e.annotation
            and e.name != "generator"
        ):
            found[key] = "a torch Generator parameter is generator"
    return found


def test_walk_sees_the_public_api() -> None:
    """The walk reaches the names the glossary speaks about (a guard against an empty walk)."""
    names = {(e.where, e.name) for e in _entries()}
    assert ("reference.activations.rational:dwh_sign", "max_iter") in names
    assert ("reference.inconsistency.iam:SGDConfig", "learning_rate") in names
    assert ("reference.optimizers.fast_torch:Lion.__init__", "lr") in names
    assert ("reference.divergence.fast_torch:neural_critic_estimate", "generator") in names
    assert len(names) > 1500


@functools.cache
def _repository_violations() -> dict[tuple[str, str], str]:
    return _violations()


def test_public_names_follow_the_glossary() -> None:
    bad = {k: v for k, v in _repository_violations().items() if k not in ALLOWED}
    assert not bad, "\n".join(f"{w} {n}: {why}" for (w, n), why in sorted(bad.items()))


def test_every_allowed_exception_still_applies() -> None:
    """An allow-list entry names a declaration that exists and that the rules would flag."""
    found = _repository_violations()
    stale = sorted(key for key in ALLOWED if key not in found)
    assert not stale, f"no longer need their exception, remove them from ALLOWED: {stale}"


def test_the_rules_catch_what_they_describe() -> None:
    """Each rule fires on a small hand-written declaration of the kind it forbids, and not on
    its glossary spelling."""
    source = """
import numpy as np
import torch

def fit(x, *, tol=1e-8, iterations=10): ...
def fit_ok(x, *, tol=1e-8, max_iter=10): ...
def run(x, *, iterations=10): ...
def draw(x, *, seed=0): ...
def sample(x, gen: np.random.Generator): ...
def sample_ok(x, rng: np.random.Generator, noise_rng: np.random.Generator): ...
def torch_draw(x, g: torch.Generator | int = 0): ...
def either(x, direction: np.random.Generator | torch.Generator | None = None): ...
class Opt(torch.optim.Optimizer):
    def __init__(self, params, lr=0.1): ...
class Clipped(Opt):
    def __init__(self, params, lr=0.1): ...
class Config:
    lr: float = 0.1
    eta: float = 0.1
class FitResult:
    tol: float
    iterations: int
    converged: bool
class FitConfig:
    tol: float
    steps: int
class _Private:
    seed: int
def _private(seed): ...
"""
    found = _violations(_entries_in("demo", ast.parse(source)))
    assert set(found) == {
        ("demo:fit", "iterations"),
        ("demo:draw", "seed"),
        ("demo:sample", "gen"),
        ("demo:torch_draw", "g"),
        ("demo:either", "direction"),
        ("demo:Config", "lr"),
        ("demo:Config", "eta"),
        ("demo:FitConfig", "steps"),
    }


def test_gamma_is_a_step_size_only_in_games() -> None:
    """``gamma`` is flagged in a games module (the DRS step, named ``step_size``) and left alone
    elsewhere, where γ names something else (a margin, a decay factor)."""
    source = """
def drs(a, *, gamma=None): ...
def drs_ok(a, *, step_size=None): ...
class SSNConfig:
    gamma: float | None = None
"""
    tree = ast.parse(source)
    assert set(_violations(_entries_in("reference.games.demo", tree))) == {
        ("reference.games.demo:drs", "gamma"),
        ("reference.games.demo:SSNConfig", "gamma"),
    }
    assert not _violations(_entries_in("reference.invariance", tree))

"""What a suite run returns: one :class:`CheckResult` per check, gathered in a
:class:`SuiteReport` that prints itself and turns into JSON-ready data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["CheckResult", "Status", "SuiteReport"]

Status = Literal["passed", "failed", "skipped", "xfailed", "xpassed"]


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckResult:
    """Outcome of one check.

    Attributes:
        name: check name.
        anchor: the check's source.
        status: ``passed``, ``failed``, ``skipped``, ``xfailed`` or ``xpassed``.
        message: why it failed or was skipped (empty when it passed).
        snippet: Python code re-running the implementation on the shrunk failing input.
        seconds: wall time of the check.
        bounds: smallest and largest bound the check allowed through :func:`expect_le` /
            :func:`expect_close` over its examples (``None`` when it used neither).
    """

    name: str
    anchor: str
    status: Status
    message: str = ""
    snippet: str = ""
    seconds: float = 0.0
    bounds: tuple[float, float] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SuiteReport:
    """All check outcomes of one :func:`run_suite` call.

    Attributes:
        suite: suite name.
        target: the implementation's name.
        profile: the Hypothesis profile used.
        strict: whether an unexpected pass (``xpassed``) counts as a failure.
        results: one :class:`CheckResult` per check.
        domain: the input domain the checks drew from (empty when the suite declares none).
    """

    suite: str
    target: str
    profile: str
    strict: bool
    results: tuple[CheckResult, ...]
    domain: str = ""

    @property
    def failed(self) -> tuple[CheckResult, ...]:
        """Results that make the run fail (``failed``, and ``xpassed`` under ``strict``)."""
        bad: tuple[Status, ...] = ("failed", "xpassed") if self.strict else ("failed",)
        return tuple(r for r in self.results if r.status in bad)

    @property
    def ok(self) -> bool:
        """True when no check failed."""
        return not self.failed

    def counts(self) -> dict[str, int]:
        """Number of results per status."""
        out: dict[str, int] = {}
        for r in self.results:
            out[r.status] = out.get(r.status, 0) + 1
        return out

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data (``crosscheck --json``): one record per check with its
        status, anchor, time, the bounds it allowed, and for failures the message and the
        snippet that re-runs the shrunk input."""
        return {
            "suite": self.suite,
            "target": self.target,
            "profile": self.profile,
            "domain": self.domain,
            "strict": self.strict,
            "ok": self.ok,
            "counts": self.counts(),
            "results": [
                {
                    "check": r.name,
                    "anchor": r.anchor,
                    "status": r.status,
                    "seconds": round(r.seconds, 3),
                    "bounds": list(r.bounds) if r.bounds is not None else None,
                    "message": r.message,
                    "snippet": r.snippet,
                }
                for r in self.results
            ],
        }

    def format(self, *, verbose: bool = True) -> str:
        """Human-readable report; failures carry message and snippet."""
        where = f", domain {self.domain}" if self.domain else ""
        lines = [f"suite {self.suite} on {self.target} (profile {self.profile}{where})"]
        for r in self.results:
            used = ""
            if r.bounds is not None:
                low, high = r.bounds
                used = f"bound {low:.3g}  " if low == high else f"bounds {low:.3g}..{high:.3g}  "
            # the time stays last: callers strip timing lines by their trailing "s"
            lines.append(f"  {r.status.upper():8s} {r.name}  [{r.anchor}]  {used}{r.seconds:.2f}s")
            if verbose and r.status in ("failed", "xpassed", "skipped", "xfailed") and r.message:
                lines.extend("      " + line for line in r.message.splitlines())
            if verbose and r.status == "failed" and r.snippet:
                timed_out = r.message.startswith(f"check {r.name} timed out")
                partly = "\nnot fully shrunk:" in r.message
                lines.append(
                    "      re-run the failing input (not shrunk: it timed out):"
                    if timed_out
                    else "      re-run the failing input (not fully shrunk: budget ran out):"
                    if partly
                    else "      re-run the shrunk failing input:"
                )
                lines.extend("        " + line for line in r.snippet.splitlines())
        summary = ", ".join(f"{n} {s}" for s, n in sorted(self.counts().items()))
        judged = any(r.status != "skipped" for r in self.results)
        verdict = ("PASS" if self.ok else "FAIL") if judged else "NO VERDICT: every check skipped"
        lines.append(f"  => {verdict} ({summary})")
        return "\n".join(lines)

"""``verifiedref describe SUITE``: a suite's call shape, conventions, checks, variants and
domains, from the suite's own declarations."""

from __future__ import annotations

import argparse
import inspect
import textwrap
from typing import TextIO

from properties._cli.crosscheck import suite_named
from properties._output import terminal_width
from properties._runner import Capabilities
from properties._suite import PRECISIONS

__all__ = ["cmd_describe"]



def protocol_signature(protocol: type) -> str:
    """The signature of a suite protocol's ``__call__``, without ``self`` and quotes ("" if none)."""
    call = protocol.__dict__.get("__call__")
    if call is None:
        return ""
    try:
        signature = str(inspect.signature(call))
    except (TypeError, ValueError):
        return ""
    return signature.replace("(self, ", "(").replace("(self)", "()").replace("'", "")

def cmd_describe(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    try:
        suite = suite_named(args.suite)
    except ValueError as exc:
        print(f"verifiedref describe: {exc}", file=err)
        return 2
    width = terminal_width()

    def fill(text: str, indent: str = "", hanging: str = "    ") -> str:
        return textwrap.fill(
            " ".join(text.split()),
            width,
            initial_indent=indent,
            subsequent_indent=hanging,
            break_on_hyphens=False,
        )

    print(f"suite {suite.name}", file=out)
    print(fill(suite.description, "  ", "  "), file=out)
    protocol = suite.protocol
    signature = protocol_signature(protocol)
    print(file=out)
    print(fill(f"protocol {protocol.__module__}.{protocol.__qualname__}{signature}"), file=out)
    doc = inspect.getdoc(protocol) or ""
    for paragraph in doc.split("\n\n"):
        print(fill(paragraph, "  ", "  "), file=out)
    print(f"\nchecks ({len(suite.checks)})", file=out)
    for c in suite.checks:
        needs = f"  requires {', '.join(sorted(c.requires))}" if c.requires else ""
        where = f"  domains {', '.join(sorted(c.domains))}" if c.domains else ""
        print(fill(f"{c.name}  [{c.anchor}]{needs}{where}", "  ", "      "), file=out)
        summary = (inspect.getdoc(c.fn) or "").split("\n\n")[0]
        if summary:
            print(fill(summary, "      ", "      "), file=out)
    if suite.variants:
        print("\nvariants (--variant NAME; the first is the default)", file=out)
        for name, meaning in suite.variants.items():
            print(
                textwrap.fill(
                    f"{name}: {meaning}", width, initial_indent="  ", subsequent_indent="      "
                ),
                file=out,
            )
    if not suite.domains:
        print(
            "\ndomains: one, every input the checks draw (this suite declares no --domain)",
            file=out,
        )
    if suite.domains:
        print("\ndomains (--domain NAME; the first is the default)", file=out)
        for name, meaning in suite.domains.items():
            print(
                textwrap.fill(
                    f"{name}: {meaning}", width, initial_indent="  ", subsequent_indent="      "
                ),
                file=out,
            )
    notes = [
        "sizes (--min-size N, --max-size N): narrow the problem sizes the checks draw",
        "capabilities (--capability FLAG): " + ", ".join(Capabilities.flag_names()),
        "tolerance (--tolerance, default 1e-6): promised accuracy relative to the instance "
        "scale; checks with a rounding-error model c*u*scale allow the larger of the two",
        "precision (--precision): "
        + ", ".join(f"{k} (u = {v:.3g})" for k, v in PRECISIONS.items()),
        "timeout (--timeout SECONDS, default 60): per example; a timeout fails the check unshrunk",
    ]
    notes.extend(suite.notes)
    print(file=out)
    for note in notes:
        print(textwrap.fill(note, width, subsequent_indent="    "), file=out)
    print(f"\nrun: verifiedref crosscheck {suite.name} yourpkg.module:callable", file=out)
    return 0

"""``python -m properties``: the ``verifiedref`` CLI; ``python -m properties SUITE TARGET`` crosschecks."""

import sys

from verifiedref._launch import main

_COMMANDS = {"list", "prove", "describe", "crosscheck", "-h", "--help", "--version"}

if __name__ == "__main__":
    argv = sys.argv[1:]
    if argv and argv[0] not in _COMMANDS:
        argv = ["crosscheck", *argv]
    raise SystemExit(main(argv, from_module=True))

"""``python -m verifiedref``: the ``verifiedref`` command (same arguments, same exit codes)."""

from verifiedref._launch import main

if __name__ == "__main__":
    raise SystemExit(main(from_module=True))

"""Catalogue data, one module per family: what ``verifiedref list`` shows and what the
``bad_input`` suite runs.

``properties/catalogue/<family>.py`` defines ``ALGORITHMS`` (:class:`~properties.Algorithm`
records), ``BAD_INPUT_CASES`` (:class:`~properties.bad_input.BadInputCase` records, with
the factories of valid arguments they need), ``UNCOVERED`` (its algorithms no theorem check
exercises, with their kind) and may define ``HARD_EXTRAS`` (hard-input instances and stopping
rules); the suites and checks stay in ``properties/<family>.py``.  :mod:`properties._registry`
loads these modules by family name.  ``_hard_helpers`` holds what the matrix-game and
extensive-form rows share (a duality gap written again for the checks, random games).
"""

"""Catalogue data, one module per family: what ``verifiedref list`` shows and what the
``bad_input`` suite runs.

``properties/catalogue/<family>.py`` defines ``ALGORITHMS`` (:class:`~properties.Algorithm`
records) and ``BAD_INPUT_CASES`` (:class:`~properties.bad_input.BadInputCase` records, with
the factories of valid arguments they need); the suites and checks stay in
``properties/<family>.py``.  :mod:`properties._registry` loads these modules by family name.
"""

"""Thin adapters that let the conformance suites run on public implementations (issue 19).

One module per outside library.  Each adapter does the least it can: it converts our call
shape (``properties.<family>`` Protocols, see ``verifiedref describe SUITE``) to the library's
and back, and documents every convention it had to bridge (who maximises, how a tour is
closed).  Libraries the suites take directly (``torch.optim.Adam``, ``lion_pytorch:Lion``,
``pytorch_optimizer:Muon``...) need no adapter and appear in :data:`benchmarks.outside.pairs.PAIRS`
by their own names.  None of these libraries is a dependency of verifiedref: install the
``crosscheck`` extra (see README) to run them.
"""

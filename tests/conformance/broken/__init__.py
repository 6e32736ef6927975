"""Deliberately broken engines: each breaks exactly one rule, to prove the suite catches it.

The corpus is every ``Broken`` subclass with a ``rule`` in any module of this package
(``registry.BROKEN``), grouped by area: ``engines`` (the base classes and the first engines),
``data`` (misread spec values), ``turns`` (what is legal, where tiles go, who moves),
``scores`` (hand results), ``matches`` (sets, rounds, starters) and ``refusals`` (error codes,
cited rules, bad deals). ``verdict`` runs an engine against its cases; ``catalogue`` writes
``docs/engines/mutants.md``.
"""

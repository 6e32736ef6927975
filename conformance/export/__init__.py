"""The suite as data: test vectors exported from the cases ``dominokit conform`` runs.

``dominokit export`` runs the suite's own cases against a recording reference engine
(``record``), turns what they asked into language-neutral vectors whose expected values are
the reference's answers (``build``), and writes them with a manifest (``files``); ``replay`` is
a small vector runner that drives any engine through them, as an engine author's own test
runner would. The format is documented in ``docs/engines/vectors.md`` and the schemas
``spec/schema/vectors-*.schema.json``.
"""

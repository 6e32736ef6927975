"""The dominokit reference engine: a small interpreter of the rules in ``dominokit.spec``."""

"""``dominokit bench``: how fast the reference engine and the kit are, measured in one run.

Each section is a module of this package that defines ``SECTION`` (a ``registry.Section``);
the registry finds them, so a new section is a new module and nothing else. Every figure is
a median over repeated runs with its spread, and every comparison a ratio taken in the same
run with the contenders interleaved, so that a loaded machine slows all of them alike.
"""

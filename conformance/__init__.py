"""The dominokit conformance kit, in rooms by role.

The floor (``exit_status``, ``atomic``) serves every room. ``wire/`` is the protocol;
``kit/`` the kit's side of it and ``serve/`` the engine's side; ``traces/`` the golden-trace
format; ``cases/`` what a case is and the case kinds; ``run/`` running them and reporting;
``export/`` the suite as test vectors; ``commands/`` the ``dominokit`` command. Each room
imports only rooms listed before it here (``commands/`` may import any), and none imports the
rule-book builder or the benchmark.
"""

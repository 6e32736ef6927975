"""The dominokit conformance kit, in rooms by role.

The floor (``exit_status``, ``atomic``) serves every room. ``wire/`` is the protocol;
``serve/`` the engine's side of it and ``kit/`` the kit's side; ``traces/`` the golden-trace
format; ``cases/`` what a case is and the case kinds; ``run/`` running them and reporting;
``export/`` the suite as test vectors; ``commands/`` the ``dominokit`` command. Each room
imports only the floor and rooms listed before it here, and none imports the rule-book
builder or the benchmark (``tests/repo/test_folder_imports.py``).
"""

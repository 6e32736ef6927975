"""The ``dominokit`` command: argument parsing (``cli``) and one module per command's body
(``conform``, ``perft``, ``play``, ``trace`` with ``trace_replay`` and ``trace_match``), with
the one reader of ``--option NAME=VALUE`` (``options``)."""

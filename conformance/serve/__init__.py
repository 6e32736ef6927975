"""The engine's side of the wire: serving an engine object (``dispatch``, the one dispatcher;
``server``, ``dominokit engine``; ``host``, the worker process of a ``python:`` engine), the
reference behind the protocol's verbs (``refengine``), and the published engines' adapters
(``peers``)."""

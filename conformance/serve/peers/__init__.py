"""Adapters that put published block-dominoes engines behind protocol v1 (``classic_block``).

Each module wraps one engine that nobody on this project wrote, as an in-process ``python:``
engine (``dominokit conform --engine
python:dominokit.conformance.serve.peers.openspiel:make_engine``).
The engines are optional extras (``pip install 'dominokit[peers]'``); importing an adapter
without its engine fails with an ImportError that names the extra.

An adapter maps deals, actions, states and results both ways and invents nothing: a protocol
step the engine cannot express (a pass, a draw, a match) is refused or shown as the engine
shows it, so the report carries the engine's own behaviour. ``docs/engines/tested.md`` has
the results.
"""

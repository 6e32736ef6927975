"""The wire: the protocol's messages (``protocol``), their checks against the JSON Schema
(``validation``) and the named ways an engine can misbehave (``errors``). Both sides of the
wire build on this room, and it imports nothing else of the kit."""

"""The protocol's messages and their checks (the wire between the kit and an engine)."""

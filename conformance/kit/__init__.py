"""The kit's side of the wire: reaching an engine (``engines``: an ``--engine`` value parsed
once, and ``connect``), talking to it in a subprocess (``driver`` over ``process``) or in this
process (``inprocess``), and containing every process it starts (``containment``)."""

"""The run: cases run against an engine, and what is reported about it."""

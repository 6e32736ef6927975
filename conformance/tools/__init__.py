"""Stand-alone tools of the conformance kit: computations kept independent of the reference.

A tool here deliberately re-implements the little it needs instead of importing
``dominokit.reference``, so that agreeing with the engine is evidence, not an echo.
"""

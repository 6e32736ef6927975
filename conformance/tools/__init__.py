"""Stand-alone tools of the conformance kit, run with ``python -m``.

The computations here (the Pijanowski opening search) deliberately re-implement the little
they need instead of importing ``dominokit.reference``, so that agreeing with the engine is
evidence, not an echo. The benchmark (``bench``) is the exception: it measures the reference
and the kit themselves.
"""

"""Deliberately broken engines: each breaks exactly one rule, to prove the suite catches it."""

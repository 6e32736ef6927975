"""The dominokit conformance kit: protocol driver, runner, golden traces and reports."""

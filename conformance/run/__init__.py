"""The run: typed settings (``settings``), the one run loop (``runner``) over one worker or
many (``workers``), the reports (``report``, ``stream``, ``terminal``), known departures
(``expectations``), the pytest plugin (``plugin``), and what a run's failures add up to:
their causes (``causes``), the readings an engine follows (``readings``) and the JSON-path
diff (``jsondiff``)."""

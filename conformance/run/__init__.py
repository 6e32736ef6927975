"""The run: typed settings (``settings``), the one run loop (``runner``) over one worker or
many (``workers``), the reports (``report``, ``stream``, ``terminal``), known departures
(``expectations``) and the pytest plugin (``plugin``)."""

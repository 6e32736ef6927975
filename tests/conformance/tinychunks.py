"""A pytest plugin for the tests (``-p tests.conformance.tinychunks``): campaign chunks of 2
random hands, in the pytest process that loads it and in each of its xdist workers, local or
over ssh (they load the plugins the command line names), so that a campaign of several
chunks runs in seconds."""

from dominokit.conformance.cases import differential

differential.CAMPAIGN_CHUNK = 2

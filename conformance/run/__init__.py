"""The run: its cases, its loop, its settings and its reports."""

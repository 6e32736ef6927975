"""The run: cases run one by one, their records, and what the run tells a person at the end."""

"""``python -m cardcore`` runs the command line."""

from cardcore.cli import entry

entry()

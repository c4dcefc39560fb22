"""Built-in bots; they register through the same hooks as third-party bots."""

from cardcore.bots._random import RandomBot
from cardcore.bots._search import ISMCTSBot, PIMCBot

__all__ = ["ISMCTSBot", "PIMCBot", "RandomBot"]

"""Built-in bots; they register through the same hooks as third-party bots."""

from cardcore.bots._random import RandomBot

__all__ = ["RandomBot"]

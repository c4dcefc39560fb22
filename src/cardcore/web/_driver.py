"""The web table's bots: they move one decision at a time, in a worker thread."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, final

from cardcore._engine import accept
from cardcore._isolation import IsolatedBot, Refused
from cardcore.web._match import WebTable

__all__ = ["BotDriver"]


@final
class BotDriver:
    """Plays the bots' moves and the forced moves of people, as the table needs them.

    Args:
        table: the match.
        broadcast: sends every open page its view (after each change).
        pace: seconds to pause after each bot move, so people see it (0 in tests).
        time_limit: seconds per bot decision (None: no limit); a slower bot forfeits.
    """

    def __init__(
        self,
        table: WebTable,
        broadcast: Callable[[], Awaitable[None]],
        *,
        pace: float,
        time_limit: float | None,
    ) -> None:
        self.table = table
        self.pace = pace
        self.time_limit = time_limit
        self._broadcast = broadcast
        self._wake: asyncio.Event | None = None

    def wake(self) -> None:
        """Look at the table again (after a person's message)."""
        if self._wake is not None:
            self._wake.set()

    async def run(self) -> None:
        """Drive the table until cancelled."""
        self._wake = asyncio.Event()
        self._wake.set()
        while True:
            await self._wake.wait()
            self._wake.clear()
            while await self._step():
                pass

    async def _step(self) -> bool:
        """Play one move that is not a person's choice; whether there may be another."""
        table = self.table
        seat = table.to_move()
        if seat is None:
            return False
        if seat in table.humans:
            forced = table.forced(seat)
            if forced is None:
                return False
            if self.pace:
                await asyncio.sleep(self.pace / 2)
            if table.to_move() == seat and table.forced(seat) == forced:
                table.apply(seat, forced, forced=True)
                await self._broadcast()
            return True
        epoch = table.epoch
        obs = table.game.observe(table.state, seat)
        bot = table.bots[seat]
        table.thinking = seat
        await self._broadcast()
        action, why, log = await self._ask(bot, obs)
        table.thinking = None
        if table.epoch != epoch:  # undone or dealt again meanwhile
            await self._broadcast()
            return True
        if log is not None:  # kept before the move: the deal's record may be written now
            table.transcripts.keep(seat, log)
        if why is None:
            chosen = accept(table.game, obs.legal_actions, action)
            if isinstance(chosen, Refused):
                table.forfeit(seat, str(chosen))
            else:
                table.apply(seat, chosen)
        else:
            table.forfeit(seat, why)
        await self._broadcast()
        if self.pace:
            await asyncio.sleep(self.pace)
        return True

    async def _ask(self, bot: Any, obs: Any) -> tuple[Any, str | None, list[dict[str, Any]] | None]:
        """The bot's action, or why it has none; then what it has logged (None: not asked).

        A bot that ran over its limit in this process is not asked: it may still be thinking.
        """
        answer: tuple[Any, str | None]
        try:
            if type(bot) is IsolatedBot:  # its process is stopped if it overruns
                got = await asyncio.to_thread(bot.decide, obs, obs.legal_actions, self.time_limit)
                answer = (None, str(got)) if type(got) is Refused else (got, None)
            else:
                job = asyncio.to_thread(bot.act, obs)
                if self.time_limit is not None:
                    answer = await asyncio.wait_for(job, self.time_limit), None
                else:
                    answer = await job, None
        except TimeoutError:
            return None, f"took more than {self.time_limit:g} s", None
        except Exception as e:  # noqa: BLE001 - a crashing bot forfeits
            answer = None, f"raised {type(e).__name__}: {e}"
        log = await asyncio.to_thread(self.table.transcripts.read, bot)
        return *answer, log

"""``cardcore serve`` end to end: the MCP SDK's own client talks to it over stdio."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import TextContent

from tests.serve.decks import GAMES, swap_hidden

Call = Callable[[str, dict[str, Any]], Awaitable[Any]]


def _with_server(script: Callable[[Call], Awaitable[None]]) -> None:
    """Start ``cardcore serve`` as a child process and run ``script`` against it."""

    async def main() -> None:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "cardcore", "serve", "--bot-seconds", "20"]
        )
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()

            async def call(tool: str, arguments: dict[str, Any]) -> Any:
                result = await session.call_tool(tool, arguments)
                first = result.content[0]
                assert isinstance(first, TextContent)
                if result.is_error:
                    return {"tool_error": first.text}
                assert result.structured_content is not None
                # The text content is the same answer, for clients without structured output.
                assert json.loads(first.text) == result.structured_content
                return result.structured_content

            await script(call)

    asyncio.run(asyncio.wait_for(main(), timeout=240))


def test_a_scripted_agent_plays_every_game_to_the_end() -> None:
    """Four matches at once, one per game, each played to its end through the tools."""

    async def script(call: Call) -> None:
        listed = await call("list_games", {})
        assert set(GAMES) <= {g["game"] for g in listed["games"]}
        views = {}
        for game, n in sorted(GAMES.items()):
            views[game] = await call(
                "start_match",
                {"game": game, "players": n, "bots": [f"{game}-heuristic"], "seed": 11},
            )
        assert len({v["match"] for v in views.values()}) == len(GAMES)
        for game, first in views.items():
            match, view = first["match"], first
            while not view["over"]:
                assert view["your_turn"], view
                legal = (await call("list_legal_actions", {"match_id": match}))["legal_actions"]
                assert legal == view["legal_actions"]
                view = await call("play_action", {"match_id": match, "action": legal[-1]})
                assert view["ok"], view
            result = await call("get_result", {"match_id": match})
            assert result["over"] is True, game
            assert result["outcome"]["forfeit"] is None, result["outcome"]
            assert result["record"]["game"] == game
            assert result["record"]["bots"][0] == "agent"
            assert (await call("close_match", {"match_id": match}))["closed"] is True

    _with_server(script)


def test_refusals_and_errors_come_back_as_answers() -> None:
    """An illegal action names the reason and the legal actions; a bad request is a tool error."""

    async def script(call: Call) -> None:
        view = await call("start_match", {"game": "nyuri", "players": 2, "seed": 4})
        match = view["match"]
        bad = await call("play_action", {"match_id": match, "action": "fly away"})
        assert bad["ok"] is False
        assert "cannot read" in bad["error"]
        assert bad["legal_actions"] == view["legal_actions"]
        again = await call("get_observation", {"match_id": match})
        assert again["observation"] == view["observation"]
        err = await call("get_observation", {"match_id": "m99"})
        assert "no match 'm99'" in err["tool_error"]
        err = await call("start_match", {"game": "chess"})
        assert "chess" in err["tool_error"]
        err = await call("get_observation", {"match_id": match, "seat": 1})
        assert "not yours" in err["tool_error"]

    _with_server(script)


def test_answers_through_the_server_do_not_leak() -> None:
    """Two matches differing only in cards the agent cannot see answer identically."""

    async def script(call: Call) -> None:
        for game, n in sorted(GAMES.items()):
            deck_a, deck_b, seat = swap_hidden(game, n, seed=8)
            answers = []
            for deck in (deck_a, deck_b):
                view = await call(
                    "start_match",
                    {"game": game, "players": n, "seats": [seat], "seed": 8, "deck": deck},
                )
                match = view.pop("match")
                obs = await call("get_observation", {"match_id": match})
                legal = await call("list_legal_actions", {"match_id": match})
                res = await call("get_result", {"match_id": match})
                bad = await call("play_action", {"match_id": match, "action": "zz"})
                for d in (obs, legal, res):
                    d.pop("match")
                answers.append((view, obs, legal, res, bad))
                await call("close_match", {"match_id": match})
            assert answers[0] == answers[1], game

    _with_server(script)

"""``cardcore serve`` end to end: the MCP SDK's own client talks to it over stdio."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult, TextContent

import cardcore
from cardcore._host import default_host
from cardcore._mcp import build_server
from cardcore._service import MatchService
from tests.serve.decks import GAMES, swap_hidden

Call = Callable[[str, dict[str, Any]], Awaitable[Any]]


def _answer(result: CallToolResult) -> Any:
    """A tool's structured answer, or ``{"tool_error": text}``."""
    first = result.content[0]
    assert isinstance(first, TextContent)
    if result.is_error:
        return {"tool_error": first.text}
    assert result.structured_content is not None
    # The text content is the same answer, for clients without structured output.
    assert json.loads(first.text) == result.structured_content
    return result.structured_content


def _with_session(
    script: Callable[[ClientSession, Call], Awaitable[None]], *serve_args: str
) -> None:
    """Start ``cardcore serve SERVE_ARGS`` as a child process and run ``script`` against it."""

    async def main() -> None:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "cardcore", "serve", "--bot-seconds", "20", *serve_args],
        )
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            init = await session.initialize()
            assert init.server_info.name == "cardcore"
            assert init.server_info.version == cardcore.__version__

            async def call(tool: str, arguments: dict[str, Any]) -> Any:
                return _answer(await session.call_tool(tool, arguments))

            await script(session, call)

    asyncio.run(asyncio.wait_for(main(), timeout=240))


def _with_server(script: Callable[[Call], Awaitable[None]]) -> None:
    """Start ``cardcore serve`` as a child process and run ``script`` against its tools."""

    async def tools_only(session: ClientSession, call: Call) -> None:
        await script(call)

    _with_session(tools_only)


async def _play_to_the_end(call: Call, view: dict[str, Any], seen: list[str]) -> dict[str, Any]:
    """Play the last legal action until the match is over; every answer's text goes to seen."""
    match = view["match"]
    for _ in range(5000):
        if view["over"]:
            break
        assert view["your_turn"], view
        early = await call("get_result", {"match_id": match})
        assert early["over"] is False and "record" not in early
        seen.append(json.dumps(early, ensure_ascii=False))
        view = await call("play_action", {"match_id": match, "action": view["legal_actions"][-1]})
        assert view["ok"], view
        seen.append(json.dumps(view, ensure_ascii=False))
    result: dict[str, Any] = await call("get_result", {"match_id": match})
    assert result["over"] is True
    return result


def test_a_scripted_agent_plays_every_game_to_the_end() -> None:
    """Four matches at once, one per game, each played to its end through the tools."""

    async def script(call: Call) -> None:
        listed = await call("list_games", {})
        assert set(GAMES) <= {g["game"] for g in listed["games"]}
        views = {}
        for game, n in sorted(GAMES.items()):
            views[game] = await call(
                "start_match",
                {"game": game, "players": n, "bots": [f"{game}-heuristic"]},
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
        view = await call("start_match", {"game": "nyuri", "players": 2})
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
    """Two matches differing only in cards the agent cannot see answer identically.

    The operator (the code that runs the service) stacks the two decks; the agent's
    answers come through the MCP server's tools, over the SDK's in-process client.
    """

    async def main() -> None:
        for game, n in sorted(GAMES.items()):
            deck_a, deck_b, seat = swap_hidden(game, n, seed=8)
            answers = []
            for deck in (deck_a, deck_b):
                svc = MatchService()
                first = svc.start_match(
                    game, players=n, seats=[seat], bots=["random"], seed=8, deck=deck
                )
                async with Client(build_server(svc)) as client:

                    async def call(tool: str, arguments: dict[str, Any]) -> Any:
                        return _answer(await client.call_tool(tool, arguments))

                    match = first["match"]
                    obs = await call("get_observation", {"match_id": match})
                    legal = await call("list_legal_actions", {"match_id": match})
                    res = await call("get_result", {"match_id": match})
                    bad = await call("play_action", {"match_id": match, "action": "zz"})
                    answers.append((first, obs, legal, res, bad))
            assert answers[0] == answers[1], game

    asyncio.run(asyncio.wait_for(main(), timeout=240))


def test_the_server_teaches_every_game_and_sets_an_agent_up_for_a_match() -> None:
    """Each game's rules are a resource and a tool; the prompt's setup plays a full match."""
    specs = {name: spec for name, spec in default_host().games().items() if spec.rules_text}
    assert set(GAMES) <= set(specs)

    async def script(session: ClientSession, call: Call) -> None:
        listed = {str(r.uri): r for r in (await session.list_resources()).resources}
        for name, spec in specs.items():
            uri = f"cardcore://rules/{name}"
            assert listed[uri].mime_type == "text/markdown"
            read = await session.read_resource(uri)
            assert [getattr(c, "text", None) for c in read.contents] == [spec.rules_text]
            got = await call("get_rules", {"game": name})
            assert got["rules"] == spec.rules_text and got["title"] == spec.title
        assert "chess" in (await call("get_rules", {"game": "chess"}))["tool_error"]
        prompts = {p.name for p in (await session.list_prompts()).prompts}
        assert "play_match" in prompts
        prompt = await session.get_prompt(
            "play_match", {"game": "nyuri", "seat": "1", "players": "3", "preset": "pagat"}
        )
        [message] = prompt.messages
        assert message.role == "user"
        assert isinstance(message.content, TextContent)
        text = message.content.text
        assert specs["nyuri"].rules_text.strip() in text
        assert "seat 1 of a 3-player table" in text and "'pagat' preset" in text
        assert "play_action" in text and "legal_actions" in text
        args = json.loads(text.split("these arguments: ")[1].split(" (add")[0].replace("'", '"'))
        assert args == {"game": "nyuri", "seats": [1], "players": 3, "preset": "pagat"}
        view = await call("start_match", {**args, "bots": ["nyuri-heuristic"]})
        assert view["seat"] == 1
        result = await _play_to_the_end(call, view, [])
        assert result["record"]["num_players"] == 3
        assert result["record"]["preset"] == "pagat"
        assert result["record"]["bots"] == ["nyuri-heuristic", "agent", "nyuri-heuristic"]

    _with_session(script)


def test_the_agent_cannot_choose_or_learn_the_deal_before_the_end() -> None:
    """Unseeded matches deal differently, and no answer before the end carries the seed."""

    async def script(session: ClientSession, call: Call) -> None:
        seen = [json.dumps(await call("list_games", {}), ensure_ascii=False)]
        views = []
        for _ in range(2):
            # An agent's seed or deck is not part of the tool: it changes nothing.
            view = await call(
                "start_match", {"game": "nyuri", "players": 2, "seed": 0, "deck": ["A♠"]}
            )
            seen.append(json.dumps(view, ensure_ascii=False))
            views.append(view)
        hands = [v["observation"]["table"]["zones"]["hand0"] for v in views]
        assert hands[0] != hands[1]
        results = [await _play_to_the_end(call, v, seen) for v in views]
        seeds = [r["record"]["seed"] for r in results]
        assert seeds[0] != seeds[1]
        for seed in seeds:
            assert seed != 0
            assert not any(str(seed) in text for text in seen)

    _with_session(script)


def test_the_operator_fixes_the_seeds_with_serve_seed() -> None:
    """With --seed S the first match is dealt with S, the next with S + 1; bots fill seats."""

    async def script(session: ClientSession, call: Call) -> None:
        wrong = await call("start_match", {"game": "nyuri", "players": 4, "bots": ["a", "b"]})
        assert "2 bots for 3 other seat(s)" in wrong["tool_error"]
        seeds = []
        for _ in range(2):
            view = await call("start_match", {"game": "nyuri", "bots": ["random", "random"]})
            result = await _play_to_the_end(call, view, [])
            assert result["record"]["bots"] == ["agent", "random", "random"]
            seeds.append(result["record"]["seed"])
        assert seeds == [1234, 1235]

    _with_session(script, "--seed", "1234")

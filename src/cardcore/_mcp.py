"""``cardcore serve``: every installed game as tools of a Model Context Protocol server.

An LLM agent (or any MCP client) lists the games, starts matches against installed bots
and plays them by action text. The tools are a thin layer over
:class:`cardcore._service.MatchService`, which answers only from the observations of the
agent's own seats. Needs the ``mcp`` extra (``pip install './[mcp]'`` in a cardcore checkout).
"""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from cardcore._service import MatchService, ServiceError

__all__ = ["build_server"]

_INSTRUCTIONS = """\
Play card games installed with cardcore. Call list_games to see the games, their player
counts, presets, options and bots. start_match seats you at one or more seats and fills
the others with bots; it answers with a match id and your view. Each view holds `text`
(the table as your seat sees it), `observation` (the same as JSON), `your_turn` and, when
it is your turn, `legal_actions` as texts. Play one of those texts with play_action; a
refused action changes nothing and the answer lists what is legal. get_result gives the
outcome and the full match record once the match is over. You only ever see what your
seats may know."""


def build_server(service: MatchService | None = None) -> MCPServer:
    """The MCP server, its tools bound to ``service`` (a new one by default)."""
    svc = service if service is not None else MatchService()
    server = MCPServer(name="cardcore", instructions=_INSTRUCTIONS, log_level="WARNING")

    def guard(call: Any) -> dict[str, Any]:
        try:
            result: dict[str, Any] = call()
        except ServiceError as e:
            raise ToolError(str(e)) from None
        return result

    @server.tool()
    def list_games() -> dict[str, Any]:
        """List the installed games with players, presets, options (allowed values) and bots."""
        return {"games": svc.list_games()}

    @server.tool()
    def start_match(
        game: str,
        seats: list[int] | None = None,
        bots: list[str] | None = None,
        players: int | None = None,
        preset: str = "default",
        options: dict[str, str] | None = None,
        seed: int = 0,
        deck: list[str] | None = None,
    ) -> dict[str, Any]:
        """Start a match: you play `seats` (default [0]); `bots` play the others, in seat order.

        A shorter bot list is repeated. `players` defaults to the game's smallest count;
        `options` overrides the preset's options (values as text); `deck` stacks the deck
        (card texts, top first) instead of the first shuffle. Returns the match id and your first view.
        """
        return guard(
            lambda: svc.start_match(
                game,
                seats=seats if seats is not None else [0],
                bots=bots if bots is not None else ["random"],
                players=players,
                preset=preset,
                options=options,
                seed=seed,
                deck=deck,
            )
        )

    @server.tool()
    def get_observation(match_id: str, seat: int | None = None) -> dict[str, Any]:
        """Your view of a match: the table as text and JSON, whose turn, your legal actions."""
        return guard(lambda: svc.observation(match_id, seat))

    @server.tool()
    def list_legal_actions(match_id: str, seat: int | None = None) -> dict[str, Any]:
        """Your legal actions as texts (empty when it is not your turn)."""
        return guard(lambda: svc.legal_actions(match_id, seat))

    @server.tool()
    def play_action(match_id: str, action: str, seat: int | None = None) -> dict[str, Any]:
        """Play one of your legal actions by its text; the bots then play until your next turn.

        A refused action changes nothing: the answer has `ok: false`, the reason and the
        legal actions.
        """
        return guard(lambda: svc.play(match_id, action, seat))

    @server.tool()
    def get_result(match_id: str) -> dict[str, Any]:
        """Whether the match is over; then its outcome and its full record (every action)."""
        return guard(lambda: svc.result(match_id))

    @server.tool()
    def close_match(match_id: str) -> dict[str, Any]:
        """Drop a match you no longer need (idle matches are dropped after 30 minutes)."""
        return guard(lambda: svc.close(match_id))

    return server


def serve(*, bot_seconds: float, idle_seconds: float, max_matches: int) -> None:
    """Run the server over stdio until the client closes it."""
    svc = MatchService(bot_seconds=bot_seconds, idle_seconds=idle_seconds, max_matches=max_matches)
    build_server(svc).run("stdio")

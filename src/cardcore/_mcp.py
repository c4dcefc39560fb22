"""``cardcore serve``: every installed game as tools of a Model Context Protocol server.

An LLM agent (or any MCP client) lists the games, starts matches against installed bots
and plays them by action text. The tools are a thin layer over
:class:`cardcore._service.MatchService`, which answers only from the observations of the
agent's own seats. Needs the ``mcp`` extra (``pip install './[mcp]'`` in a cardcore checkout).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.resources import TextResource

from cardcore._service import MatchService, RecordWriter, ServiceError

__all__ = ["build_server"]

RULES_URI = "cardcore://rules/{game}"
"""The address of a game's rules as an MCP resource."""

_INSTRUCTIONS = """\
Play card games installed with cardcore. Call list_games to see the games, their player
counts, presets, options and bots; read a game's rules with get_rules (or the resource
cardcore://rules/GAME), or let the play_match prompt set you up. start_match seats you at
one or more seats and fills the others with bots; the server deals the cards, and you
learn the match's seed only from the record once it is over. It answers with a match id
and your view. Each view holds `text`
(the table as your seat sees it), `observation` (the same as JSON), `your_turn` and, when
it is your turn, `legal_actions` as texts. Play one of those texts with play_action; a
refused action changes nothing and the answer lists what is legal. get_result gives the
outcome and the full match record once the match is over. You only ever see what your
seats may know."""


def build_server(service: MatchService | None = None) -> MCPServer:
    """The MCP server, its tools bound to ``service`` (a new one by default)."""
    from cardcore import __version__

    svc = service if service is not None else MatchService()
    server = MCPServer(
        name="cardcore", version=__version__, instructions=_INSTRUCTIONS, log_level="WARNING"
    )

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

    for game in svc.list_games():
        if game["has_rules"]:
            name = game["game"]
            server.add_resource(
                TextResource(
                    uri=RULES_URI.format(game=name),
                    name=f"rules-{name}",
                    title=f"{game['title']}: the rules",
                    description=f"How to play {game['title']}: the aim, the deal, a turn, "
                    "scoring, the end, the presets and how actions are written",
                    mime_type="text/markdown",
                    text=svc.rules(name)["rules"],
                )
            )

    @server.tool()
    def get_rules(game: str) -> dict[str, Any]:
        """A game's rules (Markdown): aim, deal, a turn, scoring, the end, presets, action texts."""
        return guard(lambda: svc.rules(game))

    @server.tool()
    def start_match(
        game: str,
        seats: list[int] | None = None,
        bots: list[str] | None = None,
        players: int | None = None,
        preset: str = "default",
        options: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """Start a match: you play `seats` (default [0]); `bots` play the others.

        One bot fills every other seat; several bots give one per other seat, in seat
        order, and must be exactly as many. `players` defaults to your seats plus the
        bots when several are named, else to the game's smallest count. `options`
        overrides the preset's options (values as text). The server deals: the seed is
        in the record that get_result gives once the match is over. Returns the match id
        and your first view.
        """
        return guard(
            lambda: svc.start_match(
                game,
                seats=seats if seats is not None else [0],
                bots=bots if bots is not None else ["random"],
                players=players,
                preset=preset,
                options=options,
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

    @server.prompt(title="Play a match of a cardcore game")
    def play_match(game: str, seat: str = "0", players: str = "", preset: str = "default") -> str:
        """Sets you up for a match: the game's rules, your seat, and how to play it here."""
        return guard_text(lambda: _match_prompt(svc, game, seat, players, preset))

    return server


def guard_text(call: Any) -> str:
    """A prompt's text, or the service's refusal as an error the client sees."""
    try:
        text: str = call()
    except ServiceError as e:
        raise ValueError(str(e)) from None
    return text


def _match_prompt(svc: MatchService, game: str, seat: str, players: str, preset: str) -> str:
    """The text that sets an agent up for one match."""
    info = svc.rules(game)
    low, high = info["players"]
    try:
        me = int(seat)
        n = int(players) if players.strip() else max(low, min(high, me + 1))
    except ValueError:
        raise ServiceError(
            f"seat and players must be whole numbers, not {seat!r} and {players!r}"
        ) from None
    if not low <= n <= high:
        raise ServiceError(f"{game} is for {low}-{high} players, not {n}")
    if not 0 <= me < n:
        raise ServiceError(f"seat must be among 0-{n - 1}, not {me}")
    if preset not in info["presets"]:
        raise ServiceError(
            f"{game} has no preset {preset!r} (presets: {', '.join(info['presets'])})"
        )
    args = {"game": game, "seats": [me], "players": n, "preset": preset}
    return f"""\
You are about to play one match of {info["title"]} ({game}), sitting at seat {me} of a \
{n}-player table (seats 0 to {n - 1}), under the {preset!r} preset. Installed bots play \
the other seats. Play to win.

The rules of {info["title"]}:

{info["rules"].strip()}

How to play here:
- Start the match with the start_match tool and these arguments: {args} (add "bots": \
[...] to choose your opponents; list_games names the bots that play {game}). The server \
deals the cards; you cannot choose or learn the deal.
- Each answer is your view: `text` is the table as your seat sees it, `observation` the \
same as JSON, `your_turn` says whether you are to move, and `legal_actions` lists, when \
it is your turn, every action you may take, as texts.
- Play by calling play_action with the match id and one of those texts, exactly as \
listed (they are written as the rules' "Writing actions" says). The bots then play \
until it is your turn again, and the answer is your next view. A refused action \
changes nothing: the answer says why and lists what is legal.
- You see only what your seat may know: your own cards and what is played face up.
- When `over` is true, call get_result for the outcome and the match's full record.
"""


def serve(
    *,
    bot_seconds: float,
    idle_seconds: float,
    max_matches: int,
    seed: int | None = None,
    record: Path | None = None,
) -> None:
    """Run the server over stdio until the client closes it.

    With ``record``, each finished match's full record is written to that folder.
    """
    svc = MatchService(
        bot_seconds=bot_seconds,
        idle_seconds=idle_seconds,
        max_matches=max_matches,
        seed=seed,
        on_finish=RecordWriter(record) if record is not None else None,
    )
    build_server(svc).run("stdio")

"""The ``llm`` bot: a language model plays a seat, through the ``llm`` library.

The model is any one the `llm <https://llm.datasette.io>`_ library knows: hosted ones
(with their keys) and local ones through its plugins. Each match is one conversation:
the game's rules (:attr:`cardcore.GameSpec.rules_text`) once, as its system prompt,
then at each decision the seat's own observation as text (``game.render``) and, unless
turned off, its legal actions. The answer is read with the game's own ``parse_action``;
an unreadable or illegal answer is sent back with the reason, up to ``retries`` times,
then the bot raises and the seat forfeits as any bot does.

A model that needs a key (a hosted one) gets it from the environment variable
:data:`KEY_VARIABLE`, or the one its ``key_env`` option names, when set; otherwise the
``llm`` library looks as it always does (its keys file, the provider's own variable). A
bot in its own process sees only ``CARDCORE_BOT_*`` variables
(:func:`cardcore._sandbox.bot_environment`): that is how it gets its key there.

Needs the ``llm`` extra (``pip install './[llm]'`` in a checkout, or ``pip install llm``); the library is imported only
when an ``llm`` bot is built.
"""

from __future__ import annotations

import importlib
import itertools
import json
import os
import re
import threading
import time
from pathlib import Path
from typing import Any, Final, final

__all__ = ["DEFAULT_TEMPLATE", "KEY_VARIABLE", "LLMBot", "LLMForfeit"]

DEFAULT_TEMPLATE: Final = """\
{observation}

Your legal actions, one per line:
{legal_actions}

Answer with one of them, exactly as written, and nothing else."""
"""The decision prompt: ``{observation}`` is the seat's view, ``{legal_actions}`` the list."""

_BARE_TEMPLATE: Final = """\
{observation}

It is your turn. Answer with your action, written as the rules say, and nothing else."""
"""The decision prompt with ``legal=false``."""

_SYSTEM: Final = """\
You are playing a card game, {title}, at seat {seat} of a {players}-player table \
(seats 0 to {last}). Play to win. At each of your turns you are shown the table as your \
seat sees it, and you answer with one action.

The rules of {title}:

{rules}"""

_FEEDBACK: Final = """\
That answer cannot be played: {reason}. Answer again with one legal action, exactly as \
written, and nothing else."""

KEY_VARIABLE: Final = "CARDCORE_BOT_LLM_KEY"
"""The environment variable a model's key is read from, unless ``key_env`` names another."""

MAX_LISTED: Final = 200
"""At most this many legal actions are listed in a prompt (the rest are counted)."""

_counter = itertools.count()
_REGISTERING = threading.Lock()


@final
class LLMForfeit(RuntimeError):
    """The model gave no legal action in all its tries: the seat forfeits."""


def _clean(line: str) -> str:
    """An answer line without list marks, quotes, code marks or an ``Action:`` label."""
    text = line.strip()
    text = re.sub(r"^(?:[-*•>]|\d+[.)])\s+", "", text)
    text = re.sub(r"^(?:action|answer|move)\s*:\s*", "", text, flags=re.IGNORECASE)
    text = text.strip().strip("`'\"*").strip()
    return text.rstrip(".").strip()


def _short(text: str, limit: int = 80) -> str:
    one = " ".join(text.split())
    return one if len(one) <= limit else one[: limit - 3] + "..."


@final
class LLMBot:
    """Asks a language model for each decision, through the ``llm`` library.

    Args:
        game: the rules (the engine passes them).
        seed: unused (a model is as random as its provider makes it).
        model: the model id or alias, as ``llm models`` lists it.
        temperature: the sampling temperature, for models that take one (none: the
            model's default).
        retries: how many times an unreadable or illegal answer is sent back with the
            reason before the seat forfeits.
        legal: whether each decision prompt lists the legal actions.
        template: the decision prompt, with ``{observation}`` and ``{legal_actions}``
            (``@FILE`` reads it from a file); empty: the built-in one.
        plugin: a module to register as an ``llm`` plugin first (``package.module``),
            for a model plugin that is not installed as a distribution.
        log: a folder where each match's transcript (prompts, answers, retries, tokens,
            seconds) is written as JSON, one file per seat.
        key_env: the environment variable that holds the model's key (default:
            :data:`KEY_VARIABLE`, when set). Only ``CARDCORE_BOT_*`` variables reach a
            bot in its own process. The key itself is never recorded.

    Raises:
        ValueError: the ``llm`` library is missing, the model is unknown, an option is out
            of range, or the model needs a key that cannot be found.
    """

    name = "llm"

    def __init__(
        self,
        game: Any = None,
        *,
        seed: int = 0,
        model: str = "",
        temperature: float | None = None,
        retries: int = 2,
        legal: bool = True,
        template: str = "",
        plugin: str = "",
        log: str = "",
        key_env: str = "",
    ) -> None:
        if not 0 <= retries <= 20:
            raise ValueError(f"retries must be 0-20, not {retries}")
        self._model, self._options = _load_model(model, temperature, plugin)
        key = _key_of(self._model, model, key_env)
        if key is not None:  # an option of the prompt, never of the record
            self._options = {**self._options, "key": key}
        self._template = _template_of(template, legal)
        self.model_id = model
        self.retries = retries
        self.legal = legal
        self._log = Path(log) if log else None
        self._game = game
        self._seat = 0
        self._players = 0
        self._conversation: Any = None
        self._system = ""
        self._logged = False
        self.transcript: list[dict[str, Any]] = []
        """This match's decisions: prompts, answers, errors, tokens and seconds of each."""
        self.totals: dict[str, float] = {}
        """This match's counts: decisions, answers, retries, tokens, seconds, forfeits."""

    # ---- a match -------------------------------------------------------------------

    def start_match(self, game: Any, seat: int, num_players: int) -> None:
        """A new conversation: the rules of ``game`` as its system prompt."""
        self._game = game
        self._seat = seat
        self._players = num_players
        self._system = _system_prompt(game, seat, num_players)
        self._conversation = self._model.conversation()
        self.transcript = []
        self._logged = False
        self.totals = dict.fromkeys(
            ("decisions", "answers", "retries", "input_tokens", "output_tokens", "seconds"), 0
        )
        self.totals["forfeits"] = 0

    def act(self, observation: Any) -> Any:
        """Ask the model, read its answer, send back what cannot be played; forfeit at last."""
        from cardcore._engine import accept
        from cardcore._isolation import Refused
        from cardcore.cli._human_text import without_legal

        if self._conversation is None:
            players = getattr(self._game, "min_players", 2)
            self.start_match(self._game, getattr(observation, "seat", 0), players)
        game = self._game
        legal = observation.legal_actions
        # The game's rendering lists the legal actions too: the template decides instead.
        view = str(game.render(without_legal(observation)))
        prompt = self._template.format(observation=view, legal_actions=_listing(legal))
        turn: dict[str, Any] = {
            "decision": len(self.transcript),
            "prompts": [],
            "answers": [],
            "errors": [],
            "input_tokens": 0,
            "output_tokens": 0,
            "seconds": 0.0,
        }
        self.transcript.append(turn)
        self.totals["decisions"] += 1
        why = ""
        for attempt in range(self.retries + 1):
            first = not self._conversation.responses
            start = time.monotonic()
            response = self._conversation.prompt(
                prompt, system=self._system if first else None, **self._options
            )
            answer = response.text()
            _count(turn, self.totals, prompt, answer, time.monotonic() - start, response.usage())
            self.totals["retries"] += attempt > 0
            found, why = _read(game, legal, answer, accept, Refused)
            if found is not None:
                turn["action"] = str(found)
                return found
            turn["errors"].append(why)
            prompt = _FEEDBACK.format(reason=why)
        self.totals["forfeits"] += 1
        self._write_log(forfeit=why)
        raise LLMForfeit(
            f"model {self.model_id!r} gave no legal action in {self.retries + 1} answer(s): {why}"
        )

    def match_transcript(self) -> list[dict[str, Any]]:
        """This match's decisions for the match record (the first carries the system prompt).

        Each is the decision's ``prompts``, ``answers``, ``errors`` (the reason sent back
        after each refused answer), ``input_tokens``, ``output_tokens``, ``cost`` (when
        the model reports one), ``seconds``, and the ``action`` played (none: forfeited).
        """
        out = [{k: v for k, v in turn.items() if k != "decision"} for turn in self.transcript]
        if out:
            out[0] = {"system": self._system, **out[0]}
        return out

    def end_match(self, outcome: Any) -> None:
        """Write the transcript when a log folder was given."""
        self._write_log(outcome=getattr(outcome, "reason", None))

    def _write_log(self, **extra: Any) -> None:
        if self._log is None or not self.transcript or self._logged:
            return
        self._logged = True
        name = getattr(self._game, "name", "game")
        data = {
            "model": self.model_id,
            "game": name,
            "seat": self._seat,
            "players": self._players,
            "system": self._system,
            "decisions": self.transcript,
            "totals": self.totals,
            **extra,
        }
        _write_json(self._log, f"{name}-seat{self._seat}", data)


def _load_model(model: str, temperature: float | None, plugin: str) -> tuple[Any, dict[str, Any]]:
    """The ``llm`` model named ``model`` and the options it is prompted with.

    Raises:
        ValueError: the library is missing, the model unknown, the temperature refused.
    """
    if not model:
        raise ValueError("the llm bot needs a model: llm:model=NAME ('llm models' lists them)")
    try:
        import llm
    except ModuleNotFoundError:
        raise ValueError(
            "the llm bot needs the llm library: pip install './[llm]' in a cardcore checkout "
            "(cardcore is not on PyPI), or pip install llm"
        ) from None
    if plugin:
        _register_plugin(llm, plugin)
    try:
        found = llm.get_model(model)
    except llm.UnknownModelError:
        known = ", ".join(sorted(m.model_id for m in llm.get_models())[:20])
        raise ValueError(
            f"llm knows no model {model!r} (some it knows: {known}); install its llm plugin "
            "or check 'llm models'"
        ) from None
    if temperature is None:
        return found, {}
    try:
        found.Options.model_validate({"temperature": temperature})
    except Exception as e:  # noqa: BLE001 - pydantic's error says what is wrong
        raise ValueError(f"model {model!r} takes no temperature {temperature}: {e}") from None
    return found, {"temperature": temperature}


def _key_of(found: Any, model: str, key_env: str) -> str | None:
    """The model's key from ``key_env`` or :data:`KEY_VARIABLE`; ``None``: the library's own.

    Raises:
        ValueError: ``key_env`` is no variable's name or is not set, or the model needs a
            key that the library cannot find either.
    """
    from cardcore._sandbox import BOT_PREFIX

    if key_env and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key_env):
        raise ValueError(f"key_env must name an environment variable, not {key_env!r}")
    key = os.environ.get(key_env or KEY_VARIABLE, "")
    if key:
        return key
    hint = f"a bot in its own process sees only the {BOT_PREFIX}* environment variables"
    if key_env:
        why = "" if key_env.startswith(BOT_PREFIX) else f" ({hint})"
        raise ValueError(f"key_env={key_env}: the environment variable {key_env} is not set{why}")
    import llm

    try:
        if getattr(found, "needs_key", None) is not None:
            found.get_key()
    except llm.NeedsKeyException as e:
        raise ValueError(
            f"model {model!r} needs a key: {e}. Or set {KEY_VARIABLE} to the key (another "
            f"variable: key_env=NAME); {hint}"
        ) from None
    return None


def _template_of(template: str, legal: bool) -> str:
    """The decision prompt: given, read from ``@FILE``, or the built-in one.

    Raises:
        ValueError: it uses a field other than ``{observation}`` and ``{legal_actions}``.
    """
    if template.startswith("@"):
        template = Path(template[1:]).read_text(encoding="utf-8")
    template = template or (DEFAULT_TEMPLATE if legal else _BARE_TEMPLATE)
    try:
        template.format(observation="", legal_actions="")
    except (KeyError, IndexError, ValueError) as e:
        raise ValueError(
            f"template may use only {{observation}} and {{legal_actions}} (and {{{{ }}}} for "
            f"braces): {e!r}"
        ) from None
    return template


def _system_prompt(game: Any, seat: int, players: int) -> str:
    """The system prompt of a match: the table, the seat and the game's rules."""
    from cardcore._host import PluginError, default_host

    try:
        spec = default_host().game_spec(game.name)
        title, rules = spec.title, spec.rules_text.strip()
    except (PluginError, AttributeError):
        title, rules = str(getattr(game, "name", "the game")), ""
    return _SYSTEM.format(
        title=title,
        seat=seat,
        players=players,
        last=players - 1,
        rules=rules or "(the game ships no rules text: read them from the table and the actions)",
    )


def _listing(legal: Any) -> str:
    """The legal actions, one a line (at most :data:`MAX_LISTED`, the rest counted)."""
    listed = [str(a) for a in itertools.islice(legal, MAX_LISTED)]
    listing = "\n".join(f"- {a}" for a in listed)
    more = len(legal) - len(listed)
    return listing + f"\n(and {more} more, not listed)" if more > 0 else listing


def _count(
    turn: dict[str, Any],
    totals: dict[str, float],
    prompt: str,
    answer: str,
    took: float,
    usage: Any,
) -> None:
    """Add one answer to its decision and to the match's counts."""
    turn["prompts"].append(prompt)
    turn["answers"].append(answer)
    turn["seconds"] += took
    totals["answers"] += 1
    totals["seconds"] += took
    for key, n in (("input_tokens", usage.input), ("output_tokens", usage.output)):
        turn[key] += n or 0
        totals[key] += n or 0
    cost = (usage.details or {}).get("cost")
    if isinstance(cost, int | float) and not isinstance(cost, bool):
        turn["cost"] = turn.get("cost", 0.0) + float(cost)
        totals["cost"] = totals.get("cost", 0.0) + float(cost)


def _write_json(folder: Path, stem: str, data: Any) -> None:
    """Write ``data`` to a new file in ``folder`` (created if missing)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem}-{os.getpid()}-{next(_counter)}.json"
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")


def _read(game: Any, legal: Any, answer: str, accept: Any, refused: type) -> tuple[Any, str]:
    """The legal action an answer names, or ``(None, why not)``.

    The whole answer is tried first, then each of its lines from the last; each without
    list marks, quotes or an ``Action:`` label.
    """
    lines = [ln for ln in answer.splitlines() if ln.strip()]
    candidates = [_clean(answer)] + [_clean(ln) for ln in reversed(lines)]
    illegal = ""
    unreadable = ""
    for text in dict.fromkeys(c for c in candidates if c):
        try:
            parsed = game.parse_action(text)
        except ValueError as e:
            unreadable = unreadable or str(e)
            continue
        found = accept(game, legal, str(parsed))
        if not isinstance(found, refused):
            return found, ""
        illegal = illegal or f"{str(parsed)!r} is not a legal action now"
    if illegal:
        return None, illegal
    if not candidates[0]:
        return None, "the answer was empty"
    return None, f"it names no action ({_short(unreadable) or 'unreadable'})"


def _register_plugin(llm: Any, module_name: str) -> None:
    """Register a module with llm's plugin manager (once per process)."""
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise ValueError(f"llm plugin {module_name!r} cannot be imported: {e}") from None
    pm = llm.plugins.pm
    with _REGISTERING:  # bots are built in several threads at once (arena --concurrency)
        if not pm.is_registered(module):
            pm.register(module, name=module_name)

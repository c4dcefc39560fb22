"""Deterministic fake language models, registered through the llm library's own plugin hook.

The llm bot names this module with its ``plugin`` option, so every process that builds
the bot (an arena's workers too) registers them: ``llm:model=fake-first,plugin=...``.
Nothing here reaches a network.

- ``fake-first``: answers the first legal action listed in the prompt.
- ``fake-script``: answers the lines of :data:`SCRIPT` in turn (for a retry test).
- ``fake-garbage``: answers something that is no action at all.
- ``fake-illegal``: every third decision first names an action of an earlier
  decision that is not legal now; told why, it answers the first legal action.
- ``fake-slow``: ``fake-first`` after a short sleep; with :data:`EVENTS` set in the
  environment, each answer appends ``enter ID`` and ``leave ID`` lines (``ID``: the
  conversation, one per match) to that file, so that a test can see matches overlap.
- ``fake-keyed``: ``fake-first`` for a caller with the key :data:`KEY` (found as the
  library finds any model's key: given, in its keys file, or in :data:`KEY_VARIABLE`);
  a wrong key is refused.

Every answer reports its tokens (words) and a cost of :data:`PRICE` per token.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import llm

EVENTS = "CARDCORE_FAKE_LLM_EVENTS"
"""The environment variable naming the file ``fake-slow`` logs its answers to."""

PRICE = 0.5
"""What every fake model reports a token costs (a round number, in no currency)."""

KEY = "fake-provider-key-4711"
"""The only key ``fake-keyed`` takes."""

KEY_VARIABLE = "CARDCORE_FAKE_PROVIDER_KEY"
"""The provider's own environment variable for ``fake-keyed``'s key (no bot process sees it)."""

SCRIPT: list[str] = []
"""The answers of ``fake-script``, taken from the front (tests fill it in)."""


def listed(prompt: str) -> list[str]:
    """The legal actions a decision prompt lists."""
    return [line[2:] for line in prompt.splitlines() if line.startswith("- ")]


def _first_listed(conversation: Any, prompt: str) -> str:
    """The first action listed in this prompt or, after a refusal, in the last decision's."""
    options = listed(prompt)
    if not options and conversation is not None:
        for response in reversed(conversation.responses):
            options = listed(response.prompt.prompt or "")
            if options:
                break
    return options[0] if options else "pass"


class _Fake(llm.Model):
    can_stream = False

    def __init__(self, model_id: str) -> None:
        self.model_id = model_id

    def answer(self, prompt: str, conversation: Any) -> str:
        return _first_listed(conversation, prompt)

    def execute(self, prompt: Any, stream: bool, response: Any, conversation: Any) -> Iterator[str]:
        text = self.answer(prompt.prompt or "", conversation)
        tokens_in, tokens_out = len((prompt.prompt or "").split()), len(text.split())
        response.set_usage(
            input=tokens_in, output=tokens_out, details={"cost": PRICE * (tokens_in + tokens_out)}
        )
        yield text


class _Script(_Fake):
    def answer(self, prompt: str, conversation: Any) -> str:
        return SCRIPT.pop(0)


class _Garbage(_Fake):
    def answer(self, prompt: str, conversation: Any) -> str:
        return "I would rather not say.\nPerhaps the blue one?"


class _Illegal(_Fake):
    def answer(self, prompt: str, conversation: Any) -> str:
        now = listed(prompt)
        decisions = [r for r in conversation.responses if listed(r.prompt.prompt or "")]
        if now and len(decisions) % 3 == 2:
            for response in reversed(decisions):
                stale = [a for a in listed(response.prompt.prompt or "") if a not in now]
                if stale:
                    return f"Action: {stale[0]}"
        return _first_listed(conversation, prompt)


class _Slow(_Fake):
    def answer(self, prompt: str, conversation: Any) -> str:
        path = os.environ.get(EVENTS)
        _event(path, f"enter {conversation.id}")
        time.sleep(0.02)
        _event(path, f"leave {conversation.id}")
        return _first_listed(conversation, prompt)


class _Keyed(llm.KeyModel):
    can_stream = False
    needs_key = "fake-provider"
    key_env_var = KEY_VARIABLE

    def __init__(self, model_id: str) -> None:
        self.model_id = model_id

    def execute(
        self, prompt: Any, stream: bool, response: Any, conversation: Any, key: str | None
    ) -> Iterator[str]:
        if key != KEY:
            raise ValueError("the fake provider refuses that key")
        response.set_usage(input=1, output=1)
        yield _first_listed(conversation, prompt.prompt or "")


def _event(path: str | None, line: str) -> None:
    """Append one line to the events file (one write: lines of processes never mix)."""
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(line + "\n")


@llm.hookimpl
def register_models(register: Any) -> None:
    """The fake models, as any llm plugin registers its models."""
    register(_Fake("fake-first"))
    register(_Script("fake-script"))
    register(_Garbage("fake-garbage"))
    register(_Illegal("fake-illegal"))
    register(_Slow("fake-slow"))
    register(_Keyed("fake-keyed"))

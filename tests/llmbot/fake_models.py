"""Deterministic fake language models, registered through the llm library's own plugin hook.

The llm bot names this module with its ``plugin`` option, so every process that builds
the bot (an arena's workers too) registers them: ``llm:model=fake-first,plugin=...``.
Nothing here reaches a network.

- ``fake-first``: answers the first legal action listed in the prompt.
- ``fake-script``: answers the lines of :data:`SCRIPT` in turn (for a retry test).
- ``fake-garbage``: answers something that is no action at all.
- ``fake-illegal``: every third decision first names an action of an earlier
  decision that is not legal now; told why, it answers the first legal action.
- ``fake-slow``: ``fake-first`` after a short sleep.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import llm

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
        response.set_usage(input=len((prompt.prompt or "").split()), output=len(text.split()))
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
        time.sleep(0.02)
        return _first_listed(conversation, prompt)


@llm.hookimpl
def register_models(register: Any) -> None:
    """The fake models, as any llm plugin registers its models."""
    register(_Fake("fake-first"))
    register(_Script("fake-script"))
    register(_Garbage("fake-garbage"))
    register(_Illegal("fake-illegal"))
    register(_Slow("fake-slow"))

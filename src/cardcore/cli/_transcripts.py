"""What bots logged of their decisions (``MatchRecord.transcripts``), shown as text.

A seat's transcript may hold its hidden cards (an ``llm`` seat's prompts show its hand),
so each point of view picks the seats it may show: a seat only its own, the record's
holder every seat. ``cardcore replay`` prints a one-line summary under each decision
that has a transcript, and the whole of it with ``--transcripts``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["blocks", "by_decision", "entry_lines", "summary"]

_SHOWN = frozenset(
    {"index", "system", "prompts", "answers", "errors", "action", "input_tokens",
     "output_tokens", "cost", "seconds", "error"}
)  # fmt: skip
"""The keys the text form lays out; any other key of an entry is shown as ``key: value``."""


def by_decision(
    transcripts: Sequence[Sequence[Mapping[str, Any]]], seats: Sequence[int]
) -> dict[int, list[tuple[int, Mapping[str, Any]]]]:
    """The entries of ``seats``, by the index of the decision they belong to.

    Returns:
        ``{index: [(seat, entry), ...]}``; index ``len(actions)`` is a forfeited decision.
    """
    out: dict[int, list[tuple[int, Mapping[str, Any]]]] = {}
    for seat in seats:
        if seat >= len(transcripts):
            continue
        for entry in transcripts[seat]:
            index = entry.get("index")
            if type(index) is int:
                out.setdefault(index, []).append((seat, entry))
    return out


def _count(entry: Mapping[str, Any], key: str) -> int:
    value = entry.get(key)
    return len(value) if isinstance(value, list) else 0


def _number(entry: Mapping[str, Any], key: str) -> float | None:
    value = entry.get(key)
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def summary(entry: Mapping[str, Any]) -> str:
    """One line: answers, refusals, tokens, cost and seconds (those the entry has)."""
    if "error" in entry:
        return f"transcript: {entry['error']}"
    parts = []
    answers = _count(entry, "answers")
    if answers:
        parts.append(f"{answers} answer{'s' if answers != 1 else ''}")
    refused = _count(entry, "errors")
    if refused:
        parts.append(f"{refused} refused")
    tokens_in, tokens_out = _number(entry, "input_tokens"), _number(entry, "output_tokens")
    if tokens_in or tokens_out:
        parts.append(f"{tokens_in or 0:.0f} tokens in, {tokens_out or 0:.0f} out")
    cost = _number(entry, "cost")
    if cost is not None:
        parts.append(f"cost {cost:g}")
    seconds = _number(entry, "seconds")
    if seconds is not None:
        parts.append(f"{seconds:.2f} s")
    if "action" not in entry and answers:
        parts.append("no legal action")
    return "transcript: " + (", ".join(parts) or "(empty)")


def _block(label: str, text: str) -> list[str]:
    lines = str(text).splitlines() or [""]
    return [label, *(f"  | {line}" for line in lines)]


def _list(entry: Mapping[str, Any], key: str) -> list[Any]:
    value = entry.get(key)
    return value if isinstance(value, list) else []


def blocks(entry: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The entry as labelled texts: system prompt, each prompt, answer and refusal, others.

    Labels are ``system prompt``, ``prompt N``, ``answer N``, ``refused`` and the other
    keys of the entry.
    """
    out: list[tuple[str, str]] = []
    if "system" in entry:
        out.append(("system prompt", str(entry["system"])))
    prompts, answers, errors = (_list(entry, k) for k in ("prompts", "answers", "errors"))
    for i in range(max(len(prompts), len(answers))):
        if i < len(prompts):
            out.append((f"prompt {i + 1}", str(prompts[i])))
        if i < len(answers):
            out.append((f"answer {i + 1}", str(answers[i])))
        if i < len(errors):
            out.append(("refused", str(errors[i])))
    out += [(k, str(v)) for k, v in entry.items() if k not in _SHOWN]
    return out


def entry_lines(entry: Mapping[str, Any]) -> list[str]:
    """The whole entry as text: its summary, then each of its :func:`blocks`."""
    out = [summary(entry)]
    for label, text in blocks(entry):
        if label.startswith(("system prompt", "prompt ", "answer ")):
            out += _block(f"{label}:", text)
        else:
            out.append(f"{label}: {text}")
    return out

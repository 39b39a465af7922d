"""Step ids: ``scores``, a head's ``h2.scores``, and the prefixes that make them.

>>> split_id("h2.scores"), split_id("scores")
((2, 'scores'), (None, 'scores'))
>>> head_prefix(1), head_prefix(None)
('h2.', '')
"""

from __future__ import annotations

__all__ = ["base_id", "head_prefix", "split_id"]


def split_id(step_id: str) -> tuple[int | None, str]:
    """``"h2.scores"`` → ``(2, "scores")``; ``"scores"`` → ``(None, "scores")``."""
    if step_id.startswith("h") and "." in step_id:
        head, base = step_id.split(".", 1)
        if head[1:].isdigit():
            return int(head[1:]), base
    return None, step_id


def base_id(step_id: str) -> str:
    """The id without its head prefix: ``h2.scores`` → ``scores``."""
    return split_id(step_id)[1]


def head_prefix(head: int | None) -> str:
    """The prefix of head ``head`` (0-based): ``h1.``; none for a single head."""
    return "" if head is None else f"h{head + 1}."

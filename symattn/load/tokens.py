"""Vocabulary, tokenisation and the embedding lookup: text → tokens → ids → rows.

Text with spaces is split on them; text without spaces (Chinese, say) is cut by
greedy longest match against the vocabulary, so "我爱苹果" gives 我 / 爱 / 苹果 when
苹果 is a vocabulary entry.  The match walks a trie of the vocabulary (time linear in the
text times the longest token), and stops as soon as the tokens exceed the size limit, so
a text of millions of tokens is refused before it is split.

>>> vocab = Vocabulary.from_data(["<unk>", "我", "爱", "苹果"], [[0], [1], [2], [3]], "p")
>>> tokenize("我爱苹果", vocab, "p")
(['我', '爱', '苹果'], [1, 2, 3])
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..errors import SymattnError
from ..record import Record

__all__ = ["MAX_TOKEN_ID", "Vocabulary", "tokenize"]

#: Largest token id (2⁵³ − 1: every id is also an exact float64, for the cross-check).
MAX_TOKEN_ID = 2**53 - 1
#: Vocabulary entries compared with an unknown token for the hint of the error message.
_CLOSEST_SCAN = 2_000


class Vocabulary(Record):
    """Token → id, and id → embedding row (raw values, parsed later)."""

    ids: dict[str, int]
    rows: dict[int, list[Any]]
    source: str

    @classmethod
    def from_data(cls, vocab: Any, embedding: Any, source: str) -> Vocabulary:
        ids: dict[str, int]
        if isinstance(vocab, list):
            if not vocab or not all(isinstance(t, str) and t for t in vocab):
                raise SymattnError(f"{source}: vocab: expected a list of non-empty strings")
            ids = {}
            for i, token in enumerate(vocab):
                if token in ids:
                    raise SymattnError(
                        f"{source}: vocab: {token!r} appears twice (ids {ids[token]} and {i})"
                    )
                ids[token] = i
        elif isinstance(vocab, Mapping):
            ids = {}
            for token, token_id in vocab.items():
                if (
                    isinstance(token_id, bool)
                    or not isinstance(token_id, int)
                    or not 0 <= token_id <= MAX_TOKEN_ID
                ):
                    big = isinstance(token_id, int) and token_id > MAX_TOKEN_ID
                    shown = f"an id of {len(str(token_id))} digits" if big else repr(token_id)
                    raise SymattnError(
                        f"{source}: vocab.{token}: expected an integer id 0 … {MAX_TOKEN_ID}, "
                        f"found {shown}"
                    )
                ids[str(token)] = token_id
            if not ids:
                raise SymattnError(f"{source}: vocab: the vocabulary is empty")
        else:
            raise SymattnError(f"{source}: vocab: expected a list of tokens or a table token → id")
        rows: dict[int, list[Any]] = {}
        if isinstance(embedding, list):
            if isinstance(vocab, list) and len(embedding) != len(vocab):
                raise SymattnError(
                    f"{source}: embedding has {len(embedding)} rows but vocab has "
                    f"{len(vocab)} tokens; the embedding needs one row per vocabulary id"
                )
            rows = dict(enumerate(embedding))
        elif isinstance(embedding, Mapping):
            for key, row in embedding.items():
                text = str(key).strip()
                if not (text.isascii() and text.isdigit() and len(text) <= 16):
                    raise SymattnError(f"{source}: embedding: key {key!r} is not an integer id")
                token_id = int(text, 10)
                rows[token_id] = row
        else:
            raise SymattnError(f"{source}: embedding: expected a list of rows or a table id → row")
        width: int | None = None
        for token_id, row in rows.items():
            if not isinstance(row, list) or not row:
                raise SymattnError(
                    f"{source}: embedding[{token_id}]: expected a non-empty row of numbers"
                )
            if width is None:
                width = len(row)
            elif len(row) != width:
                raise SymattnError(
                    f"{source}: embedding[{token_id}]: ragged embedding: this row has "
                    f"{len(row)} entries but the others have {width}"
                )
        return cls(ids, rows, source)

    def row(self, token_id: int) -> list[Any]:
        if token_id not in self.rows:
            token = next(t for t, i in self.ids.items() if i == token_id)
            raise SymattnError(
                f"{self.source}: embedding: no row for id {token_id} (token {token!r}); add "
                f"{token_id} = [...] to the embedding"
            )
        return self.rows[token_id]

    def closest(self, piece: str, count: int = 3) -> list[str]:
        """Vocabulary entries that look most like ``piece`` (for error messages)."""
        entries = list(self.ids)[:_CLOSEST_SCAN]
        import difflib  # only for a token not in the vocabulary (start-up, issue 24)

        close = difflib.get_close_matches(piece[:100], entries, n=count, cutoff=0.3)
        if not close:
            close = [t for t in entries if set(t) & set(piece)][:count]
        return close


def _unknown(piece: str, position: str, vocab: Vocabulary) -> SymattnError:
    close = vocab.closest(piece)
    if close:
        hint = f"; closest vocabulary entries: {', '.join(close)}"
    else:
        entries = list(vocab.ids)
        more = ", …" if len(entries) > 8 else ""
        hint = f"; nothing in the vocabulary is close (it holds {', '.join(entries[:8])}{more})"
    return SymattnError(
        f"{vocab.source}: text: unknown token {piece!r} at {position}, not in vocab{hint}"
    )


def _trie(ids: Mapping[str, int]) -> dict[str, object]:
    """A trie of the vocabulary: nested dicts, ``""`` marking the end of a token."""
    root: dict[str, object] = {}
    for token in ids:
        node = root
        for ch in token:
            node = node.setdefault(ch, {})  # type: ignore[assignment]
        node[""] = True
    return root


def _longest(text: str, pos: int, trie: dict[str, object]) -> int:
    """Length of the longest vocabulary token at ``text[pos:]`` (0 if none)."""
    node, best, end = trie, 0, pos
    while end < len(text):
        nxt = node.get(text[end])
        if nxt is None:
            break
        node = nxt  # type: ignore[assignment]
        end += 1
        if "" in node:
            best = end - pos
    return best


def _too_many(count: int, limit: int, source: str, exact: bool = True) -> SymattnError:
    many = f"{count} tokens" if exact else f"at least {count} tokens"
    return SymattnError(
        f"{source}: text: {many}, over the size limit of {limit} (n)",
        lift=("max_size", count),
    )


def _count_rest(
    text: str, pos: int, trie: dict[str, object], count: int, longest: int
) -> tuple[int, bool]:
    """Tokens so far plus those of ``text[pos:]`` (exact for up to a million characters
    left, else a lower bound: the rest cut into tokens of the longest length)."""
    if len(text) - pos > 1_000_000:
        return count + -(-(len(text) - pos) // longest), False
    while pos < len(text):
        pos += _longest(text, pos, trie) or 1
        count += 1
    return count, True


def tokenize(
    text: str, vocab: Vocabulary, source: str, limit: int | None = None
) -> tuple[list[str], list[int]]:
    """Split ``text`` into vocabulary tokens; return the tokens and their ids.

    With ``limit``, more tokens than that is an error found while splitting."""
    if not text.strip():
        raise SymattnError(f"{source}: text: the text is empty")
    tokens: list[str] = []
    if any(ch.isspace() for ch in text.strip()):
        for number, match in enumerate(re.finditer(r"\S+", text), start=1):
            if limit is not None and number > limit:
                count = sum(1 for _ in re.finditer(r"\S+", text))
                raise _too_many(count, limit, source)
            word = match.group()
            if word not in vocab.ids:
                raise _unknown(word, f"word {number}", vocab)
            tokens.append(word)
    else:
        text = text.strip()
        trie = _trie(vocab.ids)
        pos = 0
        while pos < len(text):
            if limit is not None and len(tokens) >= limit:
                longest = max(len(t) for t in vocab.ids)
                count, exact = _count_rest(text, pos, trie, len(tokens), longest)
                raise _too_many(count, limit, source, exact)
            size = _longest(text, pos, trie)
            if size == 0:
                end = pos + 1
                while end < len(text) and end - pos < 100 and not _longest(text, end, trie):
                    end += 1
                raise _unknown(text[pos:end], f"character {pos + 1}", vocab)
            tokens.append(text[pos : pos + size])
            pos += size
    return tokens, [vocab.ids[t] for t in tokens]

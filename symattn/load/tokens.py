"""Vocabulary, tokenisation and the embedding lookup: text → tokens → ids → rows.

Text with spaces is split on them; text without spaces (Chinese, say) is cut by
greedy longest match against the vocabulary, so "我爱苹果" gives 我 / 爱 / 苹果 when
苹果 is a vocabulary entry.

>>> vocab = Vocabulary.from_data(["<unk>", "我", "爱", "苹果"], [[0], [1], [2], [3]], "p")
>>> tokenize("我爱苹果", vocab, "p")
(['我', '爱', '苹果'], [1, 2, 3])
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import SymattnError

__all__ = ["Vocabulary", "tokenize"]


@dataclass(frozen=True)
class Vocabulary:
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
                if isinstance(token_id, bool) or not isinstance(token_id, int) or token_id < 0:
                    raise SymattnError(
                        f"{source}: vocab.{token}: expected a non-negative integer id, "
                        f"found {token_id!r}"
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
                try:
                    token_id = int(str(key), 10)
                except ValueError:
                    raise SymattnError(
                        f"{source}: embedding: key {key!r} is not an integer id"
                    ) from None
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
        entries = list(self.ids)
        close = difflib.get_close_matches(piece, entries, n=count, cutoff=0.3)
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


def tokenize(text: str, vocab: Vocabulary, source: str) -> tuple[list[str], list[int]]:
    """Split ``text`` into vocabulary tokens; return the tokens and their ids."""
    if not text.strip():
        raise SymattnError(f"{source}: text: the text is empty")
    tokens: list[str] = []
    if any(ch.isspace() for ch in text.strip()):
        for number, word in enumerate(text.split(), start=1):
            if word not in vocab.ids:
                raise _unknown(word, f"word {number}", vocab)
            tokens.append(word)
    else:
        text = text.strip()
        longest = max(len(t) for t in vocab.ids)
        pos = 0
        while pos < len(text):
            for size in range(min(longest, len(text) - pos), 0, -1):
                if text[pos : pos + size] in vocab.ids:
                    tokens.append(text[pos : pos + size])
                    pos += size
                    break
            else:
                end = pos + 1
                while end < len(text) and not any(text.startswith(t, end) for t in vocab.ids):
                    end += 1
                raise _unknown(text[pos:end], f"character {pos + 1}", vocab)
    return tokens, [vocab.ids[t] for t in tokens]

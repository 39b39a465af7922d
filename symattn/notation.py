"""Notation presets and languages: how matrices and entries are named on paper.

Two presets, both 1-based:

* ``matrix`` — Q, K, V, S, A, O as in "Attention Is All You Need": q_{1,2}, s_{1,2},
  a_{1,2}, and the output rows b_1;
* ``token`` — the classic lecture slides: q^1, k^2, v^2, α_{1,2} = q^1 · k^2, and after
  the softmax α'_{1,2}, with b^1 = Σ_i α'_{1,i} v^i.

A problem file may rename any entry letter: ``notation = { weights = "a" }``.

>>> Notation.build("token").entry("Q", 0, 1), Notation.build("matrix").entry("Q", 0, 1)
('q^{1}_{2}', 'q_{1,2}')
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from .errors import SymattnError

__all__ = ["LANGUAGES", "PRESETS", "Notation", "Words", "words"]

PRESETS = ("matrix", "token")
LANGUAGES = ("en", "zh")

#: Matrices whose rows are tokens' vectors (row i is a vector named by its token).
VECTOR_ROWS = ("X", "memory", "Q", "K", "V", "output")

_LETTERS: dict[str, dict[str, str]] = {
    "matrix": {
        "X": "x", "memory": "m", "W_Q": "w^{Q}", "W_K": "w^{K}", "W_V": "w^{V}",
        "Q": "q", "K": "k", "V": "v", "scores": "s", "scaled_scores": "s'",
        "masked_scores": r"\tilde{s}", "weights": "a", "output": "b", "tokens": r"\mathrm{id}",
        "concat": "c", "W_O": "w^{O}",
    },
    "token": {
        "X": "x", "memory": "m", "W_Q": "w^{q}", "W_K": "w^{k}", "W_V": "w^{v}",
        "Q": "q", "K": "k", "V": "v", "scores": r"\alpha", "scaled_scores": r"\tilde{\alpha}",
        "masked_scores": r"\hat{\alpha}", "weights": r"\alpha'", "output": "b",
        "tokens": r"\mathrm{id}", "concat": "c", "W_O": "w^{o}",
    },
}  # fmt: skip

_MATRICES: dict[str, dict[str, str]] = {
    "matrix": {
        "X": "X", "memory": "M", "W_Q": "W^{Q}", "W_K": "W^{K}", "W_V": "W^{V}", "Q": "Q",
        "K": "K", "V": "V", "scores": "S", "scaled_scores": "S'", "masked_scores": r"\tilde{S}",
        "weights": "A", "output": "O", "tokens": r"\mathrm{ids}", "concat": "C", "W_O": "W^{O}",
    },
    "token": {
        "X": "X", "memory": "M", "W_Q": "W^{q}", "W_K": "W^{k}", "W_V": "W^{v}", "Q": "Q",
        "K": "K", "V": "V", "scores": r"\alpha", "scaled_scores": r"\tilde{\alpha}",
        "masked_scores": r"\hat{\alpha}", "weights": r"\alpha'", "output": "B",
        "tokens": r"\mathrm{ids}", "concat": "C", "W_O": "W^{o}",
    },
}  # fmt: skip

_GRADIENTS = {
    "dO": ("o", "O"), "dV": ("v", "V"), "dweights": ("a", "A"), "dscaled_scores": ("s'", "S'"),
    "dscores": ("s", "S"), "dQ": ("q", "Q"), "dK": ("k", "K"), "dW_Q": ("w^{Q}", "W^{Q}"),
    "dW_K": ("w^{K}", "W^{K}"), "dW_V": ("w^{V}", "W^{V}"), "dX": ("x", "X"),
    "dW_O": ("w^{O}", "W^{O}"), "dconcat": ("c", "C"),
}  # fmt: skip
for _preset in ("matrix", "token"):
    for _name, (_letter, _matrix) in _GRADIENTS.items():
        _LETTERS[_preset][_name] = rf"\mathrm{{d}}{_letter}"
        _MATRICES[_preset][_name] = rf"\mathrm{{d}}{_matrix}"

#: What a renamed letter may be: a letter or a LaTeX command, with optional primes.
_SAFE_LETTER = re.compile(r"(?:[A-Za-z]|\\[A-Za-z]+)'{0,2}")


@dataclass(frozen=True)
class Notation:
    """Entry and matrix names in LaTeX for one preset, with the problem's renames."""

    preset: str = "matrix"
    letters: Mapping[str, str] = field(default_factory=dict)
    matrices: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def build(cls, preset: str = "matrix", renames: Mapping[str, str] | None = None) -> Notation:
        """A preset, validated, with ``renames`` (entry id → letter) applied."""
        if preset not in PRESETS:
            raise SymattnError(
                f"--notation: expected one of {', '.join(PRESETS)}, found {preset!r}"
            )
        letters = dict(_LETTERS[preset])
        for key, letter in (renames or {}).items():
            if key not in letters:
                raise SymattnError(
                    f"notation.{key}: no such matrix; renamable: {', '.join(letters)}"
                )
            if not isinstance(letter, str) or not _SAFE_LETTER.fullmatch(letter):
                raise SymattnError(
                    f"notation.{key}: expected a letter or a LaTeX command such as \\alpha "
                    f"(with optional primes), found {letter!r}"
                )
            letters[key] = letter
        return cls(preset, letters, dict(_MATRICES[preset]))

    def matrix(self, mid: str) -> str:
        head, base = _split(mid)
        return _head(head) + self.matrices.get(base, base)

    def letter(self, mid: str) -> str:
        return self.letters.get(_split(mid)[1], mid.lower())

    def _base(self, mid: str) -> tuple[str, str]:
        """Split a letter into its body and the primes after it."""
        letter = self.letter(mid)
        body = letter.rstrip("'")
        return body, letter[len(body) :]

    def row(self, mid: str, i: int | str) -> str:
        """The vector of row ``i`` (0-based, or a letter such as "i"): q_1 or q^1."""
        body, primes = self._base(mid)
        head = _head(_split(mid)[0])
        if self.preset == "token":  # a prime is a superscript too: brace it first
            base = f"{{{body}{primes}}}" if primes else body
            return f"{head}{base}^{{{_index(i)}}}"
        return f"{head}{body}{primes}_{{{_index(i)}}}"

    def entry(self, mid: str, i: int | str, j: int | str) -> str:
        """Entry (i, j), 0-based (or letters): q_{1,2}; in the token preset q^{1}_{2}."""
        body, primes = self._base(mid)
        head_number, base = _split(mid)
        head = _head(head_number)
        if self.preset == "token" and base in VECTOR_ROWS:
            core = f"{{{body}{primes}}}" if primes else body
            return f"{head}{core}^{{{_index(i)}}}_{{{_index(j)}}}"
        return f"{head}{body}{primes}_{{{_index(i)},{_index(j)}}}"


def _split(mid: str) -> tuple[int | None, str]:
    from .steps import split_id

    return split_id(mid)


def _head(number: int | None) -> str:
    """The head of a multi-head step, as a left superscript: ^{(2)}q_{1,2}."""
    return "" if number is None else f"{{}}^{{({number})}}"


def _index(i: int | str) -> str:
    return str(i + 1) if isinstance(i, int) else i


@dataclass(frozen=True)
class Words:
    """Titles and connecting sentences in one language; formulas are the same in all."""

    lang: str
    step: str
    titles: Mapping[str, str]
    phrases: Mapping[str, str]

    def title(self, step_id: str) -> str:
        head, base = _split(step_id)
        title = self.titles.get(base, base)
        return self.phrases["head"].format(head=head, title=title) if head else title

    def heading(self, number: int, step_id: str) -> str:
        return self.step.format(n=number, title=self.title(step_id))

    def __call__(self, key: str, **values: object) -> str:
        return self.phrases[key].format(**values)


_EN = Words(
    "en",
    "Step {n}: {title}",
    {
        "tokens": "Tokens and ids",
        "X": "Embedding lookup",
        "X_given": "Token embeddings",
        "concat": "Concatenate the heads",
        "dO": "Backward: the upstream gradient",
        "dV": "Gradient of the values",
        "dweights": "Gradient of the weights",
        "dscaled_scores": "Through the softmax (its Jacobian)",
        "dscores": "Gradient of the scores",
        "dQ": "Gradient of the queries",
        "dK": "Gradient of the keys",
        "dW_Q": "Gradient of W_Q",
        "dW_K": "Gradient of W_K",
        "dW_V": "Gradient of W_V",
        "dX": "Gradient of the embeddings",
        "dW_O": "Gradient of W_O",
        "dconcat": "Gradient of the concatenated heads",
        "projection": "Output projection",
        "Q": "Queries",
        "K": "Keys",
        "V": "Values",
        "scores": "Attention scores",
        "scaled_scores": "Scaled scores",
        "masked_scores": "Masking",
        "weights": "Softmax: attention weights",
        "output": "Weighted sum: the output",
    },
    {
        "title": "Attention, step by step",
        "head": "Head {head} · {title}",
        "given": "Given",
        "result": "Result",
        "general": "In general:",
        "row": "Row {i}{label}, written out:",
        "rows_as_matrix": "All rows:",
        "split": "The text is cut into tokens, and each token has an id in the vocabulary:",
        "lookup": "Each id selects one row of the embedding table:",
        "given_matrix": "Given:",
        "dims": "n = {n} tokens, d_model = {d_model}, d_k = {d_k}, d_v = {d_v}.",
        "dims_direct": "n = {n} queries, m = {m} keys, d_k = {d_k}, d_v = {d_v}.",
        "scale": "The scores are divided by",
        "period": ".",
        "no_scale": "The scores are not scaled.",
        "mask": "Masked entries (query i may not see key j) become −∞, so their weight is 0.",
        "exps": "The exponential of each score, and their sum:",
        "quotients": "Each weight is one exponential divided by the sum:",
        "weighted": "The output row is the weighted sum of the value vectors:",
        "entries": "Entry by entry:",
        "more_entries": "({count} more entries of this row are in the matrix below.)",
        "heatmap": "Attention weights (darker = more attention):",
        "crosscheck": "Cross-check against NumPy float64: {verdict} "
        "(largest relative error {error}).",
        "passed": "passed",
        "failed": "FAILED",
        "symbolic_check": "Symbolic problem: there are no numbers to cross-check.",
        "masked_weight": "masked: exactly zero",
        "values_in_matrix": "values:",
        "jacobian": "The Jacobian of the softmax of this row:",
    },
)

_ZH = Words(
    "zh",
    "第 {n} 步：{title}",
    {
        "tokens": "分词与编号",
        "X": "查嵌入表",
        "X_given": "词向量",
        "concat": "拼接各个头的输出",
        "dO": "反向传播：上游梯度",
        "dV": "值向量的梯度",
        "dweights": "注意力权重的梯度",
        "dscaled_scores": "经过 softmax（雅可比矩阵）",
        "dscores": "注意力分数的梯度",
        "dQ": "查询向量的梯度",
        "dK": "键向量的梯度",
        "dW_Q": "W_Q 的梯度",
        "dW_K": "W_K 的梯度",
        "dW_V": "W_V 的梯度",
        "dX": "词向量的梯度",
        "dW_O": "W_O 的梯度",
        "dconcat": "拼接输出的梯度",
        "projection": "输出投影",
        "Q": "计算查询向量",
        "K": "计算键向量",
        "V": "计算值向量",
        "scores": "计算注意力分数",
        "scaled_scores": "缩放注意力分数",
        "masked_scores": "施加掩码",
        "weights": "Softmax 归一化：注意力权重",
        "output": "加权求和：注意力输出",
    },
    {
        "title": "注意力机制：逐步推导",
        "head": "第 {head} 个头 · {title}",
        "given": "已知",
        "result": "结果",
        "general": "一般公式：",
        "row": "以第 {i} 行{label}为例，逐项展开：",
        "rows_as_matrix": "所有行：",
        "split": "先把文本切分成词元，每个词元在词表中有一个编号：",
        "lookup": "每个编号对应嵌入表中的一行：",
        "given_matrix": "已知：",
        "dims": "n = {n} 个词元，d_model = {d_model}，d_k = {d_k}，d_v = {d_v}。",
        "dims_direct": "n = {n} 个查询，m = {m} 个键，d_k = {d_k}，d_v = {d_v}。",
        "scale": "注意力分数除以",
        "period": "。",
        "no_scale": "注意力分数不做缩放。",
        "mask": "被掩码的位置（查询 i 不能看到键 j）记为 −∞，其权重为 0。",
        "exps": "先对每个分数取指数，再求和：",
        "quotients": "每个权重等于对应的指数除以总和：",
        "weighted": "输出向量是各值向量按权重的加权和：",
        "entries": "逐个分量：",
        "more_entries": "（本行其余 {count} 个分量见下方矩阵。）",
        "heatmap": "注意力权重热力图（颜色越深，权重越大）：",
        "crosscheck": "与 NumPy float64 的交叉验证：{verdict}（最大相对误差 {error}）。",
        "passed": "通过",
        "failed": "未通过",
        "symbolic_check": "这是符号问题：没有数值可供交叉验证。",
        "masked_weight": "被掩码：恰为 0",
        "values_in_matrix": "数值：",
        "jacobian": "这一行 softmax 的雅可比矩阵：",
    },
)


def words(lang: str) -> Words:
    """The words of one language (``en`` or ``zh``)."""
    if lang == "en":
        return _EN
    if lang == "zh":
        return _ZH
    raise SymattnError(f"--lang: expected one of {', '.join(LANGUAGES)}, found {lang!r}")

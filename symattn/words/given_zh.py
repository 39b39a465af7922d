"""中文：已知部分的用词——多头，以及没有专题说明的掩码。"""

from __future__ import annotations

WORDS: dict[str, str] = {
    "derive.given_heads": "共 {h} 个头：第 {math:t} 个头取 {math:W_Q}、{math:W_K} 的第 {math:t} "
    "组 {d_k} 列和 {math:W_V} 的第 {math:t} 组 {d_v} 列；各头的输出并排拼接。",
    "derive.given_heads_wo": "共 {h} 个头：第 {math:t} 个头取 {math:W_Q}、{math:W_K} 的第 "
    "{math:t} 组 {d_k} 列和 {math:W_V} 的第 {math:t} 组 {d_v} 列；各头的输出并排拼接后，再乘以 "
    "{math:W_O} 投影。",
    "derive.given_heads.column": "共 {h} 个头：第 {math:t} 个头取 {math:W_Q}、{math:W_K} 的第 "
    "{math:t} 组 {d_k} 行和 {math:W_V} 的第 {math:t} 组 {d_v} 行；各头的输出上下拼接。",
    "derive.given_heads_wo.column": "共 {h} 个头：第 {math:t} 个头取 {math:W_Q}、{math:W_K} 的第"
    " {math:t} 组 {d_k} 行和 {math:W_V} 的第 {math:t} 组 {d_v} 行；各头的输出上下拼接后，再由 "
    "{math:W_O} 投影。",
    "derive.given_mask.causal": "掩码是因果的：查询 {math:i} 只能看到 {math:j_le_i} 的键。",
    "derive.given_mask.explicit": "掩码已给出：查询 {math:i} 看不到掩码中它那一行所禁止的键。",
    "derive.given_mask.padding": "填充的词元被遮蔽：任何查询都看不到它们的键。",
}

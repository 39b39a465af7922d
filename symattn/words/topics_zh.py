"""Chinese (简体中文): the words of the grouped K/V heads, a decode step, an encoder
block and the topics combined (docs/topics.md)."""

from __future__ import annotations

WORDS: dict[str, str] = {
    # -- 分组的 K/V 头、解码一步、编码器块 (docs/topics.md) -----------------------------------
    "title.cache_K": "键缓存",
    "title.cache_V": "值缓存",
    "title.decode": "用 K/V 缓存解码一步",
    "title.X_norm": "前置归一化：输入的 LayerNorm",
    "title.residual": "残差连接",
    "title.norm": "LayerNorm（层归一化）",
    "title.ffn_hidden": "前馈网络：隐藏层（ReLU）",
    "title.ffn_output": "前馈网络：输出",
    "title.block_output": "编码器块的输出",
    "derive.kv_groups": "分组查询注意力：{heads} 个查询头共用 {groups} 个键/值头，每组 {size} "
    "个查询头（{assignment}）；同组的头 K 和 V 相同。",
    "derive.kv_one": "多查询注意力：{heads} 个查询头共用一个键/值头，所以每个头的 K 和 V 都相同。",
    "derive.kv_group": "第 {heads} 个头用第 {group} 个键/值头",
    "derive.block_post": "编码器块（后置归一化）：对残差 {math:residual} 做归一化，"
    "{math:Z_post}；前馈网络读取 Z，{math:ffn}；块的输出是 {math:block_out_post}。",
    "derive.block_pre": "编码器块（前置归一化）：注意力读取 {math:LN_X}，残差是 "
    "{math:residual}，前馈网络读取 {math:LN_R}，{math:ffn}，块的输出是 {math:block_out_pre}。",
    "derive.given_layernorm": "LayerNorm 对每一行 {math:x} 单独计算：{math:layer_norm}，其中 "
    "{math:mu} 是该行的均值，{math:sigma2} 是除以 {math:d_model}（而不是 "
    "{math:d_model_minus_1}）的方差；这里 {math:eps} = {eps}。",
    "derive.cache": "解码器保留已经见过的词元的键和值（第 1 … {last} 行）；新词元只添加自己的一行，"
    "从不改动它们：",
    "derive.decode": "新词元（第 {n} 行）关注 {cached} 个缓存的键和它自己的键；后面的词元还不存在，"
    "所以不需要掩码：",
    "derive.decode_scores": "它的分数，每个缓存的键一个，外加它自己的：",
    "derive.decode_weights": "它的权重，即这些分数的 softmax：",
    "derive.decode_output": "它的输出，即缓存的值和它自己的值的加权和：",
    "derive.decode_same": "这正是上面用整个因果矩阵算出的输出的第 {n} 行：数值相同，而不必重新计算"
    "前面的行。",
    "derive.decode_differs": "这与上面输出的第 {n} 行不同。",
    "derive.residual": "残差连接把输入逐项加回来：",
    "derive.layer_norm": "LayerNorm 对每一行单独归一化（在它的 {math:d_model} 个分量上），"
    "再乘以 {math:gamma}、加上 {math:beta}：",
    "derive.layer_norm_eps": "方差是有偏的（除以 {math:d_model}，而不是 {math:d_model_minus_1}）"
    "，{math:eps} = {eps} 是精确值，所以 {math:sigma2_plus_eps} 是有理数；行是有理数时，它的平方"
    "根是一个根式。",
    "derive.layer_norm_stats": "这一行的均值和方差（{math:d_model} = {d}）：",
    "derive.relu": "ReLU 保留正的分量，其余置为 0：{math:relu_max}。",
    "diagnosis.layernorm_unbiased_variance": "{entries}：方差除以了 {math:d_model_minus_1} = "
    "{d_minus}；LayerNorm 用有偏方差，{math:biased_variance}。",
    "diagnosis.gqa_group_wrong": "{entries}：查询头轮流配了键/值头（第 1 个头配第 1 个，第 2 个头"
    "配第 2 个，…）；分组查询注意力中相邻的查询头共用一个键/值头：{assignment}。",
    "diagnosis.decode_uses_future": "{entries}：查询关注了后面的词元，也就是未来；解码器只能看到"
    "它自己及之前的词元（{math:j_le_i}），就像用 K/V 缓存解码一步时那样。",
    "mistake.layernorm_unbiased_variance": "LayerNorm 用了无偏方差",
    "mistake.gqa_group_wrong": "查询头配错了键/值头",
    "mistake.decode_uses_future": "关注了未来的词元",
    # -- 主题的组合 ----------------------------------------------------------------------
    "derive.block_positions": "有位置编码时，编码器块中的 X 指 {math:X_tilde_sum}：残差加回的正"
    "是注意力读入的矩阵。",
}

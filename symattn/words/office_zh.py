"""中文：Word 与电子表格输出的用词（docs/office.md）。"""

from __future__ import annotations

WORDS: dict[str, str] = {
    # -- 电子表格（--format xlsx）：工作表名不超过 31 个字符 -----------------------------------
    "xlsx.given": "已知",
    "xlsx.projections": "投影",
    "xlsx.scores": "注意力分数",
    "xlsx.weights": "注意力权重",
    "xlsx.output": "输出",
    "xlsx.gradients": "梯度",
    "xlsx.about.given": "已知的数（蓝色）：改动任何一个，各表随之更新。",
    "xlsx.about.projections": "每个元素是它所来自的单元格的乘积之和。",
    "xlsx.about.scores": "分数 {math:q_i_dot_k_j}，再缩放；被遮蔽的分数为 {math:neg_inf}。",
    "xlsx.about.weights": "每一行的 softmax：{math:exp_shifted}、它们的和，以及每个指数除以这个"
    "和。",
    "xlsx.about.output": "输出及其后的步骤，由权重和值向量算出。",
    "xlsx.about.gradients": "反向传播，从上游梯度开始。",
    "xlsx.exp": "{math:exp_shifted} 及每行之和 {math:Sigma}",
    "xlsx.exact": "精确值：{value}",
    "xlsx.no_formula": "这一步的单元格是它的数值（暂无对应的电子表格公式）。",
}

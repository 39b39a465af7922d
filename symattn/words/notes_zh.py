"""交叉验证结论、评分说明与答案文件条目错误的中文词句（docs/derive.md、docs/classroom.md、
docs/answers-format.md）。"""

from __future__ import annotations

WORDS: dict[str, str] = {
    "derive.within_float64": "在 float64 的误差范围内通过",
    "grade.feedback_failed": "反馈单未能生成：{why}",
    "entry.error": "{step}[{row},{col}]：{message}",
    "grade.why.not_answers": "不是答案文件（.json、.toml 或 .csv）",
}

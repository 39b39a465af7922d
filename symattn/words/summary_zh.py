"""班级概览（``grade --summary``）的中文用语（docs/classroom.md）。"""

from __future__ import annotations

WORDS: dict[str, str] = {
    "summary.title": "班级概览：{name}",
    "summary.counts": "共 {students} 名学生：已批改 {marked} 名，{missing} 名未提交，"
    "{unmarked} 名无法批改（文件无法读取）。",
    "summary.first_error": "最常见的第一个错误：{steps}（{students} 名学生中有 {count} 名："
    "{names}）。",
    "summary.no_first_error": "已批改的学生都没有出错。",
    "summary.steps": "各步骤",
    "summary.steps_about": "每一步中全班学生的比例：正确、按自己前面的答案算对（错误沿用）、"
    "错误、缺失（未作答或未批改）。",
    "summary.step": "步骤",
    "summary.group.right": "正确",
    "summary.group.carried": "错误沿用",
    "summary.group.wrong": "错误",
    "summary.group.missing": "缺失",
    "summary.mistakes": "错误类型",
    "summary.mistakes_about": "诊断指出的每种错误，犯此错误的学生（每人计一次）以及出现的步骤。",
    "summary.mistake": "错误",
    "summary.in_steps": "步骤",
    "summary.students": "人数",
    "summary.names": "学生",
    "summary.no_mistakes": "没有诊断出错误。",
    "summary.first_errors": "第一个错误",
    "summary.scores": "得分",
    "summary.scores_about": "已批改学生的得分（占总分的百分比）。",
    "summary.bin": "{lo}–{hi} %",
}

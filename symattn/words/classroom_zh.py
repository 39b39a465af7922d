"""Chinese words of grading a class: the report's columns and verdicts, why a file was
not marked, and Gradescope's messages (docs/classroom.md)."""

from __future__ import annotations

WORDS: dict[str, str] = {
    "grade.title": "成绩",
    "grade.student": "学生",
    "grade.score": "分数",
    "grade.verdict": "结论",
    "grade.notes": "备注",
    "grade.verdict.correct": "全对",
    "grade.verdict.incorrect": "有错误",
    "grade.verdict.missing": "未提交",
    "grade.verdict.error": "未评分",
    "grade.points": "得分 {score} / {max}。",
    "grade.first_error": "第一个出错的步骤：{step}。",
    "grade.unmatched": "未评分：{file}：{why}",
    "grade.note.unmarked": "{file} 未评分：{why}",
    "grade.note.too_coarse": "小数位数不够：{count} 个正确的数少于 {places} 位小数",
    "grade.why.outside": "链接指向提交文件夹之外",
    "grade.why.unreadable": "无法读取（{detail}）",
    "grade.why.not_regular": "不是普通文件",
    "grade.why.no_file": "文件夹中没有答案文件（.json、.toml 或 .csv）",
    "grade.why.several_files": "文件夹中有多个答案文件，且没有一个名为 answers.json",
    "grade.why.no_student": "与任何学生的文件夹、学号、邮箱或姓名都不对应",
    "grade.why.page_other_student": "{file}：page_id {page_id} 是{who}的自测页，"
    "不是这位学生的；未判分（两道题都不用来判）",
    "grade.why.page_other_problem": "{file}：page_id {page_id} 是另一道题的自测页，"
    "不是这位学生的；未判分",
    "gradescope.no_student": "本班名单中没有与 {who} 的邮箱或学号对应的学生；请老师把你加入名单。",
    "gradescope.several_students": "这份提交的小组中有本班多名学生（{who}）；"
    "每人须就自己的题目提交自己的答案。",
    "grade.why.zip_member": "压缩包中有一项未解出：{detail}",
    "grade.why.several_students": "对应多名学生（{detail}）",
    "grade.moodle.points": "{file}：成绩是满分 {max} 的得分（练习的满分），不是百分制："
    "导入前请在 Moodle 中把该成绩项的最高分设为 {most}",
    "grade.moodle.some_emails": "{file}：名单中 {names} 没有邮箱，所以每一行都按 ID number "
    "匹配：在 Moodle 中把 'ID number' 对应到用户的 ID number",
    "grade.moodle.left_out": "{file}：名单中 {names} 既没有邮箱也没有学号，未写入导入文件",
}

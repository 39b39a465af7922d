"""中文：symattn 显示的每一个标题、句子、诊断和练习用语。"""

from __future__ import annotations

WORDS: dict[str, str] = {
    # -- 步骤标题 ------------------------------------------------------------------------
    "step_heading": "第 {n} 步：{title}",
    "head": "第 {head} 个头 {math:dot} {title}",
    "title.tokens": "分词与编号",
    "title.X": "查嵌入表",
    "title.X_given": "词向量",
    "title.Q": "计算查询向量",
    "title.K": "计算键向量",
    "title.V": "计算值向量",
    "title.scores": "计算注意力分数",
    "title.scaled_scores": "缩放注意力分数",
    "title.alibi_bias": "ALiBi：距离偏置",
    "title.biased_scores": "加上 ALiBi 偏置的分数",
    "title.masked_scores": "施加掩码",
    "title.weights": "Softmax 归一化：注意力权重",
    "title.output": "加权求和：注意力输出",
    "title.concat": "拼接各个头的输出",
    "title.projection": "输出投影",
    "title.dO": "反向传播：上游梯度",
    "title.dV": "值向量的梯度",
    "title.dweights": "注意力权重的梯度",
    "title.dscaled_scores": "经过 softmax（雅可比矩阵）",
    "title.dscores": "注意力分数的梯度",
    "title.dQ": "查询向量的梯度",
    "title.dK": "键向量的梯度",
    "title.dW_Q": "{math:W_Q} 的梯度",
    "title.dW_K": "{math:W_K} 的梯度",
    "title.dW_V": "{math:W_V} 的梯度",
    "title.dX": "词向量的梯度",
    "title.dW_O": "{math:W_O} 的梯度",
    "title.dconcat": "拼接输出的梯度",
    # -- 推导 ----------------------------------------------------------------------------
    "title": "注意力机制：逐步推导",
    "given": "已知",
    "result": "结果",
    "derive.general": "一般公式：",
    "derive.row": "以第 {i} 行{label}为例，逐项展开：",
    "derive.row_label": "（{token}）",
    "derive.rows_as_matrix": "所有行：",
    "derive.split": "先把文本切分成词元，每个词元在词表中有一个编号：",
    "derive.lookup": "每个编号对应嵌入表中的一行：",
    "derive.given_matrix": "已知：",
    "derive.scale": "注意力分数除以",
    "period": "。",
    "derive.no_scale": "注意力分数不做缩放。",
    "derive.no_scale_tau": "注意力分数不除以 {math:sqrt_dk}，只除以温度。",
    "derive.mask": "被掩码的位置（查询 {math:i} 不能看到键 {math:j}）记为 {math:neg_inf}，其权重"
    "为 0。",
    "derive.exps": "先对每个分数取指数，再求和：",
    "derive.quotients": "每个权重等于对应的指数除以总和：",
    "derive.weighted": "输出向量是各值向量按权重的加权和：",
    "derive.entries": "逐个分量：",
    "derive.more_entries": "（本行其余 {count} 个分量见下方矩阵。）",
    "derive.heatmap": "注意力权重热力图（颜色越深，权重越大；刻度为 0 … 1）：",
    "derive.crosscheck": "与 NumPy float64 的交叉验证：{verdict}（最大相对误差 {error}）。",
    "derive.passed": "通过",
    "derive.failed": "未通过",
    "derive.symbolic_check": "这是符号问题：没有数值可供交叉验证。",
    "derive.allowed": "允许",
    "derive.masked": "被掩码",
    "formula.given": "{name}（给定）",
    "formula.given_columns": "{name}（给定；第 {math:i} 列是第 {math:i} 个词元）",
    "formula.text": "文本",
    "formula.tokens": "词元",
    "formula.ids": "id",
    "formula.rows_of": "{matrix} 的第 {range} 行",
    "formula.columns_of": "{matrix} 的第 {range} 列",
    "derive.jacobian": "这一行 softmax 的雅可比矩阵：",
    "derive.symbolic_matrix": "各分量已在上面逐项写出（符号问题；--format json 给出全部分量）。",
    # -- 检查手算结果 --------------------------------------------------------------------
    "feedback.title": "检查 {source}",
    "feedback.verdict_correct": "结论：正确。所有作答的分量都对。",
    "feedback.verdict_incorrect": "结论：有错误。第一个出错的步骤是 {step}。",
    "feedback.correct": "正确",
    "feedback.incorrect": "错误",
    "feedback.partial": "部分作答",
    "feedback.missing": "未作答",
    "feedback.first": "← 第一个错误",
    "feedback.carried": "错误来自前面的步骤：用你自己前面的答案计算，这一步的方法是对的",
    "feedback.diagnosis": "诊断：",
    "feedback.derivation": "第一个出错分量的推导：",
    "feedback.entry": "分量",
    "feedback.given": "你的答案",
    "feedback.expected": "正确答案",
    "feedback.note": "说明：",
    "feedback.sheet": "注意力计算作业反馈",
    "note.rounded": "用你舍入后的{steps}计算，结果正确",
    "note.carried": "对你所用的数值，方法是对的；错误来自{steps}",
    "feedback.score": "得分：{answered} 个作答分量中 {right} 个正确（{percent}%）。",
    "feedback.points": "分数：{score} / {max}。",
    # -- 全班评分 ----------------------------------------------------------------------
    "feedback.label.ok": "",
    "feedback.label.wrong": "",
    "feedback.label.too_coarse": "小数位数不够",
    "feedback.label.invalid": "无法读取",
    "feedback.label.carried": "按你自己的数值是对的",
    "feedback.entry_message": "{names}：{message}",
    "feedback.hidden": "（答案已隐藏）",
    # -- 诊断："{entries}" 列出诊断所解释的分量 ------------------------------------------------
    "list.sep": "、",
    "list.sep2": "；",
    "list.and": "{items} 和 {last}",
    "list.many": "{first} 等（共 {count} 个分量）",
    "diagnosis.root_dk": "{math:sqrt_dk} = {sqrt}",
    "diagnosis.root_c": "{math:c} = {c}",
    "diagnosis.no_scaling": "{entries}：分数没有除以 {root}。对你所用的分数，其余步骤的方法是对"
    "的；在 softmax 之前应先把每个分数除以 {math:sqrt_dk}（{math:scaled_score}）。",
    "diagnosis.scaled_by_d_model": "{entries}：分数除以了 {math:sqrt_d_model} = {sqrt_d_model}；缩"
    "放用的是"
    "键向量的维度 {math:d_k}，应除以 {root}。",
    "diagnosis.scaled_by_dk": "{entries}：分数除以了 {math:d_k} = {d_k}，应除以它的平方根 {root}。",
    "diagnosis.scale_multiplied": "{entries}：分数乘以了 {root}，应当除以它。",
    "diagnosis.no_softmax": "{entries}：这是分数本身；权重是分数的 softmax，逐行计算 "
    "{math:softmax_row}。",
    "diagnosis.softmax_wrong_axis": "{entries}：你对每一列做了归一化；softmax 应沿每一行进行（固"
    "定查询 {math:i}，对所有键 {math:j}），使每一行的权重之和为 1。",
    "diagnosis.softmax_wrong_axis.column": "{entries}：你对每一行做了归一化；列布局中 softmax 应"
    "沿每一列进行（固定查询 {math:i}，对所有键 {math:j}），使每一列的权重之和为 1。",
    "diagnosis.scores_transposed.column": "{entries}：分数矩阵转置了：列布局中 {math:S_column}，"
    "行对应键，列对应查询。",
    "diagnosis.weights_transposed.column": "{entries}：权重矩阵转置了：列布局中第 {math:i} 列应"
    "是查询 {math:i} 对所有键的权重。",
    "mistake.softmax_wrong_axis.column": "按行做 softmax",
    "diagnosis.softmax_global.column": "{entries}：你对整个矩阵一起做了归一化；"
    "列布局中 softmax 应对每一列分别进行，使每一列的权重之和为 1。",
    "diagnosis.no_softmax.column": "{entries}：这是分数本身；权重是分数的 softmax，逐列计算 "
    "{math:softmax_column}。",
    "diagnosis.exp_missing_in_softmax.column": "{entries}：你直接用分数除以列和，漏掉了指数：应"
    "为 {math:softmax_of_column}。",
    "diagnosis.softmax_global": "{entries}：你对整个矩阵一起做了归一化；softmax 应对每一行"
    "分别进行，使每一行的权重之和为 1。",
    "diagnosis.exp_missing_in_softmax": "{entries}：你直接用分数除以行和，漏掉了指数：应为 "
    "{math:softmax_of_row}。",
    "diagnosis.scores_transposed": "{entries}：分数矩阵转置了：{math:score_dot}，行对应查询，列"
    "对应键。",
    "diagnosis.weights_transposed": "{entries}：权重矩阵转置了：第 {math:i} 行应是查询 {math:i} "
    "对所有键的权重。",
    "diagnosis.weighted_sum_of_keys": "{entries}：你对键向量做了加权和；输出应为 "
    "{math:output_sum}，用值向量 V，而不是键 K。",
    "diagnosis.weighted_sum_of_inputs": "{entries}：你对输入向量做了加权和；输出应为 "
    "{math:output_sum}，用值向量 {math:V_eq_X_W_V}，而不是 X 的行。",
    "diagnosis.mask_after_softmax": "{entries}：你在 softmax 之后才加掩码，导致每行之和不再"
    "为 1；应在 softmax 之前把被掩码的分数设为 {math:neg_inf}。",
    "diagnosis.mask_wrong_triangle": "{entries}：因果掩码保留了错误的三角：查询 {math:i} 只能看"
    "到键 {math:j_le_i}（自己和前面的词元），而不是 {math:j_ge_i}。",
    "diagnosis.jacobian_diagonal_only": "{entries}：只用了 softmax 雅可比矩阵的对角线 "
    "{math:jacobian_diagonal}；雅可比矩阵是 {math:jacobian}，所以 {math:dS_prime_ij}。",
    "diagnosis.backward_no_scaling": "{entries}：{math:dS_prime} 没有除以 {root}；前向计算时分数"
    "做了缩放，反向时也要 {math:dS_scaled}。",
    "diagnosis.backward_transposed": "{entries}：乘积少了转置：{math:dV_backward}，"
    "{math:dK_backward}。",
    "diagnosis.premature_rounding": "{entries}：你在中间步骤把{what}舍入到 {places} 位小数，"
    "误差在后面的步骤中被放大；中间结果至少保留 4 位小数。",
    "diagnosis.premature_rounding_step": "{entries}：“{step}”只保留了 {places} 位小数，后面的"
    "步骤用它继续计算，误差被放大；中间结果至少保留 4 位小数。",
    "diagnosis.rounded.scores": "softmax 之前的分数",
    "diagnosis.rounded.weights": "权重",
    "diagnosis.slip_entry": "{name}：你写的是 {given}，应为 {want}",
    "diagnosis.arithmetic_slip": "{slips}",
    "diagnosis.arithmetic_slip_one": "。其余分量都对，请重新核对这一处的计算。",
    "diagnosis.arithmetic_slip_many": "。其余分量都对，请重新核对这几处的计算。",
    "mistake.no_scaling": "分数未缩放",
    "mistake.scaled_by_d_model": "除以了 {math:sqrt_d_model}",
    "mistake.scaled_by_dk": "除以了 {math:d_k}",
    "mistake.scale_multiplied": "乘以了缩放因子",
    "mistake.no_softmax": "没有做 softmax",
    "mistake.softmax_wrong_axis": "按列做 softmax",
    "mistake.softmax_global": "对整个矩阵做 softmax",
    "mistake.exp_missing_in_softmax": "softmax 漏了指数",
    "mistake.scores_transposed": "分数矩阵转置",
    "mistake.weights_transposed": "权重矩阵转置",
    "mistake.weighted_sum_of_keys": "用键代替了值",
    "mistake.weighted_sum_of_inputs": "用输入代替了值",
    "mistake.mask_after_softmax": "softmax 之后才加掩码",
    "mistake.mask_wrong_triangle": "掩码三角取反",
    "mistake.jacobian_diagonal_only": "只用了雅可比矩阵的对角线",
    "mistake.backward_no_scaling": "梯度未缩放",
    "mistake.backward_transposed": "梯度乘积少了转置",
    "mistake.premature_rounding": "过早舍入",
    "mistake.arithmetic_slip": "计算失误",
    # -- 无法读取的分量和步骤 --------------------------------------------------------------------
    "entry.invalid": "无法把 {text} 读作数值；请写成 0.1070、3/4、{math:sqrt_2} 或 e^2/(e^2 + "
    "e^5) 这样的形式",
    "entry.too_coarse": "请保留 {places} 位小数",
    "entry.exact_close": "{text} 被当作精确值读取，它不等于精确答案 {exact} {math:approx} {decimal}"
    "；"
    "如果是近似值，请写成小数",
    "step.unreadable": "这一步无法读作 {rows} × {cols} 矩阵",
    # -- 练习 ----------------------------------------------------------------------------
    "sheet.name": "姓名：",
    "sheet.intro": "请手算每一步，并把答案以保留 {places} 位的小数写在方框中，小数点用“.”"
    "（写 2.1213，不要写 2,1213）。精确值（整数、5/2、{math:sqrt_2}）也算对，但 Moodle 测验只接受小"
    "数。"
    "每一步下方的空白处写计算过程。",
    "sheet.sentence": "句子：",
    "sheet.vocabulary": "词表（每个词元的 id 就是它的位置）：",
    "sheet.token": "词元",
    "sheet.id": "id",
    "sheet.embedding": "嵌入表 E（第 {math:i} 行是 id 为 {math:i} 的词元的嵌入，从 0 开始计数）"
    "和权重矩阵：",
    "sheet.working": "计算过程：",
    "sheet.tokens": "词元：",
    "sheet.scale": "注意力分数除以",
    "sheet.causal": "因果掩码：查询 {math:i} 只能关注键 {math:one_to_i}；被掩码的分数为 "
    "{math:neg_inf}，其权重为 0。",
    "sheet.no_scale": "本题不对分数做缩放：{math:d_k} = {d_k} 时 {math:sqrt_dk} 不是整数，缩放后的"
    "分数不便手算。",
    "sheet.summary": "全部答案",
    "exercise.title": "注意力练习 {label}",
    "exercise.for": "{title}（{student}）",
    "exercise.key": "{title}（答案）",
    "exercise.tokens": "我 爱 吃 苹果 和 香蕉 今天 很",
    "exercise.vocabulary": "我 你 爱 吃 苹果 香蕉 今天 很 好 猫",
    # -- HTML 页面 ----------------------------------------------------------------------
    "html.contents": "目录",
    "html.subtitle": "逐步手算注意力：每一步先写公式，再代入数值，给出精确值和小数。",
    "html.footer": "由 symattn {version} 生成。公式使用 MathML 排版，无需脚本，也无需联网。",
    "html.first_error": "第一个错误",
    "html.mark.ok": "正确",
    "html.mark.wrong": "错误",
    "html.mark.too_coarse": "精度不够",
    "html.mark.invalid": "不是数",
    "html.mark.carried": "沿用前面的错误",
    "html.list_join": "、",
    "feedback.slip_hidden": "请重新核对 {entries} 的计算，其余分量都对。",
    # -- 位置编码、RoPE、温度、加性注意力、列布局（docs/topics.md）------------------------------
    "title.P": "位置编码",
    "title.X_pos": "把位置编码加到词向量上",
    "title.Q_rot": "查询向量的旋转位置编码",
    "title.K_rot": "键向量的旋转位置编码",
    "title.additive_hidden": "加性注意力：隐藏向量",
    "derive.column": "以第 {i} 列{label}为例，逐项展开：",
    "derive.given_positions_sinusoidal": "位置编码：P 是正弦位置编码表（第 {math:pos} 行对应位置"
    " {math:pos}，从 0 开始），在投影之前加到 X 上：",
    "derive.given_positions_given": "位置编码：P 已给出（第 {math:pos} 行对应位置 {math:pos}，从"
    " 0 开始），在投影之前加到 X 上。",
    "derive.given_rope": "RoPE：计算分数之前，Q 和 K 第 {math:pos} 行（{math:pos} 从 0 开始）的"
    "第 {math:two_i} 列与第 {math:two_i_plus_1} 列一起旋转角度",
    "derive.given_rope_base": "，其中 {math:base} = {base}。",
    "derive.given_rope_turn": "Q 和 K 中的每一对都按同样的方式旋转：",
    "derive.given_additive": "加性注意力分数（代替 {math:q_dot_k}）：",
    "derive.temperature": "温度也要除：",
    "derive.window": "滑动窗口：查询 {math:i} 只看满足 {math:window_keys} 的键 {math:j}（它自己"
    "和前面 {math:w_minus_1} 个键），其余的键都被遮蔽，",
    "derive.alibi": "ALiBi：每个头在缩放后的分数上加偏置 {math:alibi_bias}（键离得越远，分数越低"
    "），斜率为",
    "derive.alibi_head": "第 {head} 个头：",
    "derive.temperature_alone": "分数除以温度：",
    "derive.column_layout": "列布局：每个词是一列（{math:Q_column}），注意力分数是 K 的转置乘以 "
    "Q，每个查询占一列，softmax 沿每一列计算。",
    "derive.positions": "P 的第 {math:pos} 行对应位置 {math:pos}（从 0 开始）；{math:pos_zero} "
    "时 {math:sin_zero}，{math:cos_zero}。其余的值是超越数：保留为精确角度的 {math:sin} 和 "
    "{math:cos}，小数经过严格验证。",
    "derive.additive_rows": "每一对（查询 {math:i}，键 {math:j}）占一行，顺序为 (1,1)、(1,2)、…",
    "diagnosis.pe_sin_cos_swapped": "{entries}：位置编码中 {math:sin} 和 {math:cos} 弄反了：第 "
    "{math:two_i} 列取 {math:pe_sin}（即第 1、3、… 列），第 {math:two_i_plus_1} 列取 "
    "{math:cos}（即第 2、4、… 列）。",
    "diagnosis.pe_added_after_projection": "{entries}：位置编码是在投影之后才加的（"
    "{math:XW_plus_P}）；应先加到词向量上：{math:Q_with_positions}。",
    "diagnosis.rope_pairs_wrong": "{entries}：旋转时配对的列不对（{math:i} 与 "
    "{math:i_plus_half_d}，即 rotate-half 的做法）；本题每一行旋转的是 {math:rope_pair} 这两列。",
    "diagnosis.window_off_by_one": "{entries}：窗口多算了一个键（{math:window_too_wide}）；查询 "
    "{math:i} 只看 {math:window_keys} 这 {math:w} = {w} 个键（含它自己）。",
    "diagnosis.alibi_sign_flipped": "{entries}：偏置的符号加反了（{math:alibi_bias_flipped}）；"
    "ALiBi 让远处的键分数更低：{math:alibi_bias}。",
    "diagnosis.column_layout_transposed": "{entries}：这是行布局（每个词一行）；本题用列布局，"
    "每个词是一列：请把矩阵转置。",
    "mistake.pe_sin_cos_swapped": "sin 与 cos 弄反",
    "mistake.pe_added_after_projection": "投影后才加位置编码",
    "mistake.rope_pairs_wrong": "RoPE 配对错误",
    "mistake.window_off_by_one": "窗口多了一个键",
    "mistake.alibi_sign_flipped": "ALiBi 偏置符号反了",
    "mistake.column_layout_transposed": "用了行布局而不是列布局",
    # -- Moodle 测验 --------------------------------------------------------------------
    "moodle.intro": "请手算每一步，把每个元素以小数填入对应的空格，保留 {places} 位小数，"
    "小数点用英文句点“.”，不要用逗号（写 2.1213，不要写 2,1213，Moodle 可能把它读成 21213）。"
    "Moodle 不接受分数或根式：写 2.5，不要写 5/2。",
    "moodle.no_scale": "本题不对分数做缩放。",
    "moodle.mask": "掩码：表中为 0 的位置，分数为 {math:neg_inf}，其权重为 0。",
    "moodle.neg_inf": "被掩码的分数请填 -inf。",
    "moodle.text": "句子：",
    "moodle.vocabulary": "词表与嵌入行：",
    "moodle.right": "正确。",
    "moodle.pair": "同时犯了两个错误：{first}，并且{second}。",
    "moodle.colon": "：",
    "moodle.join": "或者：",
    "moodle.general": "每个空格接受与精确值相差不超过 ±{tolerance} 的任何数。"
    "若填入的错误数值与某种常见错误所得的结果相差不超过 ±{tolerance}，反馈会指出这个错误。",
    # -- 自测页 ---------------------------------------------------------------------------
    "selfcheck.subtitle": "自测：输入答案，每个分量随输随判。",
    "selfcheck.intro": "在每个方框中填写对应的分量：✓ 表示正确，✗ 表示错误，? 表示无法识别为数。"
    "如果某一步的错误能由常见错误解释，会在该步下方指出。"
    "可以写 0.1070、0,1070、3/4、{math:sqrt_2}、5{math:sqrt_2}/2、e^2/(e^2 + e^5)、10.7% 或 -inf。",
    "selfcheck.places": "能写精确值（整数、分数）时写精确值，否则保留 {places} 位小数。",
    "selfcheck.no_places": "能写精确值时写精确值；小数与正确值相差不超过其末位的一个单位即为正确。",
    "selfcheck.noscript": "判分需要 JavaScript，而本浏览器已将其关闭：开启后即可随输随看 ✓ 和 ✗。"
    "也可以打印本页，手工填写。",
    "selfcheck.embedding": "这些编号在嵌入表 E 中对应的行：",
    "selfcheck.mask": "掩码：查询 {math:i} 能看到键 {math:j} 处为 1，不能看到处为 0。被掩码的分"
    "数为 {math:neg_inf}，其权重为 0。",
    "selfcheck.mark.ok": "正确",
    "selfcheck.mark.wrong": "错误",
    "selfcheck.mark.too_coarse": "小数位数不够",
    "selfcheck.mark.invalid": "不是数",
    "selfcheck.download": "下载我的答案（answers.json）",
    "selfcheck.kept": "你输入的内容保存在本浏览器中（仅限本页）；交作业时请下载答案文件。",
    "selfcheck.why.arithmetic_slip": "其余分量都对：请重新计算标 ✗ 的分量。",
    "selfcheck.why.column_layout_transposed": "这是行布局（每个词元一行）；本题用列布局，"
    "每个词元是一列：请把你的矩阵转置。",
    "selfcheck.mark.carried": "按你自己前面的答案算是对的（错误被带到了这一步）",
    "selfcheck.note.carried": "错误传递：按你自己在{steps}中的答案（它们是错的）来算，"
    "这一步是对的；这一步的方法没有错。",
    "selfcheck.note.rounded": "按你自己在{steps}中舍入后的答案来算，这一步是对的。",
    "selfcheck.invalid": "无法识别为数；请写成 0.1070、3/4、{math:sqrt_2} 或 e^2/(e^2 + e^5) 这样"
    "的形式",
    "selfcheck.exact_close": "被当作精确值读入，但它不等于该分量的精确值；如果想写近似值，请写小数",
    "selfcheck.entry_note": "{name}：{message}",
    "selfcheck.tally": "{total} 个中对了 {right} 个",
    "selfcheck.total": "目前共 {total} 个分量，对了 {right} 个。",
    "selfcheck.footer": "由 symattn {version} 生成。答案只在本页内检查，不会发送到任何地方。",
}

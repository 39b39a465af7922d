"""English: every title, sentence, diagnosis and sheet word symattn shows."""

from __future__ import annotations

WORDS: dict[str, str] = {
    # -- step titles (every format) ------------------------------------------------------
    "step_heading": "Step {n}: {title}",
    "head": "Head {head} {math:dot} {title}",
    "title.tokens": "Tokens and ids",
    "title.X": "Embedding lookup",
    "title.X_given": "Token embeddings",
    "title.Q": "Queries",
    "title.K": "Keys",
    "title.V": "Values",
    "title.scores": "Attention scores",
    "title.scaled_scores": "Scaled scores",
    "title.alibi_bias": "ALiBi: the distance bias",
    "title.biased_scores": "Scores with the ALiBi bias",
    "title.masked_scores": "Masking",
    "title.weights": "Softmax: attention weights",
    "title.output": "Weighted sum: the output",
    "title.concat": "Concatenate the heads",
    "title.projection": "Output projection",
    "title.dO": "Backward: the upstream gradient",
    "title.dV": "Gradient of the values",
    "title.dweights": "Gradient of the weights",
    "title.dscaled_scores": "Through the softmax (its Jacobian)",
    "title.dscores": "Gradient of the scores",
    "title.dQ": "Gradient of the queries",
    "title.dK": "Gradient of the keys",
    "title.dW_Q": "Gradient of {math:W_Q}",
    "title.dW_K": "Gradient of {math:W_K}",
    "title.dW_V": "Gradient of {math:W_V}",
    "title.dX": "Gradient of the embeddings",
    "title.dW_O": "Gradient of {math:W_O}",
    "title.dconcat": "Gradient of the concatenated heads",
    # -- the derivation ------------------------------------------------------------------
    "title": "Attention, step by step",
    "given": "Given",
    "result": "Result",
    "derive.general": "In general:",
    "derive.row": "Row {i}{label}, written out:",
    "derive.row_label": " ({token})",
    "derive.rows_as_matrix": "All rows:",
    "derive.split": "The text is cut into tokens, and each token has an id in the vocabulary:",
    "derive.lookup": "Each id selects one row of the embedding table:",
    "derive.given_matrix": "Given:",
    "derive.scale": "The scores are divided by",
    "period": ".",
    "derive.no_scale": "The scores are not scaled.",
    "derive.no_scale_tau": "The scores are not divided by {math:sqrt_dk}; the temperature alone "
    "divides them.",
    "derive.mask": "Masked entries (query {math:i} may not see key {math:j}) become "
    "{math:neg_inf}, so their weight is 0.",
    "derive.exps": "The exponential of each score, and their sum:",
    "derive.quotients": "Each weight is one exponential divided by the sum:",
    "derive.weighted": "The output row is the weighted sum of the value vectors:",
    "derive.entries": "Entry by entry:",
    "derive.more_entries": "({count} more entries of this row are in the matrix below.)",
    "derive.heatmap": "Attention weights (darker = more attention, on the scale 0 … 1):",
    "derive.crosscheck": "Cross-check against NumPy float64: {verdict} "
    "(largest relative error {error}).",
    "derive.passed": "passed",
    "derive.failed": "FAILED",
    "derive.symbolic_check": "Symbolic problem: there are no numbers to cross-check.",
    "derive.allowed": "allowed",
    "derive.masked": "masked",
    "formula.given": "{name} (given)",
    "formula.given_columns": "{name} (given; column {math:i} is token {math:i})",
    "formula.text": "text",
    "formula.tokens": "tokens",
    "formula.ids": "ids",
    "formula.rows_of": "rows {range} of {matrix}",
    "formula.columns_of": "columns {range} of {matrix}",
    "derive.jacobian": "The Jacobian of the softmax of this row:",
    "derive.symbolic_matrix": "Its entries are written out above (symbolic; --format json "
    "has them all).",
    # -- checking a hand calculation -----------------------------------------------------
    "feedback.title": "Checking {source}",
    "feedback.verdict_correct": "Verdict: correct. Every answered entry is right.",
    "feedback.verdict_incorrect": "Verdict: incorrect. The first wrong step is {step}.",
    "feedback.correct": "correct",
    "feedback.incorrect": "incorrect",
    "feedback.partial": "partial (entries missing)",
    "feedback.missing": "not answered",
    "feedback.first": "← first error",
    "feedback.carried": "error carried forward: right when computed from your own earlier answers",
    "feedback.diagnosis": "Diagnosis:",
    "feedback.derivation": "The first wrong entry, derived:",
    "feedback.entry": "entry",
    "feedback.given": "given",
    "feedback.expected": "expected",
    "feedback.note": "Note:",
    "feedback.sheet": "Feedback on your attention calculation",
    "note.rounded": "right when computed from your rounded {steps}",
    "note.carried": "your method is right for the numbers you used; the error comes from {steps}",
    "feedback.score": "Score: {right} of {answered} answered entries are right ({percent}%).",
    "feedback.points": "Points: {score} of {max}.",
    "feedback.label.ok": "",
    "feedback.label.wrong": "",
    "feedback.label.too_coarse": "too few places",
    "feedback.label.invalid": "unreadable",
    "feedback.label.carried": "right from your own numbers",
    "feedback.entry_message": "{names}: {message}",
    "feedback.hidden": "(the key is hidden)",
    # -- diagnoses: "{entries}" names the entries a diagnosis explains -----------------------
    "list.sep": ", ",
    "list.sep2": "; ",
    "list.and": "{items} and {last}",
    "list.many": "{first}, … ({count} entries)",
    "diagnosis.root_dk": "{math:sqrt_dk} = {sqrt}",
    "diagnosis.root_c": "{math:c} = {c}",
    "diagnosis.no_scaling": "{entries}: the scores were not divided by {root}. The rest of your "
    "method is right for the scores you used; divide each score by {math:sqrt_dk} before the "
    "softmax ({math:scaled_score}).",
    "diagnosis.scaled_by_d_model": "{entries}: the scores were divided by {math:sqrt_d_model} = "
    "{sqrt_d_model}; the scale uses {math:d_k}, the width of the keys: divide by {root}.",
    "diagnosis.scaled_by_dk": "{entries}: the scores were divided by {math:d_k} = {d_k} instead of "
    "its square root, {root}.",
    "diagnosis.scale_multiplied": "{entries}: the scores were multiplied by {root}; divide "
    "them by it instead.",
    "diagnosis.no_softmax": "{entries}: these are the scores themselves; the weights are their "
    "softmax, {math:softmax_row}, row by row.",
    "diagnosis.softmax_wrong_axis": "{entries}: each column was normalised; the softmax runs "
    "along each row (over the keys {math:j} of one query {math:i}), so every row of the weights "
    "sums to 1.",
    "diagnosis.softmax_wrong_axis.column": "{entries}: each row was normalised; in the column "
    "layout the softmax runs down each column (over the keys {math:j} of one query {math:i}), "
    "so every column of the weights sums to 1.",
    "diagnosis.scores_transposed.column": "{entries}: the score matrix is transposed: in the "
    "column layout {math:S_column}, with the key as the row and the query as the column.",
    "diagnosis.weights_transposed.column": "{entries}: the weight matrix is transposed: in the "
    "column layout column {math:i} holds the weights of query {math:i} over all keys.",
    "mistake.softmax_wrong_axis.column": "softmax along the rows",
    "diagnosis.softmax_global.column": "{entries}: the whole matrix was normalised at once; "
    "in the column layout the softmax runs down each column on its own, so every column of "
    "the weights sums to 1.",
    "diagnosis.no_softmax.column": "{entries}: these are the scores themselves; the weights are "
    "their softmax, {math:softmax_column}, column by column.",
    "diagnosis.exp_missing_in_softmax.column": "{entries}: each score was divided by its column "
    "sum without exponentials; use {math:softmax_of_column}.",
    "diagnosis.softmax_global": "{entries}: the whole matrix was normalised at once; the "
    "softmax runs over each row on its own, so every row of the weights sums to 1.",
    "diagnosis.exp_missing_in_softmax": "{entries}: each score was divided by its row sum "
    "without exponentials; use {math:softmax_of_row}.",
    "diagnosis.scores_transposed": "{entries}: the score matrix is transposed: "
    "{math:score_dot}, with the query as the row and the key as the column.",
    "diagnosis.weights_transposed": "{entries}: the weight matrix is transposed: row {math:i} "
    "holds the weights of query {math:i} over all keys.",
    "diagnosis.weighted_sum_of_keys": "{entries}: the key vectors were summed; the output is "
    "{math:output_sum}, with the values V, not the keys K.",
    "diagnosis.weighted_sum_of_inputs": "{entries}: the input vectors were summed; the output "
    "is {math:output_sum}, with the values {math:V_eq_X_W_V}, not the rows of X.",
    "diagnosis.mask_after_softmax": "{entries}: the mask was applied after the softmax, so "
    "the rows no longer sum to 1; set the masked scores to {math:neg_inf} before the softmax.",
    "diagnosis.mask_wrong_triangle": "{entries}: the causal mask keeps the wrong triangle: "
    "query {math:i} may attend to keys {math:j_le_i} (itself and the tokens before it), not "
    "{math:j_ge_i}.",
    "diagnosis.jacobian_diagonal_only": "{entries}: only the diagonal of the softmax Jacobian "
    "was used, {math:jacobian_diagonal}; the Jacobian is {math:jacobian}, so {math:dS_prime_ij}.",
    "diagnosis.backward_no_scaling": "{entries}: {math:dS_prime} was not divided by {root}; the "
    "scores were scaled on the way forward, so {math:dS_scaled} on the way back.",
    "diagnosis.backward_transposed": "{entries}: the product is not transposed where it must "
    "be: {math:dV_backward} and {math:dK_backward}.",
    "diagnosis.premature_rounding": "{entries}: the {what} were rounded to {places} decimal "
    "place{plural} before they were used, and the error grew in the next step; keep at least "
    "4 places in intermediate results.",
    "diagnosis.premature_rounding_step": "{entries}: {step} was written with only {places} "
    "decimal place{plural} and the next step was worked from it, so the error grew; keep at "
    "least 4 places in intermediate results.",
    "diagnosis.rounded.scores": "scores",
    "diagnosis.rounded.weights": "weights",
    "diagnosis.slip_entry": "{name}: you wrote {given}, it is {want}",
    "diagnosis.arithmetic_slip": "{slips}",
    "diagnosis.arithmetic_slip_one": ". The other entries are right, so recheck the "
    "arithmetic of this entry.",
    "diagnosis.arithmetic_slip_many": ". The other entries are right, so recheck the "
    "arithmetic of these entries.",
    "mistake.no_scaling": "scores not scaled",
    "mistake.scaled_by_d_model": "scaled by {math:sqrt_d_model}",
    "mistake.scaled_by_dk": "scaled by {math:d_k}",
    "mistake.scale_multiplied": "scale multiplied",
    "mistake.no_softmax": "no softmax",
    "mistake.softmax_wrong_axis": "softmax down the columns",
    "mistake.softmax_global": "softmax over the whole matrix",
    "mistake.exp_missing_in_softmax": "softmax without exponentials",
    "mistake.scores_transposed": "scores transposed",
    "mistake.weights_transposed": "weights transposed",
    "mistake.weighted_sum_of_keys": "keys summed instead of values",
    "mistake.weighted_sum_of_inputs": "inputs summed instead of values",
    "mistake.mask_after_softmax": "mask after the softmax",
    "mistake.mask_wrong_triangle": "mask on the wrong triangle",
    "mistake.jacobian_diagonal_only": "diagonal of the Jacobian only",
    "mistake.backward_no_scaling": "gradient not scaled",
    "mistake.backward_transposed": "gradient product not transposed",
    "mistake.premature_rounding": "rounded too early",
    "mistake.arithmetic_slip": "arithmetic slip",
    # -- entries and steps that could not be read ------------------------------------------
    "entry.invalid": "{text} could not be read as a number ({reason}); write it as 0.1070, "
    "3/4, {math:sqrt_2} or e^2/(e^2 + e^5)",
    "entry.too_coarse": "write {places} decimal places",
    "entry.exact_close": "{text} was read as an exact value, and it is not the exact key "
    "{exact} {math:approx} {decimal}; write the decimal if you meant an approximation",
    "step.unreadable": "this step could not be read as a {rows} × {cols} matrix: {reason}",
    # -- exercise sheets -----------------------------------------------------------------
    "sheet.name": "Name:",
    "sheet.intro": "Compute every step by hand and write your answers in the boxes as decimals "
    "with {places} places and a decimal point (2.1213, not 2,1213). An exact value (an "
    "integer, 5/2, {math:sqrt_2}) is right too, except in a Moodle quiz, which reads decimals "
    "only. "
    "Use the space under each step for your working.",
    "sheet.sentence": "Sentence:",
    "sheet.vocabulary": "Vocabulary (each token's id is its position):",
    "sheet.token": "token",
    "sheet.id": "id",
    "sheet.embedding": "Embedding table E (row {math:i} is the embedding of id {math:i}, "
    "counting from 0) and the weights:",
    "sheet.working": "Working:",
    "sheet.tokens": "Tokens:",
    "sheet.scale": "Divide the scores by",
    "sheet.causal": "Causal mask: query {math:i} may attend only to keys {math:one_to_i}; "
    "masked scores are {math:neg_inf} and their weights are 0.",
    "sheet.no_scale": "Do not scale the scores in this exercise: with {math:d_k} "
    "= {d_k}, {math:sqrt_dk} is not "
    "a whole number, and the scaled scores would not be nice.",
    "sheet.summary": "Answer keys",
    "exercise.title": "Attention exercise {label}",
    "exercise.for": "{title} — {student}",
    "exercise.key": "{title} — answer key",
    "exercise.tokens": "the cat sat on a warm mat today",
    "exercise.vocabulary": "the cat sat on a warm mat today dog ran",
    # -- HTML pages --------------------------------------------------------------------
    "html.contents": "Contents",
    "html.subtitle": "Every step of attention worked out by hand: the formula, the numbers "
    "substituted, the exact value and its decimal.",
    "html.footer": "Written by symattn {version}. The math is MathML: it needs no script "
    "and no network.",
    "html.first_error": "first error",
    "html.mark.ok": "right",
    "html.mark.wrong": "wrong",
    "html.mark.too_coarse": "too coarse",
    "html.mark.invalid": "not a number",
    "html.mark.carried": "carried forward",
    "html.list_join": ", ",
    "feedback.slip_hidden": "recheck the arithmetic of {entries}; the other entries are right.",
    # -- positions, RoPE, temperature, additive attention, column layout ---------
    "title.P": "Positional encoding",
    "title.X_pos": "Add the positions to the embeddings",
    "title.Q_rot": "Rotary position embedding of the queries",
    "title.K_rot": "Rotary position embedding of the keys",
    "title.additive_hidden": "Additive attention: the hidden vectors",
    "derive.column": "Column {i}{label}, written out:",
    "derive.given_positions_sinusoidal": "Positions: P is the sinusoidal table (row {math:pos} "
    "is position {math:pos}, counted from 0), added to X before the projections:",
    "derive.given_positions_given": "Positions: P is given (row {math:pos} is position "
    "{math:pos}, counted from 0) and added to X before the projections.",
    "derive.given_rope": "RoPE: before the scores, columns {math:two_i} and {math:two_i_plus_1} "
    "of row {math:pos} of Q and of K ({math:pos} counted from 0) are turned together by the "
    "angle",
    "derive.given_rope_base": ", with {math:base} = {base}.",
    "derive.given_rope_turn": "Each pair is turned the same way in Q and in K:",
    "derive.given_additive": "Additive scores, in place of {math:q_dot_k}:",
    "derive.temperature": "The temperature divides the scaled scores as well:",
    "derive.window": "A sliding window: query {math:i} sees only the keys {math:j} with "
    "{math:window_keys} (itself and the {math:w_minus_1} keys before it), and every other key "
    "is masked,",
    "derive.alibi": "ALiBi: each head adds the bias {math:alibi_bias} to its scaled scores (the "
    "farther the key, the lower the score), with the slope",
    "derive.alibi_head": "head {head}:",
    "derive.temperature_alone": "The temperature divides the scores:",
    "derive.column_layout": "Column layout: each token is a column ({math:Q_column}), the "
    "scores are K transposed times Q, one column per query, and the softmax runs down each "
    "column.",
    "derive.positions": "Row {math:pos} of P is position {math:pos} (counted from 0); "
    "{math:pos_zero} gives {math:sin_zero} and {math:cos_zero}. The other values are "
    "transcendental: they stay {math:sin} and {math:cos} of the exact angle, and their decimals "
    "are certified.",
    "derive.additive_rows": "One row per pair (query {math:i}, key {math:j}), in the order "
    "(1,1), (1,2), …",
    "diagnosis.pe_sin_cos_swapped": "{entries}: {math:sin} and {math:cos} are swapped in the "
    "positional encoding: columns {math:two_i} (the 1st, 3rd, … column) take {math:pe_sin} and "
    "columns {math:two_i_plus_1} (the 2nd, 4th, …) take {math:cos}.",
    "diagnosis.pe_added_after_projection": "{entries}: the positions were added after the "
    "projection ({math:XW_plus_P}); they are added to the embeddings first: "
    "{math:Q_with_positions}.",
    "diagnosis.rope_pairs_wrong": "{entries}: the wrong columns were rotated together ({math:i} "
    "and {math:i_plus_half_d}, as rotate-half does); this problem turns the pairs "
    "{math:rope_pair} of each row.",
    "diagnosis.window_off_by_one": "{entries}: the window is one key too wide "
    "({math:window_too_wide}); query {math:i} sees the {math:w} = {w} keys {math:window_keys}, "
    "itself included.",
    "diagnosis.alibi_sign_flipped": "{entries}: the bias was added with the wrong sign "
    "({math:alibi_bias_flipped}); ALiBi lowers the scores of far keys: {math:alibi_bias}.",
    "diagnosis.column_layout_transposed": "{entries}: this is the row layout (each token a row); "
    "the problem uses the column layout, so each token is a column: transpose your matrix.",
    "mistake.pe_sin_cos_swapped": "sin and cos swapped",
    "mistake.pe_added_after_projection": "positions added after the projection",
    "mistake.rope_pairs_wrong": "RoPE pairs wrong",
    "mistake.window_off_by_one": "window one key too wide",
    "mistake.alibi_sign_flipped": "ALiBi bias with the wrong sign",
    "mistake.column_layout_transposed": "row layout instead of column layout",
    # -- the Moodle quiz ----------------------------------------------------------------
    "moodle.intro": "Compute every step by hand and type each entry in its box as a decimal "
    "with {places} decimal places and a decimal point, not a comma (2.1213, not 2,1213, "
    "which Moodle may read as 21213). Moodle reads no fractions or roots: type 2.5, not 5/2.",
    "moodle.no_scale": "Do not scale the scores in this exercise.",
    "moodle.mask": "Mask: where this table shows 0, the score is {math:neg_inf} and its weight is "
    "0.",
    "moodle.neg_inf": "Type a masked score as -inf.",
    "moodle.text": "Sentence:",
    "moodle.vocabulary": "Vocabulary and embedding rows:",
    "moodle.right": "Right.",
    "moodle.pair": "two mistakes at once: {first} and {second}.",
    "moodle.colon": ": ",
    "moodle.join": " Or: ",
    "moodle.general": "Each box accepts every number within ±{tolerance} of the exact value. "
    "When a wrong number is within ±{tolerance} of what a common mistake gives, the feedback "
    "names that mistake.",
    # -- the self-check page ---------------------------------------------------------
    "selfcheck.subtitle": "Self-check: type your answers; each entry is marked as you type.",
    "selfcheck.intro": "Type each entry in its box: ✓ means right, ✗ wrong, ? not a number. "
    "When a step is wrong in a way a known mistake explains, the mistake is named under it. "
    "You may write 0.1070, 0,1070, 3/4, {math:sqrt_2}, 5{math:sqrt_2}/2, e^2/(e^2 + e^5), 10.7% "
    "or -inf.",
    "selfcheck.places": "Give exact values where you can (integers, fractions); otherwise "
    "write {places} decimal places.",
    "selfcheck.no_places": "Give exact values where you can; a decimal is right when it is "
    "within one unit of its last place.",
    "selfcheck.noscript": "Marking needs JavaScript, which is off in this browser: turn it on "
    "to see ✓ and ✗ as you type. You can still print this page and fill it in by hand.",
    "selfcheck.embedding": "The rows of the embedding table E for these ids:",
    "selfcheck.mask": "The mask: 1 where query {math:i} may see key {math:j}, 0 where it may "
    "not. Masked scores are {math:neg_inf} and their weights are 0.",
    "selfcheck.mark.ok": "right",
    "selfcheck.mark.wrong": "wrong",
    "selfcheck.mark.too_coarse": "too few decimal places",
    "selfcheck.mark.invalid": "not a number",
    "selfcheck.download": "Download my answers (answers.json)",
    "selfcheck.kept": "What you type is kept in this browser for this page; download your "
    "answers to hand them in.",
    "selfcheck.why.arithmetic_slip": "The other entries are right: recheck the arithmetic of "
    "the entries marked ✗.",
    "selfcheck.why.column_layout_transposed": "This is the row layout (each token a row); the "
    "problem uses the column layout, so each token is a column: transpose your matrix.",
    "selfcheck.mark.carried": "right from your own earlier answers (the error was carried forward)",
    "selfcheck.note.carried": "Carried forward: right when worked from your own answers to "
    "{steps}, which are wrong; the method of this step is right.",
    "selfcheck.note.rounded": "Right when worked from your own rounded answers to {steps}.",
    "selfcheck.invalid": "could not be read as a number; write it as 0.1070, 3/4, {math:sqrt_2} or "
    "e^2/(e^2 + e^5)",
    "selfcheck.exact_close": "was read as an exact value, and it is not the exact value of "
    "this entry; write the decimal if you meant an approximation",
    "selfcheck.entry_note": "{name}: {message}",
    "selfcheck.tally": "{right} of {total} right",
    "selfcheck.total": "Right so far: {right} of {total} entries.",
    "selfcheck.footer": "Written by symattn {version}. Your answers are checked inside this "
    "page: nothing is sent anywhere.",
}

"""The independent NumPy path of additive attention: H[(i, j)] = q_i W_a + k_j U_a and
S[i, j] = tanh(H[(i, j)]) · v_a, with ``np.tanh``."""

from __future__ import annotations

from typing import Any

import numpy as np

from .numpy_base import NumpyPath, Out, Pair, floats

__all__ = ["PATH"]


class AdditivePath(NumpyPath):
    def scores(
        self, problem: Any, config: Any, prefix: str, q: str, k: str, out: Out
    ) -> Pair | None:
        (qv, mq), (kv, mk) = out[q], out[k]
        w_a, u_a, v_a = (floats(m) for m in (config.W_a, config.U_a, config.v_a))
        n, m = qv.shape[0], kv.shape[0]
        hidden = (qv @ w_a)[:, None, :] + (kv @ u_a)[None, :, :]
        hidden_mag = (mq @ np.abs(w_a))[:, None, :] + (mk @ np.abs(u_a))[None, :, :]
        scores = np.tanh(hidden) @ v_a[:, 0]
        # tanh is 1-Lipschitz: the size of a score is Σ |v_r| (|tanh h_r| + |h_r| ε-terms)
        scores_mag = (np.abs(np.tanh(hidden)) + hidden_mag) @ np.abs(v_a[:, 0])
        out[f"{prefix}additive_hidden"] = (hidden.reshape(n * m, -1), hidden_mag.reshape(n * m, -1))
        return scores, scores_mag


PATH = AdditivePath()

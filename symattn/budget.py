"""A time budget: work that runs past it ends with a clear error instead of a hang.

The command runs each derivation, each check and each graded file inside
:func:`time_budget`; the message names the option that lifts the limit
(``--time-limit 0``: none).  The budget uses the process's real-time timer
(``SIGALRM``), so it applies in the main thread of a POSIX process only; elsewhere the
work runs unbudgeted.  A long computation inside one C call (a FLINT product, say) ends
when that call returns.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Iterator

from .errors import SymattnError

__all__ = ["DEFAULT_TIME_LIMIT", "MAX_TIME_LIMIT", "TimeLimitExceeded", "time_budget"]

#: Seconds a derivation, a check or one graded file may take unless the caller lifts it.
DEFAULT_TIME_LIMIT = 120.0
#: Largest budget accepted (about eleven days; 0 is no limit at all).
MAX_TIME_LIMIT = 1e6


class TimeLimitExceeded(SymattnError):
    """The work took longer than its budget."""


def _usable() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def time_budget(seconds: float | None, what: str) -> Iterator[None]:
    """Run the block for at most ``seconds`` (None or 0: no limit), else raise
    :class:`TimeLimitExceeded` naming ``what``.  Inside another budget that ends sooner,
    the outer one stays in charge; otherwise the outer one goes on counting afterwards."""
    if seconds is not None and not 0 <= seconds <= MAX_TIME_LIMIT:  # also refuses nan
        raise SymattnError(
            f"expected 0 … {int(MAX_TIME_LIMIT)} seconds, found {seconds:g}", option="time_limit"
        )
    if not seconds or not _usable():
        yield
        return
    outer, _ = signal.getitimer(signal.ITIMER_REAL)
    if outer and outer <= seconds:
        yield
        return

    def expired(signum: int, frame: object) -> None:
        raise TimeLimitExceeded(
            f"{what}: stopped after the time limit of {seconds:g} s",
            lift=("time_limit", 0),
        )

    start = time.monotonic()
    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer:
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - start), 1e-3))

"""A time budget: work that runs past it ends with a clear error instead of a hang.

The command runs each derivation, each check and each graded file inside
:func:`time_budget`; the message names the option that lifts the limit
(``--time-limit 0``: none).  The budget uses the process's real-time timer
(``SIGALRM``), so it applies in the main thread of a POSIX process only; elsewhere the
work runs unbudgeted.  A long computation inside one C call (a FLINT product, say) ends
when that call returns.

The timer does not raise :class:`TimeLimitExceeded` itself, which is a
:class:`ValueError` like every :class:`~symattn.errors.SymattnError`: library code that
the work runs through catches ``ValueError`` (SymPy's sign test around an evaluation
does) and would swallow it, letting the work run on unbounded.  The timer raises
:class:`_Expired`, a :class:`BaseException` as :class:`KeyboardInterrupt` is, and goes on
firing every :data:`_AGAIN` seconds until the block is left; leaving it turns that into
:class:`TimeLimitExceeded`.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import time
from contextlib import AbstractContextManager
from types import FrameType, TracebackType

from .errors import SymattnError

__all__ = ["DEFAULT_TIME_LIMIT", "MAX_TIME_LIMIT", "TimeLimitExceeded", "time_budget"]

#: Seconds a derivation, a check or one graded file may take unless the caller lifts it.
DEFAULT_TIME_LIMIT = 120.0
#: Largest budget accepted (about eleven days; 0 is no limit at all).
MAX_TIME_LIMIT = 1e6
#: Seconds between further signals once the budget is spent, should code that the work
#: runs through catch even a BaseException.
_AGAIN = 0.25


class TimeLimitExceeded(SymattnError):
    """The work took longer than its budget."""


class _Expired(BaseException):
    """The timer of ``budget`` fired: not an :class:`Exception`, so that no
    ``except Exception`` in library code takes it for that code's own failure."""

    def __init__(self, budget: _Budget) -> None:
        super().__init__(budget.what)
        self.budget = budget


def _usable() -> bool:
    """A POSIX timer, and the main thread (the only one when threading was never loaded:
    it is not loaded on the command's start, issue 24)."""
    threading = sys.modules.get("threading")
    in_main = threading is None or threading.current_thread() is threading.main_thread()
    return hasattr(signal, "setitimer") and in_main


class _Budget:
    """One armed budget: the timer, the handler it replaced and the outer timer's rest."""

    def __init__(self, seconds: float, what: str) -> None:
        self.seconds = seconds
        self.what = what
        self.open = False
        self.outer = 0.0
        self.start = 0.0
        self.previous: object = None

    def __enter__(self) -> None:
        self.outer, _ = signal.getitimer(signal.ITIMER_REAL)
        self.start = time.monotonic()
        self.previous = signal.signal(signal.SIGALRM, self._expired)
        self.open = True
        signal.setitimer(signal.ITIMER_REAL, self.seconds, _AGAIN)

    def _expired(self, signum: int, frame: FrameType | None) -> None:
        if not self.open:
            return
        if frame is not None and frame.f_code in _OWN_CODE:
            # Not while the block is being entered or left (then __exit__ would not run,
            # or not to its end): once more in a moment.
            signal.setitimer(signal.ITIMER_REAL, 1e-4, _AGAIN)
            return
        raise _Expired(self)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.open = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.previous)  # type: ignore[arg-type]
        if self.outer:
            rest = self.outer - (time.monotonic() - self.start)
            signal.setitimer(signal.ITIMER_REAL, max(rest, 1e-3))
        if isinstance(error, _Expired) and error.budget is self:
            raise TimeLimitExceeded(
                f"{self.what}: stopped after the time limit of {self.seconds:g} s",
                lift=("time_limit", 0),
            ) from None


_OWN_CODE = (_Budget.__enter__.__code__, _Budget.__exit__.__code__)


def time_budget(seconds: float | None, what: str) -> AbstractContextManager[None]:
    """Run the block for at most ``seconds`` (None or 0: no limit), else raise
    :class:`TimeLimitExceeded` naming ``what``.  Inside another budget that ends sooner,
    the outer one stays in charge; otherwise the outer one goes on counting afterwards."""
    if seconds is not None and not 0 <= seconds <= MAX_TIME_LIMIT:  # also refuses nan
        raise SymattnError(
            f"expected 0 … {int(MAX_TIME_LIMIT)} seconds, found {seconds:g}", option="time_limit"
        )
    if not seconds or not _usable():
        return contextlib.nullcontext()
    outer, _ = signal.getitimer(signal.ITIMER_REAL)
    if outer and outer <= seconds:
        return contextlib.nullcontext()
    return _Budget(seconds, what)

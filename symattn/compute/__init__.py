"""Computing attention: the exact engine (:mod:`.forward`, :mod:`.exact`,
:mod:`.backward`), decimal rules shared with the mistake models (:mod:`.values`,
:mod:`.variants`), the independent NumPy path (:mod:`.numeric`) and the cross-check
(:mod:`.crosscheck`)."""

from .pipeline import derivation

__all__ = ["derivation"]

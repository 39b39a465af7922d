"""A derivation as a :class:`~.document.Document`: the walk's blocks under the
problem's title, in the options' language."""

from __future__ import annotations

from ..derivation import Derivation
from ..version import __version__
from .document import Document
from .kinds import build_blocks
from .options import RenderOptions

__all__ = ["derivation_document"]


def derivation_document(derivation: Derivation, options: RenderOptions) -> Document:
    """What every writer writes for ``derivation``: its steps with ``options``' rows,
    heads and places, in ``options``' language (a row or head that is not in the problem
    is an error)."""
    w = options.words
    return Document(
        title=derivation.problem.title or w("title"),
        blocks=tuple(build_blocks(derivation, options)),
        subtitle=w("html.subtitle"),
        footer=w("html.footer", version=__version__),
        contents=True,
        lang=options.lang,
        renames=dict(derivation.problem.renames),
    )

"""Reading input safely: the value grammar, tokens, problem files."""

from .files import read_file
from .problem_file import DEFAULT_MAX_SIZE, DEFAULT_MAX_SYMBOLIC_SIZE, known_keys, load, plain
from .tokens import Vocabulary, tokenize
from .values import Monomial, ValueSyntaxError, parse_value

__all__ = [
    "DEFAULT_MAX_SIZE",
    "DEFAULT_MAX_SYMBOLIC_SIZE",
    "Monomial",
    "ValueSyntaxError",
    "Vocabulary",
    "known_keys",
    "load",
    "parse_value",
    "plain",
    "read_file",
    "tokenize",
]

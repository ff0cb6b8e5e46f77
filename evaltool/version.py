"""The version of evaltool (one place; the package and the score JSON read it)."""

__version__ = "0.1.0"

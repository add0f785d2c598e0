"""Card data files (TOML), their schema, the loader and the typed effect vocabulary."""

from .loader import CardFileError, CardSet, load_files, load_texts, starter_set

__all__ = ["CardFileError", "CardSet", "load_files", "load_texts", "starter_set"]

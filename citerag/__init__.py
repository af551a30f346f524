"""citerag: retrieval-augmented generation that cites exactly where it looked."""

__version__ = "0.1.0"

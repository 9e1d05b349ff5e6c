"""Source readers.

The module files parsed with ``ast``, for what mypy drops (docstrings,
``Annotated`` metadata, annotations as written, names, lone surrogates).
"""

"""Rules both front ends apply, written once.

Descriptions, docstrings, defaults, bounds, ``Annotated`` metadata, type
building, recursion and folding, and the texts users read.

Each front end only finds facts in its own world (live objects, or mypy's
types and the parsed source) and hands them to these functions; nothing here
imports either front end.
"""

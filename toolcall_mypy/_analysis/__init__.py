"""The static front end.

Mypy's types and nodes of a ``@tool`` function -> the IR and its located
findings (no reporting here).
"""

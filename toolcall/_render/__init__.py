"""The renderers: a tool's IR -> the definition each provider variant expects.

``definitions`` is the entry (``render_tool``, ``render_variants``,
``check_request``); ``canonical`` builds the one JSON Schema every variant
starts from, ``strict`` and ``gemini`` are the passes of the modes with rules
of their own (``profiles``), ``envelopes`` wraps a schema in a provider's
shape and ``limits`` checks the documented limits. ``toolcall._providers``
is the one table of providers. This package's ``__init__`` imports nothing.
"""

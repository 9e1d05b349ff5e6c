"""What a tool module declares.

``@tool`` and the registry of declared tools, ``Param`` and ``Injected``,
``TypeProvider`` and ``use_types``.

Nothing here resolves annotations: that happens on a toolset's first use.
"""

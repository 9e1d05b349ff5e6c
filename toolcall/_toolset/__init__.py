"""What users call.

``Toolset`` and the tools it loads on first use, ``emit``, ``describe``,
``tool_names``, ``run`` and ``arun``.
"""

"""The dispatcher's machinery.

A tool's IR and function -> a generated argument binder (``binder``), the
coercers it calls (``coercers``), the code generator both use (``codegen``),
and ``Ok``/``Err`` (``result``).
"""

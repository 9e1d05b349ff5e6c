"""toolcall's mypy plugin (the static front end).

It will derive each tool's IR from mypy's analyzed types, report schema
problems with ``toolcall-*`` error codes and write the schema cache. Until
it lands, this package exists so the distribution layout is complete; it
registers no plugin entry point, so enabling it in mypy fails loudly
instead of silently checking nothing.
"""

"""The schema cache: the file the mypy plugin writes beside a tool module, and the runtime's reader of it.

``constants`` is the leaf both sides share; ``file_format`` (path, content,
seal, atomic write), ``layout`` and ``tables`` are the file's form;
``shapes`` checks a loaded file's content; ``freshness`` tells whether the
source files an entry depends on changed; ``mode`` reads ``TOOLCALL_CACHE``;
``loader`` serves current entries on first use, and says why it does not
serve the rest (a ``problem``), which ``report`` warns once about.
"""

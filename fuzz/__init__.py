"""Fuzz targets for toolcall, and the harness that runs them: ``python -m fuzz``.

Each target is a module here that defines ``inputs()`` (a Hypothesis
strategy) and ``check(value)`` (raises ``AssertionError`` when the contract
breaks), and may define ``setup()`` and ``teardown()``. ``fuzz/README.md``
says what each target checks and how to run and reproduce. Not part of the
distribution.
"""

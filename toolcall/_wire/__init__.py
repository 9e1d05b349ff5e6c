"""Wire values.

How Python values travel as JSON and back (patterns, ISO 8601 texts, scalar
coercers, argument text decoding, return value encoding).
"""

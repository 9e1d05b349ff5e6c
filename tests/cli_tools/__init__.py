"""Tool modules that ``tests/test_cli_serve.py`` serves with ``toolcall serve``."""

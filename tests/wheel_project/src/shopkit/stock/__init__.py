"""Stock tools, a subpackage with tools of its own."""

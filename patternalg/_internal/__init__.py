"""Plumbing shared by the rest: atomic writes, generated literal modules, limits, TOML writing, options, display."""

"""patternalg: closed-form performance models of parallel programs built from design patterns."""

"""One module per sub-command of the command line; each has ``add_arguments`` and ``run``."""

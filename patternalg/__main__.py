"""``python -m patternalg``: the command line, as the ``patternalg`` program runs it."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())

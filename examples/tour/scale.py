"""The tour's second program: read numbers, one a line, and print each times 2.5
(``python3 scale.py X``). Alone, with nothing on its standard input, it scales X numbers of
its own, so that it can be measured apart from the program that feeds it.
"""

import sys
from collections.abc import Iterable, Iterator


def scaled(lines: Iterable[str], count: int) -> Iterator[str]:
    """Each number of ``lines`` times 2.5; none given: ``count`` numbers of its own.

    >>> list(scaled(["1\\n", "2\\n"], 2)), list(scaled([], 2))
    (['2.5\\n', '5.0\\n'], ['0.0\\n', '1.25\\n'])
    """
    lines = iter(lines)
    first = next(lines, None)
    if first is None:  # alone: numbers of its own, as text, as a pipe would bring them
        lines, first = iter([f"{k / count}\n" for k in range(1, count)]), "0.0\n"
    yield f"{float(first) * 2.5}\n"
    for line in lines:
        yield f"{float(line) * 2.5}\n"


if __name__ == "__main__":
    piped = not sys.stdin.isatty()  # at a terminal: alone, nothing to wait for
    sys.stdout.writelines(scaled(sys.stdin if piped else [], int(sys.argv[1])))

"""The tour's first program: print X pseudo-random numbers, one a line (``python3 make.py X``).

A pipeline's first stage: it writes as it goes, so the next stage can start at once.
"""

import random
import sys


def main(count: int) -> None:
    rng = random.Random(count)
    write = sys.stdout.write
    for _ in range(count):
        write(f"{rng.random()}\n")


if __name__ == "__main__":
    main(int(sys.argv[1]))  # an integer: `patternalg measure` gives integers where asked for them

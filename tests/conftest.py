"""Shared test configuration: hypothesis profiles.

With the environment variable ``CI`` set, property tests run a fixed number of examples,
derandomized and without deadlines, so a slow or busy machine never turns a correct
change red. Locally they draw at random, 50 examples a test unless it says otherwise, without
deadlines too (sympy is slow on a shared machine).
"""

import os

from hypothesis import settings

settings.register_profile("ci", deadline=None, max_examples=50, derandomize=True)
settings.register_profile("dev", deadline=None, max_examples=50)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

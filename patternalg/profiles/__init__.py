"""Profiles of a real application as a term you can redesign: call trees over runs in, a term
and fitted atoms out.

A profile (Caliper ``.cali`` or JSON, Score-P Cube, Python's cProfile, or any Hatchet or
Thicket GraphFrame) is one run's call tree; the runs of one program, each at its parameter
value (``--param``), become a :class:`CallTree`; :func:`profile_term` makes it one term
(every node ``seq(own, child_1, ..., child_k)``, threaded regions ``tpool_N``) and
:func:`fit_profile` fits every atom over the runs. ``patternalg profile`` does all three and
the per-node check (:mod:`patternalg.evidence.profile_check`); docs/profiles.md shows it on
LULESH.
"""

from .fit import ProfileFit, fit_profile
from .graphframe import from_graphframe
from .params import Param
from .read import read_profile, read_profiles
from .term import MIN_SHARE, ProfileTerm, profile_term
from .tree import CallTree, Profile

__all__ = [
    "Profile",
    "CallTree",
    "Param",
    "ProfileTerm",
    "ProfileFit",
    "profile_term",
    "fit_profile",
    "read_profile",
    "read_profiles",
    "from_graphframe",
    "MIN_SHARE",
]

"""The generic game contract now lives in the package (:mod:`qardlab.engine.contract`), so any game,
inside qardlab or not, can run it; this module re-exports it for older imports."""

from qardlab.engine.contract import *  # noqa: F401,F403
from qardlab.engine.contract import __all__  # noqa: F401

"""``python -m qardlab serve ...``: the same command as the ``qardlab`` console script."""

import sys

from .classroom.cli import main

sys.exit(main())

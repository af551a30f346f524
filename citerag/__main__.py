"""``python -m citerag`` runs the command line."""

import sys

from citerag.cli import main

sys.exit(main())

"""``python -m majiang`` runs the command line."""

import sys

from majiang.cli import main

sys.exit(main())

"""``python -m pokereval ...``: the same command line as the ``pokereval`` script."""
import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())

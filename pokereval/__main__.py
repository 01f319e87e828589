"""``python -m pokereval ...``: the same command line as the ``pokereval`` script."""
from .cli import entry

if __name__ == "__main__":
    entry()

"""The one version source: ``pyproject.toml`` reads it (setuptools dynamic version)."""
__version__ = "0.1.0"

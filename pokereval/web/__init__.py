"""The web calculator (``pokereval serve``): a Starlette app and its static page.

Needs the ``web`` extra (starlette, uvicorn).  :func:`create_app` builds the ASGI
app; :class:`Limits` holds its per-request caps and worker-pool size.
"""
from .app import Limits, create_app

__all__ = ["Limits", "create_app"]

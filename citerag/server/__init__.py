"""HTTP service for citerag: LangServe routes for the answering graph, a documents API with
server-side status, and bearer-token access control.

Start it with ``citerag serve`` or build the app yourself::

    from citerag.server import create_app, load_settings

    app = create_app(load_settings("examples/server.toml"))
"""

from citerag.server.app import create_app
from citerag.server.settings import ServerSettings, load_settings

__all__ = ["ServerSettings", "create_app", "load_settings"]

"""The server's routers, one module per area; :func:`citerag.server.app.create_app` includes
them. Handlers get the shared objects through :mod:`citerag.server.deps`.
"""

"""``GET /``: a browser goes to the web app, an API client learns where things are.

Public (it holds no data): a request whose ``Accept`` header prefers HTML (a browser's
address bar) is redirected to ``/app/``; any other gets a small JSON document pointing at
the app, the probes and the API reference.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

import citerag

router = APIRouter(include_in_schema=False)


def wants_html(accept: str) -> bool:
    """Whether an ``Accept`` header asks for HTML before JSON (what browsers send).

    Args:
        accept: The header's value ('' when absent).

    Returns:
        ``True`` if ``text/html`` is listed and comes before any JSON type.
    """
    kinds = [part.split(";")[0].strip().lower() for part in accept.split(",")]
    if "text/html" not in kinds:
        return False
    json_at = [i for i, k in enumerate(kinds) if k in ("application/json", "*/*") and k]
    return not json_at or kinds.index("text/html") < json_at[0]


@router.get("/")
def home(request: Request) -> Response:
    """Browsers: 303 to ``/app/``; API clients: where the app, probes and API live."""
    if wants_html(request.headers.get("accept", "")):
        return RedirectResponse("/app/", status_code=303)
    return JSONResponse(
        {
            "service": "citerag",
            "version": citerag.__version__,
            "app": "/app/",
            "health": "/health",
            "ready": "/ready",
            "api": "/docs",
            "detail": "send 'Authorization: Bearer <token>' to every other route",
        }
    )

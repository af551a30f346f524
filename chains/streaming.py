"""Answer text as it is written: what a stream shows before the answer is validated.

The ``generate`` node sends each piece of the model's prose to LangGraph's ``custom`` stream
as a :func:`token_event`; the ``<summary>`` block at its end is machine-readable and never
shown (:class:`ProseFilter` holds back what could be its start), and each citation marker is
shown as the validated answer writes it, ``[n]``, once it is complete (:class:`MarkerDraft`
holds back a marker still being written). Each attempt opens with an
:func:`attempt_event`, so a client that showed a failed attempt's text clears it when the
ladder retries. Streamed text is a draft: the run's final output (status, validated answer,
citations) is the only thing to trust, and a marker in the draft becomes a citation only when
the final output lists it.
"""

from __future__ import annotations

from typing import Any

from chains.citations import MARKER_FRAGMENT, bare_markers, unfinished_marker

#: Where the machine-readable block starts; nothing from there on is shown.
BLOCK_START = "<summary>"


class ProseFilter:
    """Feeds through the prose of a streamed answer and stops at its ``<summary>`` block.

    Text that could be the beginning of ``<summary>`` is held back until the next piece
    shows whether it is.
    """

    def __init__(self, block_start: str = BLOCK_START) -> None:
        """Start a filter.

        Args:
            block_start: The tag that opens the block to hide.
        """
        if not block_start:
            raise ValueError("block_start must be a non-empty tag")
        self._tag = block_start
        self._held = ""
        self._done = False

    @property
    def done(self) -> bool:
        """Whether the block has started (nothing more will be let through)."""
        return self._done

    def feed(self, text: str) -> str:
        """The part of ``text`` (with anything held back before) that is prose for sure."""
        if self._done or not text:
            return ""
        buf = self._held + text
        at = buf.find(self._tag)
        if at >= 0:
            self._done = True
            self._held = ""
            return buf[:at]
        keep = 0
        for n in range(min(len(self._tag) - 1, len(buf)), 0, -1):
            if self._tag.startswith(buf[-n:]):
                keep = n
                break
        self._held = buf[len(buf) - keep :] if keep else ""
        return buf[: len(buf) - keep]

    def flush(self) -> str:
        """What was held back, at the end of the answer (it was not the block's start)."""
        out, self._held = ("" if self._done else self._held), ""
        return out


#: Most characters of an unfinished marker a draft holds back (a quote of a long sentence
#: fits): past it the opening is shown as written, and the validated answer removes it.
MAX_HELD = 600


class MarkerDraft:
    """Shows a streamed answer's citation markers as the validated answer will write them.

    A complete marker (``[1: "the quoted text"]``, ``【1】``, ``[1, 2]``) is shown as ``[1]``
    (``[1][2]``) by :func:`chains.citations.bare_markers`; a marker still being written at the
    end of what has arrived (``[1: "the quo``) is held back until it is complete
    (:func:`chains.citations.unfinished_marker`), and only that tail, up to
    :data:`MAX_HELD` characters (a marker a model opens and never closes does not hold back
    the rest of the answer). Which markers become
    citations is still the validator's to say: the draft shows their form, not their
    verdict.
    """

    def __init__(self) -> None:
        """Start a draft with nothing held back."""
        self._held = ""

    def feed(self, text: str) -> str:
        """The part of ``text`` (with anything held back before) that reads the same
        whatever comes next, its markers as ``[n]``."""
        if not text:
            return ""
        buf = self._held + text
        cut = unfinished_marker(buf)
        if len(buf) - cut > MAX_HELD:  # an opening never closed: shown as written, not held
            cut = len(buf)  # to the end (and the held text, so each feed's scan, is bounded)
        self._held = buf[cut:]
        return bare_markers(buf[:cut])

    def flush(self) -> str:
        """What was held back, at the end of the answer: a marker never completed is what
        is left of one (:data:`chains.citations.MARKER_FRAGMENT`), which the validated answer
        does not show either."""
        held, self._held = self._held, ""
        return MARKER_FRAGMENT.sub("", bare_markers(held))


def token_event(text: str, attempt: int) -> dict[str, Any]:
    """A ``custom`` stream event with a piece of answer text."""
    return {"type": "token", "attempt": attempt, "text": text}


def attempt_event(attempt: int) -> dict[str, Any]:
    """A ``custom`` stream event opening a generation attempt (clear earlier text)."""
    return {"type": "attempt", "attempt": attempt}

"""E-mail attachments as sources of their own: collected from their message file.

Each supported attachment of a ``.eml`` source (all levels of attached messages, within the
caps of :mod:`loaders.attachments`) becomes a **child source**: a
:class:`~loaders.pipeline.SourceFile` whose ``path`` is the message file, whose source key is
the message's plus the attachment's address (``mail/offer.eml#attachment=2/price-list.xlsx``;
so its document id is stable across runs while the file's bytes are), whose access label is
the message's, and whose ``attached`` says where its bytes are. It is planned like any
source, with the **message file's sha256** (so it is skipped, processed or retried along with
its message) and no user metadata of its own.

That keeps attachments from being orphaned (:mod:`citerag.index.plan`): a previous
attachment document whose message file is among the run's sources but which was not
collected again (the message changed) is deleted; one whose message is deleted on request
is deleted; pruning removes it with its message (its key lies under the same folder).
"""

from __future__ import annotations

import logging

from citerag.index.plan import CollectedSource
from loaders.attachments import attachment_tree
from loaders.pipeline import AttachedTo, SourceFile
from loaders.registry import read_document_bytes

log = logging.getLogger(__name__)

#: Suffix of the files whose attachments are collected.
MESSAGE_SUFFIX = ".eml"


def attachment_sources(message: CollectedSource) -> list[CollectedSource]:
    """The child sources of one message file.

    Args:
        message: A collected ``.eml`` file (not itself an attachment).

    Returns:
        One source per attachment that is a document, in the tree's order; none when the
        file cannot be read or parsed (its own document then fails with the reason) or is
        over the loaders' size limit.
    """
    src = message.file
    try:
        tree = attachment_tree(read_document_bytes(src.path))
    except Exception as exc:  # unreadable or malformed: the message's own parse says why
        log.debug("attachments of %s not collected: %s", src.source, exc)
        return []
    out = []
    for att in tree.attachments:
        if not att.indexed:
            continue
        link = AttachedTo(src.source, src.source + att.parent_address, att.positions, att.name)
        child = SourceFile(src.path, src.source + att.address, src.access, attached=link)
        out.append(CollectedSource(child, message.sha256, ""))
    return out


def with_attachments(collected: list[CollectedSource]) -> list[CollectedSource]:
    """The run's sources with each message file's child sources right after it.

    Args:
        collected: The hashed sources of the run.

    Returns:
        A new list: every source, then after each readable ``.eml`` file its attachments.
    """
    out: list[CollectedSource] = []
    for item in collected:
        out.append(item)
        src = item.file
        if (
            src.attached is None
            and item.sha256 is not None
            and src.path.suffix.lower() == MESSAGE_SUFFIX
        ):
            out += attachment_sources(item)
    return out

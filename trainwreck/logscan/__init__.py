"""Read a training log as a stream and keep only what diagnosis needs.

reader: blocks, parallel reading, the NUL rule; cleaning: escapes and progress
bars; layout and dialects/: how this log writes its loss; positions: the log's
own epoch and step numbers; messages: declared and well-known messages;
evidence: the bounded summary a scan returns.
"""
from .evidence import KEEP, Evidence
from .messages import MessageFinder
from .positions import Position
from .reader import LogError, scan, scan_path, scan_text

__all__ = ["KEEP", "Evidence", "LogError", "MessageFinder", "Position", "scan", "scan_path", "scan_text"]

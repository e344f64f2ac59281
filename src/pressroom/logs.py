"""Logging set-up: JSON lines (the default) or plain text, for the ``pressroom`` loggers.

An access line carries request id, method, path, route name, status, duration, user id and client address;
an error line carries the request id when there is one, the exception type and a stack trace (logs only,
never a response).
"""

from __future__ import annotations

import logging
import sys
import time
from typing import Any

import orjson

# Attributes every LogRecord has; anything else on a record was passed with ``extra=`` and is written.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update({key: value for key, value in vars(record).items() if key not in _STANDARD})
        if record.exc_info:
            entry["error"] = record.exc_info[0].__name__ if record.exc_info[0] else None
            entry["trace"] = self.formatException(record.exc_info)
        return orjson.dumps(entry, default=str).decode()


def configure_logging(log_format: str = "json", level: int = logging.INFO) -> None:
    """Send the ``pressroom`` loggers to stderr in ``log_format`` (``json`` or ``text``); idempotent."""
    logger = logging.getLogger("pressroom")
    handler = logging.StreamHandler(sys.stderr)
    if log_format == "text":
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    else:
        handler.setFormatter(JsonFormatter())
    logger.handlers[:] = [handler]
    logger.setLevel(level)
    logger.propagate = False

"""Logging set-up: JSON lines (the default) or plain text, for the ``pressroom`` loggers and the web server's.

An access line carries request id, method, path, route name, status, duration, user id and client address;
an error line carries the request id when there is one, the exception type and a stack trace (logs only,
never a response). In text mode those fields follow the message as ``name=value``. Granian's own lines
(start-up, workers, shutdown) go through :func:`granian_log_config` in the same format, so a JSON log is
JSON on every line.
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
        entry.update(_extras(record))
        if record.exc_info:
            entry["error"] = record.exc_info[0].__name__ if record.exc_info[0] else None
            entry["trace"] = self.formatException(record.exc_info)
        return orjson.dumps(entry, default=str).decode()


def _extras(record: logging.LogRecord) -> dict[str, Any]:
    return {key: value for key, value in vars(record).items() if key not in _STANDARD}


class TextFormatter(logging.Formatter):
    """``time LEVEL logger: message key=value ...``: the fields an access or error line carries, readable."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        fields = " ".join(f"{key}={_text_value(value)}" for key, value in _extras(record).items())
        if not fields:
            return line
        head, newline, trace = line.partition("\n")  # a stack trace stays below the line
        return f"{head} {fields}{newline}{trace}"


def _text_value(value: object) -> str:
    text = str(value)
    return orjson.dumps(text).decode() if not text or any(c.isspace() or c == '"' for c in text) else text


def formatter(log_format: str) -> logging.Formatter:
    return TextFormatter() if log_format == "text" else JsonFormatter()


def configure_logging(log_format: str = "json", level: int = logging.INFO) -> None:
    """Send the ``pressroom`` loggers to stderr in ``log_format`` (``json`` or ``text``); idempotent."""
    logger = logging.getLogger("pressroom")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(formatter(log_format))
    logger.handlers[:] = [handler]
    logger.setLevel(level)
    logger.propagate = False


def granian_log_config(log_format: str) -> dict[str, Any]:
    """Granian's ``log_dictconfig``: its loggers write to stderr in our format (it applies this in the
    main process and in each worker)."""
    name = "text" if log_format == "text" else "json"
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {name: {"()": f"{__name__}.{type(formatter(log_format)).__name__}"}},
        "handlers": {
            "console": {"formatter": name, "class": "logging.StreamHandler", "stream": "ext://sys.stderr"}
        },
        "loggers": {
            "_granian": {"handlers": ["console"], "level": "INFO", "propagate": False},
            "granian.access": {"handlers": ["console"], "level": "INFO", "propagate": False},
        },
    }

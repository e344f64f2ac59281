"""Fixtures of the functional tests."""

from __future__ import annotations

import pytest

from pressroom.config import Settings
from tests.functional.content_support import install_language


@pytest.fixture
def german(settings: Settings) -> str:
    """ger-DE installed next to eng-GB (languages are read-only through the API)."""
    install_language(settings.database_url, "ger-DE")
    return "ger-DE"

"""The script-link check shared by ezurl and rich text (domain/fieldtypes/links.py)."""

from __future__ import annotations

import pytest

from pressroom.domain.fieldtypes.links import is_unsafe_link


@pytest.mark.parametrize(
    "link",
    [
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        "java\tscript:alert(1)",
        "java\nscript:alert(1)",
        "java\rscript:alert(1)",
        "\x01javascript:alert(1)",
        " \x00\x1f javascript:alert(1)",
        "jav\tas\ncr\ript:alert(1)",
        "vbscript:msgbox(1)",
        "VBScript:msgbox(1)",
        "data:text/html,<script>alert(1)</script>",
        "data:image/svg+xml,<svg onload=alert(1)>",
        "DATA:text/html;base64,PHNjcmlwdD4=",
    ],
)
def test_links_a_browser_runs_as_script_are_unsafe(link: str) -> None:
    assert is_unsafe_link(link)


@pytest.mark.parametrize(
    "link",
    [
        "https://example.com/javascript:x",
        "/relative/path",
        "#anchor",
        "mailto:ann@example.com",
        "ezcontent://59",
        "data:image/png;base64,iVBORw0KGgo=",
        "data:image/JPEG,abc",
        "javascript",  # no scheme: a relative link
        "\u00a0javascript:alert(1)",  # a non-ASCII space is not stripped: the scheme is then invalid
        "",
    ],
)
def test_other_links_are_safe(link: str) -> None:
    assert not is_unsafe_link(link)

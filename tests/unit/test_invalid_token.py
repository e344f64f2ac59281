"""The WWW-Authenticate challenge of a refused bearer token (RFC 6750 §3): a quoted description that the
message cannot break out of."""

from __future__ import annotations

from pressroom.domain.errors import InvalidToken


def test_the_challenge_names_the_error_and_describes_it() -> None:
    assert InvalidToken("The token has expired").challenge == (
        'Bearer error="invalid_token", error_description="The token has expired"'
    )


def test_quotes_backslashes_control_and_non_ascii_characters_stay_out_of_the_description() -> None:
    challenge = InvalidToken("No user has the login 'a\"b\\c\r\nSet-Cookie: x\u0142'").challenge
    assert challenge == (
        'Bearer error="invalid_token", error_description="No user has the login \'abcSet-Cookie: x\'"'
    )

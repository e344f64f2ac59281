"""Permission checks, the single place services ask "may this user do that?".

Until roles and policies are stored (the permission issue), the policy is the clean install's in its
simplest form: the anonymous user may read content, embed it and log in; every authenticated user is an
administrator (the only account that can log in today is the seeded ``admin``).
"""

from __future__ import annotations

from pressroom.domain.errors import Unauthorized
from pressroom.domain.user import User

ANONYMOUS_FUNCTIONS = frozenset({("content", "read"), ("content", "view_embed"), ("user", "login")})


class Permissions:
    def can(self, user: User, module: str, function: str) -> bool:
        if user.is_anonymous:
            return (module, function) in ANONYMOUS_FUNCTIONS
        return True

    def require(self, user: User, module: str, function: str) -> None:
        """Raise Unauthorized (401 on the wire) when the user lacks ``module/function``."""
        if not self.can(user, module, function):
            raise Unauthorized(f"The User does not have the '{function}' '{module}' permission")

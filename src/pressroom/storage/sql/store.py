"""The SQL store: opens transactions and hands out gateways bound to them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cached_property

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import DataError, DBAPIError, IntegrityError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from pressroom.domain.caller import RequestCaller
from pressroom.domain.errors import BadRequest, Forbidden, Unavailable
from pressroom.storage.spi import TreeLock
from pressroom.storage.sql.bookmark import SqlBookmarkGateway
from pressroom.storage.sql.cache import EpochCache, TxCache
from pressroom.storage.sql.caller import confirm as confirm_caller
from pressroom.storage.sql.content import SqlContentGateway
from pressroom.storage.sql.content_copy import SqlContentCopyGateway
from pressroom.storage.sql.content_type import SqlContentTypeGateway
from pressroom.storage.sql.engine import ReadConnections, WriteConnections, is_unique_violation
from pressroom.storage.sql.events import SqlEventGateway
from pressroom.storage.sql.image_variation import SqlImageVariationGateway
from pressroom.storage.sql.integrity import SqlIntegrityGateway
from pressroom.storage.sql.language import SqlLanguageGateway
from pressroom.storage.sql.location import SqlLocationGateway
from pressroom.storage.sql.migrate import is_current
from pressroom.storage.sql.oauth import SqlOAuthGateway
from pressroom.storage.sql.object_state import SqlObjectStateGateway
from pressroom.storage.sql.relation import SqlRelationGateway
from pressroom.storage.sql.role import SqlRoleGateway
from pressroom.storage.sql.search import SqlSearchGateway
from pressroom.storage.sql.search_index import SqlSearchIndexGateway
from pressroom.storage.sql.section import SqlSectionGateway
from pressroom.storage.sql.sequences import Blocks, TxBlocks
from pressroom.storage.sql.throttle import SqlLoginFailureGateway
from pressroom.storage.sql.trash import SqlTrashGateway
from pressroom.storage.sql.url_alias import SqlUrlAliasGateway, SqlUrlWildcardGateway
from pressroom.storage.sql.user import SqlSessionGateway, SqlSettingGateway, SqlUserGateway
from pressroom.storage.sql.webhooks import SqlWebhookGateway


class SqlTx:
    """Gateways for one transaction, created on first use."""

    def __init__(
        self,
        connection: Connection,
        anonymous_user_id: int,
        cache: EpochCache,
        blocks: Blocks | None = None,
        caller: RequestCaller | None = None,
    ) -> None:
        self.connection = connection
        self.anonymous_user_id = anonymous_user_id
        # The request's caller rides with the cache: the statements that learn the epoch confirm it too.
        self.cache = TxCache(cache, connection, caller)
        # A write's ids taken from the process's blocks (storage/sql/sequences.py); a read takes none.
        self.blocks = None if blocks is None else TxBlocks(blocks, connection)

    @cached_property
    def settings(self) -> SqlSettingGateway:
        return SqlSettingGateway(self.connection)

    @cached_property
    def languages(self) -> SqlLanguageGateway:
        return SqlLanguageGateway(self.connection, self.cache)

    @cached_property
    def sections(self) -> SqlSectionGateway:
        return SqlSectionGateway(self.connection, self.cache)

    @cached_property
    def users(self) -> SqlUserGateway:
        return SqlUserGateway(self.connection, self.anonymous_user_id)

    @cached_property
    def content_types(self) -> SqlContentTypeGateway:
        return SqlContentTypeGateway(self.connection, self.cache)

    @cached_property
    def content(self) -> SqlContentGateway:
        return SqlContentGateway(self.connection, self.cache, self.blocks)

    @cached_property
    def search_index(self) -> SqlSearchIndexGateway:
        return SqlSearchIndexGateway(self.connection)

    @cached_property
    def relations(self) -> SqlRelationGateway:
        return SqlRelationGateway(self.connection)

    @cached_property
    def copies(self) -> SqlContentCopyGateway:
        return SqlContentCopyGateway(self.connection)

    @cached_property
    def locations(self) -> SqlLocationGateway:
        return SqlLocationGateway(self.connection)

    @cached_property
    def object_states(self) -> SqlObjectStateGateway:
        return SqlObjectStateGateway(self.connection)

    @cached_property
    def bookmarks(self) -> SqlBookmarkGateway:
        return SqlBookmarkGateway(self.connection)

    @cached_property
    def image_variations(self) -> SqlImageVariationGateway:
        return SqlImageVariationGateway(self.connection)

    @cached_property
    def trash(self) -> SqlTrashGateway:
        return SqlTrashGateway(self.connection)

    @cached_property
    def roles(self) -> SqlRoleGateway:
        return SqlRoleGateway(self.connection, self.cache)

    @cached_property
    def search(self) -> SqlSearchGateway:
        return SqlSearchGateway(self.connection)

    @cached_property
    def events(self) -> SqlEventGateway:
        return SqlEventGateway(self.connection)

    @cached_property
    def webhooks(self) -> SqlWebhookGateway:
        return SqlWebhookGateway(self.connection)

    @cached_property
    def oauth(self) -> SqlOAuthGateway:
        return SqlOAuthGateway(self.connection)

    @cached_property
    def sessions(self) -> SqlSessionGateway:
        return SqlSessionGateway(self.connection)

    @cached_property
    def url_aliases(self) -> SqlUrlAliasGateway:
        return SqlUrlAliasGateway(self.connection, self.blocks)

    @cached_property
    def url_wildcards(self) -> SqlUrlWildcardGateway:
        return SqlUrlWildcardGateway(self.connection)

    @cached_property
    def integrity(self) -> SqlIntegrityGateway:
        return SqlIntegrityGateway(self.connection)

    @cached_property
    def login_failures(self) -> SqlLoginFailureGateway:
        return SqlLoginFailureGateway(self.connection)

    def confirm_caller(self) -> None:
        """Confirm the request's caller with a statement of its own, unless one already did."""
        caller = self.cache.caller
        if caller is not None and caller.pending() is not None:
            self.cache.saw_epoch(confirm_caller(self.connection, caller))


OUT_OF_RANGE = "A number in the request is outside the range the repository stores"
TOO_LONG = "A text in the request is longer than the repository stores"
_TRUNCATION_SQLSTATE = "22001"  # PostgreSQL string_data_right_truncation
UNAVAILABLE = "The repository database is unavailable; nothing was changed. Please retry"
RETRY_AFTER_SECONDS = 2
TOO_COMPLEX = "The query is too complex for the repository database; simplify it (a retry cannot succeed)"
_PROGRAM_LIMIT_SQLSTATE_CLASS = "54"  # PostgreSQL program_limit_exceeded: statement_too_complex, ...
# SQLite reports its limits (sqlite3_limit) as plain errors, told apart by their messages only.
_SQLITE_LIMITS = (
    "too many SQL variables",
    "Expression tree is too large",
    "parser stack overflow",
    "too many terms",
    "too many columns",
    "too many arguments on function",
    "too many FROM clause terms",
    "tables in a join",
    "pattern too complex",
)


def _too_complex(error: DBAPIError) -> bool:
    """The database refused the statement for its size (an SQL limit), not for its own state."""
    sqlstate = getattr(error.orig, "sqlstate", None)
    if sqlstate is not None:
        return str(sqlstate).startswith(_PROGRAM_LIMIT_SQLSTATE_CLASS)
    message = str(error.orig)
    return any(limit in message for limit in _SQLITE_LIMITS)


def _unavailable(error: Exception) -> bool:
    """The database went away (connection lost: the pool has discarded it and reconnects on the next
    checkout), refused a connection, or stayed locked past the busy timeout; or no pooled connection
    came free in time. None of these is the request's fault."""
    if isinstance(error, DBAPIError):
        return error.connection_invalidated or isinstance(error, OperationalError)
    return isinstance(error, PoolTimeout)


@contextmanager
def _driver_errors() -> Iterator[None]:
    """Driver errors the client can act on, as domain errors; any other one is a bug and propagates."""
    try:
        yield
    except DataError as error:  # a value the column cannot hold (PostgreSQL checks, SQLite does not)
        too_long = getattr(error.orig, "sqlstate", None) == _TRUNCATION_SQLSTATE
        raise BadRequest(TOO_LONG if too_long else OUT_OF_RANGE) from error
    except (DBAPIError, PoolTimeout) as error:
        if isinstance(error, DBAPIError) and _too_complex(error):
            raise BadRequest(TOO_COMPLEX) from error
        if _unavailable(error):
            raise Unavailable(UNAVAILABLE, RETRY_AFTER_SECONDS) from error
        raise


class SqlStore:
    def __init__(self, engine: Engine, anonymous_user_id: int = 10) -> None:
        self.engine = engine
        self.anonymous_user_id = anonymous_user_id
        self.cache = EpochCache()  # content types, languages, sections: see storage/sql/cache.py
        self.blocks = Blocks()  # field ids and URL alias nodes: see storage/sql/sequences.py
        self.reads = ReadConnections(engine)
        self.writes = WriteConnections(engine)

    def schema_is_current(self) -> bool:
        return is_current(self.engine)

    @contextmanager
    def read(self, caller: RequestCaller | None = None) -> Iterator[SqlTx]:
        """A read transaction; its statements confirm ``caller``, the request's (domain/caller.py)."""
        with _driver_errors(), self.reads.read() as connection:
            yield SqlTx(connection, self.anonymous_user_id, self.cache, caller=caller)

    @contextmanager
    def write(self, tree: TreeLock | None = None, caller: RequestCaller | None = None) -> Iterator[SqlTx]:
        """A write transaction, holding the tree lock ``tree`` asks for (``spi.TreeLock``), that commits
        nothing for a ``caller`` (the request's) the cache got wrong. A unique key
        that a concurrent writer got to first surfaces as Forbidden (the "identifier exists" answer); any
        other integrity error (foreign key, NOT NULL) is a bug and propagates, to be logged and answered
        500."""
        with _driver_errors():
            try:
                with self.writes.write(tree) as connection:
                    tx = SqlTx(connection, self.anonymous_user_id, self.cache, self.blocks, caller)
                    yield tx
                    tx.confirm_caller()  # nothing commits for a caller the cache got wrong
                if tx.blocks is not None:
                    tx.blocks.committed()
            except IntegrityError as error:
                if not is_unique_violation(error):
                    raise
                raise Forbidden("A concurrent change already took this identifier or position") from error

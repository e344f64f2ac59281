"""The SQL store: opens transactions and hands out gateways bound to them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cached_property

from sqlalchemy import Connection, Engine

from pressroom.storage.sql.engine import transaction
from pressroom.storage.sql.language import SqlLanguageGateway
from pressroom.storage.sql.section import SqlSectionGateway
from pressroom.storage.sql.user import SqlSessionGateway, SqlSettingGateway, SqlUserGateway


class SqlTx:
    """Gateways for one transaction, created on first use."""

    def __init__(self, connection: Connection, anonymous_user_id: int) -> None:
        self.connection = connection
        self.anonymous_user_id = anonymous_user_id

    @cached_property
    def settings(self) -> SqlSettingGateway:
        return SqlSettingGateway(self.connection)

    @cached_property
    def languages(self) -> SqlLanguageGateway:
        return SqlLanguageGateway(self.connection)

    @cached_property
    def sections(self) -> SqlSectionGateway:
        return SqlSectionGateway(self.connection)

    @cached_property
    def users(self) -> SqlUserGateway:
        return SqlUserGateway(self.connection, self.anonymous_user_id)

    @cached_property
    def sessions(self) -> SqlSessionGateway:
        return SqlSessionGateway(self.connection)


class SqlStore:
    def __init__(self, engine: Engine, anonymous_user_id: int = 10) -> None:
        self.engine = engine
        self.anonymous_user_id = anonymous_user_id

    @contextmanager
    def read(self) -> Iterator[SqlTx]:
        with transaction(self.engine, write=False) as connection:
            yield SqlTx(connection, self.anonymous_user_id)

    @contextmanager
    def write(self) -> Iterator[SqlTx]:
        with transaction(self.engine, write=True) as connection:
            yield SqlTx(connection, self.anonymous_user_id)

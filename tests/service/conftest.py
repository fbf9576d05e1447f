"""Fixtures of the service tests: the fixture game registered, a real server on port 0, stubs."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest

from games.core import register_game, unregister_game
from service.client import Stubs, stubs
from service.limits import Limits
from service.server import LictorServer, create_server
from tests.service import pg_cluster

PIG = "tests.fixtures.pig:PigGame"


def register_pig() -> None:
    """Register the fixture game as "pig" (tests only)."""
    register_game("pig", PIG, solver="tests.fixtures.pig_solver")


def unregister_pig() -> None:
    """Undo :func:`register_pig`."""
    unregister_game("pig")


@pytest.fixture(scope="package", autouse=True)
def pig_registered() -> Iterator[None]:
    """The fixture game is registered for every service test, and removed afterwards."""
    register_pig()
    yield
    unregister_pig()


TEST_LIMITS = Limits(
    max_simulations=100_000, max_search_s=20.0, default_search_s=0.2, max_concurrent_searches=4
)


@pytest.fixture(scope="package")
def server(
    tmp_path_factory: pytest.TempPathFactory, pig_registered: None
) -> Iterator[tuple[LictorServer, int]]:
    """A real server on a free loopback port with its own database."""
    db = tmp_path_factory.mktemp("db") / "lictor.db"
    srv, port = create_server("127.0.0.1:0", db_path=db, limits=TEST_LIMITS)
    yield srv, port
    srv.stop(None).wait(5)
    srv.close()


@pytest.fixture(scope="package")
def channel(server: tuple[LictorServer, int]) -> Iterator[grpc.Channel]:
    """A channel to the server."""
    ch = grpc.insecure_channel(f"127.0.0.1:{server[1]}")
    yield ch
    ch.close()


@pytest.fixture(scope="package")
def api(channel: grpc.Channel) -> Stubs:
    """Stubs of every service."""
    return stubs(channel)


@pytest.fixture(scope="session")
def postgres() -> Iterator[pg_cluster.Cluster]:
    """A PostgreSQL server of the test run's own (initdb into a temporary directory); the tests that
    need it skip, saying why, where PostgreSQL cannot run."""
    why = pg_cluster.unavailable()
    if why:
        pytest.skip(why)
    with pg_cluster.cluster() as cluster:
        yield cluster


@pytest.fixture
def pg_url(postgres: pg_cluster.Cluster) -> str:
    """The URL of a new, empty PostgreSQL database."""
    return postgres.new_database()

"""The relay's rig for its tests: a local relay made by scripts/rigs/relay-local.sh (the script docs/relay.md
tells a relay's owner to run), one per test file, and no race a failed test left open."""
import pytest

from relay import Relay


@pytest.fixture(scope="module")
def relay():
    made = Relay()
    try:
        yield made
    finally:
        made.stop()


@pytest.fixture(autouse=True)
def no_open_race(relay):
    """A race a failed test left open would refuse the next one's."""
    with relay.admin() as admin:
        admin.execute("UPDATE relay.runs SET state = 'cancelled', ended_at = now() "
                      "WHERE state IN ('invited', 'accepted')")
    yield

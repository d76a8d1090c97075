"""The relay attacked as docs/relay.md's threat model says it may be: by a fellow runner with an
enrolled certificate, by a stranger on the network and by a local user on the relay's host. The
attacks are Tests/rigs/relay_attacks.py's, which the before-and-after benchmark
(scripts/bench/relay-attacks.py) also makes."""
from relay_attacks import (test_connection_flood, test_forgery, test_no_reading_others,  # noqa: F401
                           test_one_race_at_once, test_stalling, test_strangers, test_terminal_text)

-- wearbridge relay, migration 2: a relay that runners who do not trust each other can share
-- (docs/relay.md, "Threat model"). What a fellow runner with an enrolled certificate must not do:
-- read anything of a race they are not in (not a row, not a plan's row count, not an error's
-- words, not a notification), hold everyone else up (a held lock, a held transaction, a flooded
-- NOTIFY queue, every connection slot), forge figures the relay's own clock rules out, or be in
-- two races at once.
--
-- How:
-- * Runners read through SECURITY DEFINER functions that decide membership first, never the
--   tables: EXPLAIN (ANALYZE) over a table counts the rows row-level security filtered out, so a
--   narrowing WHERE enumerates other runners' runs; inside a function the plan is not shown.
-- * No NOTIFY at all: a notification reaches anyone who LISTENs on its channel, the queue is one
--   for the whole cluster (a runner who LISTENs and never reads fills it, and then every
--   transaction that notifies fails), and every notifying commit queues on one lock. Phones poll
--   twice a second (they did already), so nothing is lost but a wake-up.
-- * Locks a runner cannot take: a row of relay.runners (no runner may lock it: it has no
--   privilege on the table) instead of advisory locks, whose keys anyone can take.
-- * Sweeping covers the caller's own runs, skips rows another transaction holds, and ends runner
--   sessions that hold a transaction open or stall their connection longer than
--   limits.stalled_after: the timeouts set on each runner's role are defaults a runner may change
--   for their own session, so the relay enforces the bound itself.
-- * Every function a runner calls waits at most 2 s for a lock, then fails with SQLSTATE 55P03.

-- The enrolled runners, one row each (`relay.enrol`): what the relay locks to serialise a runner's
-- invites and acceptances. Runners have no privilege on it.
CREATE TABLE relay.runners (
    runner name PRIMARY KEY,
    enrolled_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE relay.runners ENABLE ROW LEVEL SECURITY;
INSERT INTO relay.runners (runner)
SELECT u.rolname FROM pg_auth_members m
JOIN pg_roles g ON g.oid = m.roleid AND g.rolname = 'relay_runner'
JOIN pg_roles u ON u.oid = m.member AND u.rolcanlogin AND NOT u.rolsuper;

-- The new limits. Notifications are gone, and with them notify_snapshots.
ALTER TABLE relay.limits
    DROP COLUMN notify_snapshots,
    -- Per runner: connections at once (the role's CONNECTION LIMIT), and the session defaults the
    -- role gets (statement, lock, idle-in-transaction timeouts).
    ADD COLUMN connections_per_runner integer NOT NULL DEFAULT 6 CHECK (connections_per_runner BETWEEN 1 AND 100),
    ADD COLUMN statement_timeout interval NOT NULL DEFAULT '10 seconds',
    ADD COLUMN lock_timeout interval NOT NULL DEFAULT '2 seconds',
    ADD COLUMN idle_in_transaction_timeout interval NOT NULL DEFAULT '10 seconds',
    -- A runner's session whose transaction is older than this, or that has not read what the
    -- relay wrote to it for this long, is ended by the next sweep.
    ADD COLUMN stalled_after interval NOT NULL DEFAULT '30 seconds'
        CHECK (stalled_after BETWEEN '5 seconds' AND '10 minutes'),
    -- How far a runner's figures may run ahead of the relay's clock (a wearable's start is judged
    -- by GPS time, the relay's by its own): elapsed time at most the time since the start plus this.
    ADD COLUMN clock_slack interval NOT NULL DEFAULT '10 seconds'
        CHECK (clock_slack BETWEEN '0 seconds' AND '5 minutes'),
    -- Notices and critical messages: a bucket of message_burst, refilled message_rate a second.
    ADD COLUMN message_burst integer NOT NULL DEFAULT 10 CHECK (message_burst BETWEEN 1 AND 1000),
    ADD COLUMN message_rate double precision NOT NULL DEFAULT 2 CHECK (message_rate > 0 AND message_rate <= 100);

-- Each entry's bucket for notices and critical messages.
ALTER TABLE relay.entries
    ADD COLUMN message_tokens double precision,
    ADD COLUMN message_tokens_at timestamptz;

-- Finite figures on every numeric column the runners write. The last figures are the live ones
-- (cleared where a forged one is stored); final figures already stored stay as history, checked
-- from now on.
UPDATE relay.entries SET last_distance_m = NULL WHERE NOT last_distance_m BETWEEN 0 AND 1000000;
UPDATE relay.entries SET last_elapsed_s = NULL WHERE NOT last_elapsed_s BETWEEN 0 AND 604800;
ALTER TABLE relay.entries
    ADD CONSTRAINT entries_last_finite CHECK (
        (last_distance_m IS NULL OR last_distance_m BETWEEN 0 AND 1000000)
        AND (last_elapsed_s IS NULL OR last_elapsed_s BETWEEN 0 AND 604800)),
    ADD CONSTRAINT entries_final_finite CHECK (
        (final_distance_m IS NULL OR final_distance_m BETWEEN 0 AND 1000000)
        AND (final_elapsed_s IS NULL OR final_elapsed_s BETWEEN 0 AND 604800)
        AND (final_moving_s IS NULL OR final_moving_s BETWEEN 0 AND 604800)) NOT VALID;
ALTER TABLE relay.messages
    ADD CONSTRAINT messages_gps_time_finite CHECK (gps_time IS NULL OR isfinite(gps_time)) NOT VALID;
ALTER TABLE relay.runs
    ADD CONSTRAINT runs_reason_printable CHECK (reason IS NULL OR reason !~ '[[:cntrl:]]') NOT VALID;

-- Reads go through the functions below: no runner reads a table of races directly.
REVOKE SELECT ON relay.runs, relay.entries, relay.messages, relay.events FROM relay_runner;
DROP POLICY messages_as_me ON relay.messages;
DROP FUNCTION relay.channel(uuid);

-- Writers: messages only as themselves (the trigger, which no runner can disable, checks that and
-- membership first, before it reads anything).
CREATE POLICY messages_as_me ON relay.messages FOR INSERT TO relay_runner
    WITH CHECK (runner = session_user);

-- The caller's runs.
CREATE FUNCTION relay.runs_of_mine() RETURNS SETOF relay.runs
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    SELECT * FROM relay.runs WHERE inviter = session_user
    UNION ALL
    SELECT * FROM relay.runs WHERE invitee = session_user
$$;

CREATE OR REPLACE VIEW relay.my_runs WITH (security_invoker = true) AS
SELECT r.id, r.inviter, r.invitee, r.activity, r.distance_m, r.lead, r.invited_at, r.expires_at, r.start_at,
       r.ended_at, r.winner, r.reason, r.rematch_of,
       CASE WHEN r.state = 'invited' AND r.expires_at <= now() THEN 'expired' ELSE r.state END AS state,
       CASE WHEN session_user = r.inviter THEN r.invitee ELSE r.inviter END AS partner
FROM relay.runs_of_mine() r;

-- RUN's entries, for its runners.
CREATE FUNCTION relay.run_entries(run uuid) RETURNS SETOF relay.entries
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    SELECT e.* FROM relay.entries e
    WHERE e.run_id = run AND EXISTS (SELECT FROM relay.runs WHERE id = run AND session_user IN (inviter, invitee))
    ORDER BY e.runner
$$;

-- RUN's events after AFTER_ID, in order, for its runners.
CREATE FUNCTION relay.run_events(run uuid, after_id bigint DEFAULT 0) RETURNS SETOF relay.events
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    SELECT v.* FROM relay.events v
    WHERE v.run_id = run AND v.id > after_id
      AND EXISTS (SELECT FROM relay.runs WHERE id = run AND session_user IN (inviter, invitee))
    ORDER BY v.id
$$;

-- What OF_RUNNER said in RUN after AFTER_SEQ, in order (snapshots too unless SNAPSHOTS is false),
-- for the run's runners.
CREATE FUNCTION relay.run_messages(run uuid, of_runner name, after_seq bigint DEFAULT 0,
                                   snapshots boolean DEFAULT true) RETURNS SETOF relay.messages
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    SELECT m.* FROM relay.messages m
    WHERE m.run_id = run AND m.runner = of_runner AND m.seq > after_seq AND (snapshots OR m.class <> 'snapshot')
      AND EXISTS (SELECT FROM relay.runs WHERE id = run AND session_user IN (inviter, invitee))
    ORDER BY m.seq
$$;

-- The newest snapshot of OF_RUNNER in RUN, for the run's runners.
CREATE OR REPLACE FUNCTION relay.latest_snapshot(run uuid, of_runner name) RETURNS SETOF relay.messages
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    SELECT m.* FROM relay.messages m
    WHERE m.run_id = run AND m.runner = of_runner AND m.class = 'snapshot'
      AND EXISTS (SELECT FROM relay.runs WHERE id = run AND session_user IN (inviter, invitee))
    ORDER BY m.seq DESC LIMIT 1
$$;

-- Makes RUNNER a runner, or brings an enrolled runner's role up to the limits: a login role in
-- relay_runner and nothing else, at most limits.connections_per_runner connections, the session
-- timeouts as its defaults, and its row in relay.runners. For the relay's owner only.
CREATE FUNCTION relay.enrol(runner name) RETURNS boolean
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    lim relay.limits;
    created boolean := false;
BEGIN
    IF runner !~ '^[a-z][a-z0-9_]{0,62}$' THEN
        PERFORM relay.fail('WB002', format('%s is not a runner''s name ([a-z][a-z0-9_]*, at most 63)', runner));
    END IF;
    SELECT * INTO lim FROM relay.limits;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = runner) THEN
        EXECUTE format('CREATE ROLE %I LOGIN IN ROLE relay_runner', runner);
        created := true;
    ELSIF NOT relay.is_runner(runner) THEN
        PERFORM relay.fail('WB001', format('a role named %s exists and is not a runner; choose another name', runner));
    END IF;
    EXECUTE format('ALTER ROLE %I CONNECTION LIMIT %s', runner, lim.connections_per_runner);
    EXECUTE format('ALTER ROLE %I SET statement_timeout = %s', runner,
        (extract(epoch FROM lim.statement_timeout) * 1000)::bigint);
    EXECUTE format('ALTER ROLE %I SET lock_timeout = %s', runner,
        (extract(epoch FROM lim.lock_timeout) * 1000)::bigint);
    EXECUTE format('ALTER ROLE %I SET idle_in_transaction_session_timeout = %s', runner,
        (extract(epoch FROM lim.idle_in_transaction_timeout) * 1000)::bigint);
    INSERT INTO relay.runners (runner) VALUES (runner) ON CONFLICT DO NOTHING;
    RETURN created;
END
$$;
SELECT relay.enrol(runner) FROM relay.runners;

-- Records a relay event. Nothing is notified: phones read events past their mark twice a second.
CREATE OR REPLACE FUNCTION relay.emit(run uuid, what text, who name, detail jsonb) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    new_id bigint;
BEGIN
    INSERT INTO relay.events (run_id, kind, runner, body) VALUES (run, what, who, coalesce(detail, '{}'))
    RETURNING id INTO new_id;
    RETURN new_id;
END
$$;

-- Ends the sessions of runners that hold a transaction open longer than limits.stalled_after (a
-- held lock, a held snapshot, a statement that runs on) or have not taken what the relay sent them
-- for as long. Returns how many it ended; each is in the server's log.
CREATE FUNCTION relay.cut_off_stalled() RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    lim relay.limits;
    cut integer := 0;
    x record;
BEGIN
    SELECT * INTO lim FROM relay.limits;
    FOR x IN
        SELECT a.pid, a.usename, a.state, a.wait_event FROM pg_stat_activity a
        JOIN relay.runners r ON r.runner = a.usename
        WHERE a.pid <> pg_backend_pid() AND a.backend_type = 'client backend'
          AND (a.xact_start < clock_timestamp() - lim.stalled_after
               OR (a.wait_event = 'ClientWrite' AND a.state_change < clock_timestamp() - lim.stalled_after))
    LOOP
        BEGIN
            IF pg_terminate_backend(x.pid) THEN
                RAISE LOG 'relay: ended % session % (%, waiting on %) after %', x.usename, x.pid, x.state,
                    coalesce(x.wait_event, 'nothing'), lim.stalled_after;
                cut := cut + 1;
            END IF;
        EXCEPTION WHEN insufficient_privilege THEN
            RAISE WARNING 'relay: the relay''s owner may not end session % (grant it pg_signal_backend)', x.pid;
        END;
    END LOOP;
    RETURN cut;
END
$$;

-- The clock work for the runs of WHO: invites past their time expire, runners silent for longer
-- than their run allows are abandoned, each exactly once. Rows another transaction holds are
-- skipped (the next sweep takes them), so no one's open transaction holds a sweep up.
CREATE FUNCTION relay.sweep_for(who name[]) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    acted integer := 0;
    x record;
BEGIN
    FOR x IN
        SELECT id, expires_at FROM relay.runs
        WHERE (inviter = ANY (who) OR invitee = ANY (who)) AND state = 'invited' AND expires_at <= now()
        FOR UPDATE SKIP LOCKED
    LOOP
        UPDATE relay.runs SET state = 'expired', ended_at = x.expires_at, reason = 'not accepted in time'
        WHERE id = x.id;
        PERFORM relay.emit(x.id, 'expired', NULL, jsonb_build_object('expired_at', x.expires_at));
        acted := acted + 1;
    END LOOP;
    FOR x IN
        SELECT e.run_id, e.runner FROM relay.entries e JOIN relay.runs r ON r.id = e.run_id
        WHERE (r.inviter = ANY (who) OR r.invitee = ANY (who)) AND r.state = 'accepted' AND e.outcome IS NULL
          AND greatest(r.start_at, e.last_seen_at) + r.abandon_after <= now()
        FOR UPDATE OF e SKIP LOCKED
    LOOP
        UPDATE relay.entries SET outcome = 'abandoned', ended_at = now(),
            final_distance_m = last_distance_m, final_elapsed_s = last_elapsed_s
        WHERE run_id = x.run_id AND runner = x.runner;
        PERFORM relay.emit(x.run_id, 'abandoned', x.runner, (
            SELECT jsonb_build_object('distance_m', last_distance_m, 'elapsed_s', last_elapsed_s,
                                      'last_seen_at', last_seen_at)
            FROM relay.entries WHERE run_id = x.run_id AND runner = x.runner));
        acted := acted + 1;
    END LOOP;
    -- Every accepted run of WHO whose entries have all ended is decided (a run another transaction
    -- holds is left to the next sweep).
    FOR x IN
        SELECT r.id FROM relay.runs r
        WHERE (r.inviter = ANY (who) OR r.invitee = ANY (who)) AND r.state = 'accepted'
          AND NOT EXISTS (SELECT FROM relay.entries e WHERE e.run_id = r.id AND e.outcome IS NULL)
          AND EXISTS (SELECT FROM relay.entries e WHERE e.run_id = r.id)
        FOR UPDATE OF r SKIP LOCKED
    LOOP
        PERFORM relay.decide(x.id);
    END LOOP;
    RETURN acted;
END
$$;

-- The caller's clock work (the phones call it every few seconds), and the relay's guard against
-- stalled sessions.
CREATE OR REPLACE FUNCTION relay.sweep() RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET lock_timeout = '2s' AS $$
BEGIN
    PERFORM relay.cut_off_stalled();
    RETURN relay.sweep_for(ARRAY[session_user]::name[]);
END
$$;

CREATE OR REPLACE FUNCTION relay.invite(
    partner name, activity text DEFAULT 'run', distance_m double precision DEFAULT NULL,
    lead interval DEFAULT '90 seconds', abandon_after interval DEFAULT NULL, expires_in interval DEFAULT NULL,
    rematch_of uuid DEFAULT NULL
) RETURNS uuid
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    lim relay.limits;
    new_id uuid;
BEGIN
    SELECT * INTO lim FROM relay.limits;
    IF partner = session_user THEN
        PERFORM relay.fail('WB101', 'a runner cannot invite themselves');
    END IF;
    IF NOT relay.is_runner(partner) THEN
        PERFORM relay.fail('WB102', format('no runner named %s on this relay', partner));
    END IF;
    IF invite.rematch_of IS NOT NULL AND NOT EXISTS (
        SELECT FROM relay.runs WHERE id = invite.rematch_of AND session_user IN (inviter, invitee)
            AND invite.partner IN (inviter, invitee)) THEN
        PERFORM relay.fail('WB103', 'a rematch names a run between the same two runners');
    END IF;
    -- The inviter's own row serialises their invites (the pending count below).
    PERFORM FROM relay.runners WHERE runner = session_user FOR UPDATE;
    PERFORM relay.sweep_for(ARRAY[session_user]::name[]);
    IF (SELECT count(*) FROM relay.runs WHERE inviter = session_user AND state = 'invited')
       >= lim.pending_invites THEN
        PERFORM relay.fail('WB104', format('%s invites are already pending; cancel one or wait for it to expire',
            lim.pending_invites));
    END IF;
    IF expires_in IS NOT NULL AND expires_in NOT BETWEEN '1 second' AND lim.invite_ttl THEN
        PERFORM relay.fail('WB105', format('an invite expires within 1 s to %s', lim.invite_ttl));
    END IF;
    INSERT INTO relay.runs (inviter, invitee, activity, distance_m, lead, abandon_after, expires_at, rematch_of)
    VALUES (session_user, partner, invite.activity, invite.distance_m, invite.lead,
            coalesce(invite.abandon_after, lim.abandon_after), now() + coalesce(expires_in, lim.invite_ttl),
            invite.rematch_of)
    RETURNING id INTO new_id;
    PERFORM relay.emit(new_id, 'invited', session_user, jsonb_build_object('partner', partner));
    RETURN new_id;
END
$$;

-- Accepts an invite. Both runners' rows are locked, in name order, before the one-race rule is
-- checked, so two acceptances that involve one runner take turns and the second sees the first.
CREATE OR REPLACE FUNCTION relay.accept(run uuid) RETURNS timestamptz
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    r relay.runs;
BEGIN
    SELECT * INTO r FROM relay.runs WHERE id = run AND session_user IN (inviter, invitee);
    IF NOT FOUND THEN
        PERFORM relay.fail('WB201', format('no run %s of yours', run));
    END IF;
    IF r.invitee <> session_user THEN
        PERFORM relay.fail('WB202', 'only the invited runner accepts');
    END IF;
    PERFORM FROM relay.runners WHERE runner IN (r.inviter, r.invitee) ORDER BY runner FOR UPDATE;
    PERFORM relay.sweep_for(ARRAY[r.inviter, r.invitee]::name[]);
    SELECT * INTO r FROM relay.runs WHERE id = run FOR UPDATE;
    IF r.state <> 'invited' THEN
        PERFORM relay.fail('WB203', CASE r.state WHEN 'accepted' THEN 'the invite was already accepted'
            ELSE format('the invite is %s and cannot be accepted', r.state) END);
    END IF;
    IF EXISTS (SELECT FROM relay.runs WHERE state = 'accepted'
               AND (inviter IN (r.inviter, r.invitee) OR invitee IN (r.inviter, r.invitee))) THEN
        PERFORM relay.fail('WB204', 'one of the runners is already in a race that has not ended');
    END IF;
    UPDATE relay.runs SET state = 'accepted', start_at = now() + r.lead WHERE id = run RETURNING * INTO r;
    INSERT INTO relay.entries (run_id, runner) VALUES (run, r.inviter), (run, r.invitee);
    PERFORM relay.emit(run, 'accepted', session_user, jsonb_build_object('start_at', r.start_at));
    RETURN r.start_at;
END
$$;

-- Cancels an invite or a race not yet decided; the reason is printable text.
CREATE OR REPLACE FUNCTION relay.cancel(run uuid, reason text DEFAULT NULL) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET lock_timeout = '2s' AS $$
BEGIN
    IF cancel.reason ~ '[[:cntrl:]]' THEN
        PERFORM relay.fail('WB303', 'a reason is printable text, without control characters');
    END IF;
    PERFORM relay.sweep();
    UPDATE relay.runs SET state = 'cancelled', ended_at = now(), reason = left(cancel.reason, 200)
    WHERE id = run AND session_user IN (inviter, invitee) AND state IN ('invited', 'accepted');
    IF NOT FOUND THEN
        PERFORM relay.fail('WB302', format('no invite or race %s of yours that can be cancelled', run));
    END IF;
    PERFORM relay.emit(run, 'cancelled', session_user, jsonb_build_object('reason', left(cancel.reason, 200)));
END
$$;

-- The final figures, bounded by the relay's clock: not before the start, elapsed time within the
-- time since the start plus limits.clock_slack, finite, within the activity's top speed.
CREATE OR REPLACE FUNCTION relay.finish(run uuid, distance_m double precision, elapsed_s double precision,
                                        moving_s double precision) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    e relay.entries;
    r relay.runs;
    lim relay.limits;
    top double precision;
    lasted double precision;
BEGIN
    PERFORM relay.sweep();
    SELECT * INTO r FROM relay.runs WHERE id = run AND session_user IN (inviter, invitee);
    IF NOT FOUND THEN
        PERFORM relay.fail('WB501', format('no race %s of yours', run));
    END IF;
    SELECT * INTO e FROM relay.entries WHERE run_id = run AND runner = session_user FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM relay.fail('WB501', format('no race %s of yours', run));
    END IF;
    IF e.outcome = 'finished' AND e.final_distance_m = distance_m AND e.final_elapsed_s = elapsed_s
       AND e.final_moving_s IS NOT DISTINCT FROM moving_s THEN
        RETURN (SELECT state FROM relay.runs WHERE id = run);
    END IF;
    IF e.outcome IS NOT NULL THEN
        PERFORM relay.fail('WB502', format('this runner already ended the race (%s)', e.outcome));
    END IF;
    IF r.state <> 'accepted' THEN
        PERFORM relay.fail('WB503', format('the race is %s', r.state));
    END IF;
    IF now() < r.start_at THEN
        PERFORM relay.fail('WB506', format('the race starts at %s: no final figures before its start',
            r.start_at));
    END IF;
    IF distance_m IS NULL OR elapsed_s IS NULL OR NOT distance_m BETWEEN 0 AND 1000000
       OR NOT elapsed_s BETWEEN 0 AND 604800 OR NOT coalesce(moving_s, 0) BETWEEN 0 AND 604800
       OR moving_s > elapsed_s + 1 THEN
        PERFORM relay.fail('WB504', 'final figures need a finite distance (0 to 1000000 m) and elapsed time '
            || '(0 to 7 days), moving time within it');
    END IF;
    SELECT * INTO lim FROM relay.limits;
    lasted := extract(epoch FROM now() - r.start_at);
    IF elapsed_s > lasted + extract(epoch FROM lim.clock_slack) THEN
        PERFORM relay.fail('WB507', format('%s s is longer than the race has lasted by the relay''s clock (%s s)',
            round(elapsed_s::numeric, 1), round(lasted::numeric, 1)));
    END IF;
    SELECT top_speed INTO top FROM relay.activities WHERE activity = r.activity;
    IF distance_m > top * elapsed_s + 50 THEN
        PERFORM relay.fail('WB505', format('%s m in %s s is beyond a %s''s top speed of %s m/s',
            round(distance_m::numeric, 1), round(elapsed_s::numeric, 1), r.activity, top));
    END IF;
    UPDATE relay.entries SET outcome = 'finished', ended_at = now(), final_distance_m = distance_m,
        final_elapsed_s = elapsed_s, final_moving_s = moving_s
    WHERE run_id = run AND runner = session_user;
    PERFORM relay.emit(run, 'finished', session_user, jsonb_build_object(
        'distance_m', distance_m, 'elapsed_s', elapsed_s, 'moving_s', moving_s));
    PERFORM relay.decide(run);
    RETURN (SELECT state FROM relay.runs WHERE id = run);
END
$$;

-- Every message a runner inserts passes here. First who may write it: the runner themselves, in a
-- run they are in, and until that is settled nothing about the run is read or quoted (a refusal
-- reads as row-level security's, for a run that exists and one that does not). Then: a resend of
-- a stored key is skipped, the run must be under way, the server stamps the time, and the figures
-- must be finite, within the relay's clock and plausible against the runner's own previous ones,
-- whatever the class; notices and critical messages share a rate limit per runner.
CREATE OR REPLACE FUNCTION relay.check_message() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    r relay.runs;
    e relay.entries;
    prev relay.messages;
    lim relay.limits;
    top double precision;
    rate double precision;
    since_start double precision;
    tokens double precision;
BEGIN
    IF NEW.runner IS DISTINCT FROM session_user THEN
        RAISE EXCEPTION USING ERRCODE = '42501',
            MESSAGE = 'new row violates row-level security policy for table "messages"';
    END IF;
    SELECT * INTO r FROM relay.runs WHERE id = NEW.run_id AND session_user IN (inviter, invitee);
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = '42501',
            MESSAGE = 'new row violates row-level security policy for table "messages"';
    END IF;
    IF EXISTS (SELECT FROM relay.messages WHERE run_id = NEW.run_id AND runner = NEW.runner AND seq = NEW.seq) THEN
        RETURN NULL;
    END IF;
    IF r.state <> 'accepted' THEN
        PERFORM relay.fail('WB601', format('the race is %s; it takes no messages', r.state));
    END IF;
    IF NEW.class = 'snapshot' THEN
        SELECT * INTO e FROM relay.entries WHERE run_id = NEW.run_id AND runner = NEW.runner;
    ELSE  -- the rate limit's bucket is read and written under the row's lock
        SELECT * INTO e FROM relay.entries WHERE run_id = NEW.run_id AND runner = NEW.runner FOR UPDATE;
    END IF;
    IF e.outcome IS NOT NULL THEN
        PERFORM relay.fail('WB602', 'this runner has ended the race; it takes no more messages');
    END IF;
    IF NOT coalesce(NEW.distance_m, 0) BETWEEN 0 AND 1000000 OR NOT coalesce(NEW.elapsed_s, 0) BETWEEN 0 AND 604800
       OR NOT coalesce(NEW.moving_s, 0) BETWEEN 0 AND 604800 THEN
        PERFORM relay.fail('WB611', 'figures are finite: distance 0 to 1000000 m, times 0 to 7 days');
    END IF;
    SELECT * INTO lim FROM relay.limits;
    NEW.received_at := now();
    NEW.expires_at := NULL;
    since_start := greatest(0, extract(epoch FROM now() - r.start_at));
    IF NEW.gps_time IS NOT NULL AND NOT NEW.gps_time BETWEEN r.start_at - interval '1 hour' AND now() + lim.clock_slack THEN
        PERFORM relay.fail('WB610', 'gps_time lies outside the race (an hour before its start to now)');
    END IF;
    IF NEW.elapsed_s > since_start + extract(epoch FROM lim.clock_slack) THEN
        PERFORM relay.fail('WB608', format('%s s is longer than the race has lasted by the relay''s clock (%s s)',
            round(NEW.elapsed_s::numeric, 1), round(since_start::numeric, 1)));
    END IF;
    SELECT top_speed INTO top FROM relay.activities WHERE activity = r.activity;
    IF NEW.class = 'snapshot' THEN
        NEW.expires_at := now() + lim.snapshot_ttl;
        SELECT * INTO prev FROM relay.messages
        WHERE run_id = NEW.run_id AND runner = NEW.runner AND class = 'snapshot'
        ORDER BY seq DESC LIMIT 1;
        IF FOUND THEN
            IF NEW.seq < prev.seq THEN
                PERFORM relay.fail('WB603', format('snapshot %s is older than the stored %s', NEW.seq, prev.seq));
            END IF;
            IF NEW.distance_m < prev.distance_m - 0.5 THEN
                PERFORM relay.fail('WB604', format('distance goes backwards: %s m after %s m',
                    round(NEW.distance_m::numeric, 1), round(prev.distance_m::numeric, 1)));
            END IF;
            IF NEW.elapsed_s < prev.elapsed_s THEN
                PERFORM relay.fail('WB605', format('elapsed time goes backwards: %s s after %s s',
                    round(NEW.elapsed_s::numeric, 1), round(prev.elapsed_s::numeric, 1)));
            END IF;
            IF now() < prev.received_at + lim.snapshot_interval THEN
                PERFORM relay.fail('WB606', format('snapshots come at most one per %s', lim.snapshot_interval));
            END IF;
            -- Allow 25 m of GPS slack over the step before calling it impossible.
            rate := (NEW.distance_m - prev.distance_m - 25) / greatest(NEW.elapsed_s - prev.elapsed_s, 0.001);
        ELSE
            rate := (NEW.distance_m - 25) / greatest(NEW.elapsed_s, 0.001);
        END IF;
    ELSE
        tokens := least(lim.message_burst::double precision,
            coalesce(e.message_tokens, lim.message_burst)
            + lim.message_rate * extract(epoch FROM now() - coalesce(e.message_tokens_at, now())));
        IF tokens < 1 THEN
            PERFORM relay.fail('WB609', format('notices and critical messages come at most %s a second (%s at once)',
                lim.message_rate, lim.message_burst));
        END IF;
        -- Figures are judged against the runner's newest (from any class), as a snapshot's are.
        IF NEW.distance_m IS NOT NULL THEN
            IF e.last_distance_m IS NOT NULL AND e.last_elapsed_s IS NOT NULL THEN
                IF coalesce(NEW.elapsed_s, since_start) >= e.last_elapsed_s
                   AND NEW.distance_m < e.last_distance_m - 0.5 THEN
                    PERFORM relay.fail('WB604', format('distance goes backwards: %s m after %s m',
                        round(NEW.distance_m::numeric, 1), round(e.last_distance_m::numeric, 1)));
                END IF;
                rate := (NEW.distance_m - e.last_distance_m - 25)
                    / greatest(coalesce(NEW.elapsed_s, since_start) - e.last_elapsed_s, 0.001);
            ELSE
                rate := (NEW.distance_m - 25) / greatest(coalesce(NEW.elapsed_s, since_start), 0.001);
            END IF;
        END IF;
    END IF;
    IF rate > top THEN
        PERFORM relay.fail('WB607', format('%s m in %s s is beyond a %s''s top speed of %s m/s',
            round(NEW.distance_m::numeric, 1), round(coalesce(NEW.elapsed_s, since_start)::numeric, 1),
            r.activity, top));
    END IF;
    -- The runner's newest figures move forward only; a notice or critical message takes a token.
    UPDATE relay.entries SET last_seen_at = now(),
        message_tokens = CASE WHEN NEW.class = 'snapshot' THEN message_tokens ELSE tokens - 1 END,
        message_tokens_at = CASE WHEN NEW.class = 'snapshot' THEN message_tokens_at ELSE now() END,
        last_distance_m = CASE WHEN NEW.distance_m IS NOT NULL AND NEW.elapsed_s IS NOT NULL
            AND (last_elapsed_s IS NULL OR NEW.elapsed_s >= last_elapsed_s) THEN NEW.distance_m ELSE last_distance_m END,
        last_elapsed_s = CASE WHEN NEW.distance_m IS NOT NULL AND NEW.elapsed_s IS NOT NULL
            AND (last_elapsed_s IS NULL OR NEW.elapsed_s >= last_elapsed_s) THEN NEW.elapsed_s ELSE last_elapsed_s END
    WHERE run_id = NEW.run_id AND runner = NEW.runner;
    RETURN NEW;
END
$$;

-- The functions that take a lock wait at most 2 s for it.
ALTER FUNCTION relay.decline(uuid) SET lock_timeout = '2s';
ALTER FUNCTION relay.report_start(uuid, integer) SET lock_timeout = '2s';
ALTER FUNCTION relay.decide(uuid) SET lock_timeout = '2s';

REVOKE ALL ON ALL FUNCTIONS IN SCHEMA relay FROM PUBLIC;
GRANT EXECUTE ON FUNCTION relay.invite(name, text, double precision, interval, interval, interval, uuid),
    relay.accept(uuid), relay.decline(uuid), relay.cancel(uuid, text), relay.report_start(uuid, integer),
    relay.finish(uuid, double precision, double precision, double precision), relay.sweep(),
    relay.latest_snapshot(uuid, name), relay.server_time(), relay.runs_of_mine(), relay.run_entries(uuid),
    relay.run_events(uuid, bigint), relay.run_messages(uuid, name, bigint, boolean)
    TO relay_runner;

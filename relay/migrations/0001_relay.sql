-- wearbridge relay, migration 1: the runs, their entries, the runners' messages and the relay's own
-- events. This file is the contract between phones: another app joins a race with SQL alone
-- (README, "The relay's contract"). Applied once, in one transaction, by
-- `wearbridge-phone relay migrate`, by a role that may create roles (the relay's owner).
--
-- Identity is the login role: a phone logs in with its TLS client certificate (`cert`
-- authentication), the certificate's CN is its role and that role is the runner's name. Every rule
-- below reads `session_user`, which a runner cannot change (SET ROLE is only to roles one is a
-- member of, and runners are members of relay_runner alone).
-- Time is the database's: invites expire, races start, runners are abandoned and results are
-- decided by now(), never by a phone's clock.

DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'relay_runner') THEN
        CREATE ROLE relay_runner NOLOGIN;
    END IF;
END
$$;

CREATE SCHEMA relay;
GRANT USAGE ON SCHEMA relay TO relay_runner;

-- The relay's limits, one row; the owner may change them (README).
CREATE TABLE relay.limits (
    one_row boolean PRIMARY KEY DEFAULT true CHECK (one_row),
    pending_invites integer NOT NULL DEFAULT 3,
    invite_ttl interval NOT NULL DEFAULT '5 minutes',
    abandon_after interval NOT NULL DEFAULT '10 minutes',
    snapshot_interval interval NOT NULL DEFAULT '500 milliseconds',
    snapshot_ttl interval NOT NULL DEFAULT '10 seconds',
    -- NOTIFY for every snapshot too, or (the default) only for critical and notice messages and
    -- events, phones polling the partner's newest snapshot twice a second. Every transaction that
    -- carries a NOTIFY queues on one lock at commit; at 1000 snapshots a second on one server that
    -- queue is the relay's limit (scripts/bench-relay.sh; README, "Scale").
    notify_snapshots boolean NOT NULL DEFAULT false
);
INSERT INTO relay.limits DEFAULT VALUES;

-- Top speed an activity can plausibly hold, in m/s, with the slack a GPS distance may jump by.
CREATE TABLE relay.activities (
    activity text PRIMARY KEY,
    top_speed double precision NOT NULL CHECK (top_speed > 0)
);
INSERT INTO relay.activities VALUES ('run', 12.5), ('walk', 4.0), ('ride', 30.0);

CREATE TABLE relay.runs (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    inviter name NOT NULL,
    invitee name NOT NULL CHECK (invitee <> inviter),
    activity text NOT NULL REFERENCES relay.activities,
    distance_m double precision CHECK (distance_m BETWEEN 100 AND 1000000),
    lead interval NOT NULL CHECK (lead BETWEEN '10 seconds' AND '1 hour'),
    abandon_after interval NOT NULL CHECK (abandon_after BETWEEN '5 seconds' AND '1 day'),
    state text NOT NULL DEFAULT 'invited'
        CHECK (state IN ('invited', 'accepted', 'complete', 'abandoned', 'declined', 'cancelled', 'expired')),
    invited_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    start_at timestamptz,
    ended_at timestamptz,
    winner name,
    reason text,
    rematch_of uuid REFERENCES relay.runs
);
CREATE INDEX runs_inviter ON relay.runs (inviter, state);
CREATE INDEX runs_invitee ON relay.runs (invitee, state);

-- One row per runner in an accepted run: what they reported and how they ended.
CREATE TABLE relay.entries (
    run_id uuid NOT NULL REFERENCES relay.runs ON DELETE CASCADE,
    runner name NOT NULL,
    start_offset_ms integer CHECK (start_offset_ms BETWEEN -3600000 AND 3600000),
    last_seen_at timestamptz,
    last_distance_m double precision,
    last_elapsed_s double precision,
    outcome text CHECK (outcome IN ('finished', 'abandoned')),
    ended_at timestamptz,
    final_distance_m double precision,
    final_elapsed_s double precision,
    final_moving_s double precision,
    PRIMARY KEY (run_id, runner)
);

-- What each runner's phone relays from its wearable, exactly once: (run, runner, seq) is the key,
-- so a resend after a crash or a cut is `ON CONFLICT DO NOTHING` and harmless.
CREATE TABLE relay.messages (
    run_id uuid NOT NULL,
    runner name NOT NULL,
    seq bigint NOT NULL CHECK (seq > 0),
    class text NOT NULL CHECK (class IN ('critical', 'snapshot', 'notice')),
    kind text NOT NULL CHECK (kind ~ '^[a-z_]{1,32}$'),
    distance_m double precision CHECK (distance_m BETWEEN 0 AND 1000000),
    elapsed_s double precision CHECK (elapsed_s BETWEEN 0 AND 604800),
    moving_s double precision CHECK (moving_s BETWEEN 0 AND 604800),
    paused boolean NOT NULL DEFAULT false,
    gps_time timestamptz,
    body jsonb NOT NULL DEFAULT '{}' CHECK (octet_length(body::text) <= 4096),
    received_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz,
    PRIMARY KEY (run_id, runner, seq),
    FOREIGN KEY (run_id, runner) REFERENCES relay.entries ON DELETE CASCADE,
    CHECK (class <> 'snapshot' OR (distance_m IS NOT NULL AND elapsed_s IS NOT NULL))
);
CREATE INDEX messages_newest_snapshot ON relay.messages (run_id, runner, seq DESC) WHERE class = 'snapshot';

-- What the relay itself decided, in the order it decided it: accepted, declined, cancelled, expired,
-- started, finished, abandoned, result. A phone keeps the highest id it has passed on.
CREATE TABLE relay.events (
    id bigserial PRIMARY KEY,
    run_id uuid NOT NULL REFERENCES relay.runs ON DELETE CASCADE,
    kind text NOT NULL,
    runner name,
    body jsonb NOT NULL DEFAULT '{}',
    at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX events_run ON relay.events (run_id, id);

-- Readers: a runner sees only the runs they are in and what was said in them. Writers: messages
-- only as themselves, into a run they are in; everything else through the functions below.
ALTER TABLE relay.runs ENABLE ROW LEVEL SECURITY;
ALTER TABLE relay.entries ENABLE ROW LEVEL SECURITY;
ALTER TABLE relay.messages ENABLE ROW LEVEL SECURITY;
ALTER TABLE relay.events ENABLE ROW LEVEL SECURITY;
CREATE POLICY runs_of_mine ON relay.runs FOR SELECT TO relay_runner USING (session_user IN (inviter, invitee));
CREATE POLICY entries_of_mine ON relay.entries FOR SELECT TO relay_runner
    USING (run_id IN (SELECT id FROM relay.runs));
CREATE POLICY messages_of_mine ON relay.messages FOR SELECT TO relay_runner
    USING (run_id IN (SELECT id FROM relay.runs));
CREATE POLICY messages_as_me ON relay.messages FOR INSERT TO relay_runner
    WITH CHECK (runner = session_user AND run_id IN (SELECT id FROM relay.runs));
CREATE POLICY events_of_mine ON relay.events FOR SELECT TO relay_runner
    USING (run_id IN (SELECT id FROM relay.runs));
GRANT SELECT ON relay.runs, relay.entries, relay.events, relay.limits, relay.activities TO relay_runner;
GRANT SELECT, INSERT ON relay.messages TO relay_runner;

-- A run's state as of now: an invite past its expiry reads as expired before anyone swept it.
CREATE VIEW relay.my_runs WITH (security_invoker = true) AS
SELECT r.id, r.inviter, r.invitee, r.activity, r.distance_m, r.lead, r.invited_at, r.expires_at, r.start_at,
       r.ended_at, r.winner, r.reason, r.rematch_of,
       CASE WHEN r.state = 'invited' AND r.expires_at <= now() THEN 'expired' ELSE r.state END AS state,
       CASE WHEN session_user = r.inviter THEN r.invitee ELSE r.inviter END AS partner
FROM relay.runs r;
GRANT SELECT ON relay.my_runs TO relay_runner;

-- A runner is a login role that is a direct member of relay_runner and no superuser (a superuser
-- is a member of every role, and the owner is one).
CREATE FUNCTION relay.is_runner(who name) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
RETURN EXISTS (
    SELECT FROM pg_auth_members m
    JOIN pg_roles g ON g.oid = m.roleid AND g.rolname = 'relay_runner'
    JOIN pg_roles u ON u.oid = m.member AND u.rolname = who AND u.rolcanlogin AND NOT u.rolsuper);

-- Wakes the phones of a run: channel relay_<run id without dashes>, payload the table and the key.
CREATE FUNCTION relay.channel(run uuid) RETURNS text LANGUAGE sql IMMUTABLE
    RETURN 'relay_' || replace(run::text, '-', '');

CREATE FUNCTION relay.fail(code text, message text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION USING ERRCODE = code, MESSAGE = message;
END
$$;

-- Records a relay event and wakes the run's phones.
CREATE FUNCTION relay.emit(run uuid, what text, who name, detail jsonb) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    new_id bigint;
BEGIN
    INSERT INTO relay.events (run_id, kind, runner, body) VALUES (run, what, who, coalesce(detail, '{}'))
    RETURNING id INTO new_id;
    PERFORM pg_notify(relay.channel(run), 'event ' || new_id);
    RETURN new_id;
END
$$;

-- Decides a run whose entries have all ended: the fastest to the distance (or the farthest, with
-- no distance) among those who finished, from the final figures each submitted.
CREATE FUNCTION relay.decide(run uuid) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    r relay.runs;
    best name;
BEGIN
    SELECT * INTO r FROM relay.runs WHERE id = run FOR UPDATE;
    IF r.state <> 'accepted' OR EXISTS (SELECT FROM relay.entries WHERE run_id = run AND outcome IS NULL) THEN
        RETURN;
    END IF;
    IF r.distance_m IS NOT NULL THEN
        SELECT runner INTO best FROM relay.entries
        WHERE run_id = run AND outcome = 'finished' AND final_distance_m >= r.distance_m
        ORDER BY final_elapsed_s, runner LIMIT 1;
    END IF;
    IF best IS NULL THEN
        SELECT runner INTO best FROM relay.entries
        WHERE run_id = run AND outcome = 'finished'
        ORDER BY final_distance_m DESC, final_elapsed_s, runner LIMIT 1;
    END IF;
    UPDATE relay.runs SET state = CASE WHEN best IS NULL THEN 'abandoned' ELSE 'complete' END,
        ended_at = now(), winner = best
    WHERE id = run;
    PERFORM relay.emit(run, 'result', best, (
        SELECT jsonb_build_object('winner', best, 'entries', jsonb_agg(jsonb_build_object(
            'runner', runner, 'outcome', outcome, 'distance_m', final_distance_m,
            'elapsed_s', final_elapsed_s, 'moving_s', final_moving_s, 'start_offset_ms', start_offset_ms)
            ORDER BY runner))
        FROM relay.entries WHERE run_id = run));
END
$$;

-- The relay's own clock work, done by whoever calls first: expires invites past their time and
-- abandons runners silent for longer than their run allows, each exactly once (the UPDATE's WHERE
-- is checked again under the row lock, so two sweeps never both act). Returns how many it acted on.
CREATE FUNCTION relay.sweep() RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    acted integer := 0;
    x record;
BEGIN
    FOR x IN
        UPDATE relay.runs SET state = 'expired', ended_at = expires_at, reason = 'not accepted in time'
        WHERE state = 'invited' AND expires_at <= now()
        RETURNING id, expires_at
    LOOP
        PERFORM relay.emit(x.id, 'expired', NULL, jsonb_build_object('expired_at', x.expires_at));
        acted := acted + 1;
    END LOOP;
    FOR x IN
        UPDATE relay.entries e SET outcome = 'abandoned', ended_at = now(),
            final_distance_m = e.last_distance_m, final_elapsed_s = e.last_elapsed_s
        FROM relay.runs r
        WHERE r.id = e.run_id AND r.state = 'accepted' AND e.outcome IS NULL
          AND greatest(r.start_at, e.last_seen_at) + r.abandon_after <= now()
        RETURNING e.run_id, e.runner, e.last_distance_m, e.last_elapsed_s, e.last_seen_at
    LOOP
        PERFORM relay.emit(x.run_id, 'abandoned', x.runner, jsonb_build_object(
            'distance_m', x.last_distance_m, 'elapsed_s', x.last_elapsed_s, 'last_seen_at', x.last_seen_at));
        PERFORM relay.decide(x.run_id);
        acted := acted + 1;
    END LOOP;
    RETURN acted;
END
$$;

-- Invites PARTNER to a race. The database sets the expiry; a runner has at most limits.pending_invites
-- invites out at once. Returns the run's id.
CREATE FUNCTION relay.invite(
    partner name, activity text DEFAULT 'run', distance_m double precision DEFAULT NULL,
    lead interval DEFAULT '90 seconds', abandon_after interval DEFAULT NULL, expires_in interval DEFAULT NULL,
    rematch_of uuid DEFAULT NULL
) RETURNS uuid
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    lim relay.limits;
    new_id uuid;
BEGIN
    PERFORM relay.sweep();
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
    PERFORM pg_advisory_xact_lock(hashtext('relay.invite:' || session_user));
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

-- Accepts an invite: fixes the one start instant both wearables count down to (database time +
-- the invite's lead). Neither runner may be in another race that has not ended.
CREATE FUNCTION relay.accept(run uuid) RETURNS timestamptz
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    r relay.runs;
BEGIN
    PERFORM relay.sweep();
    SELECT * INTO r FROM relay.runs WHERE id = run AND session_user IN (inviter, invitee) FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM relay.fail('WB201', format('no run %s of yours', run));
    END IF;
    IF r.invitee <> session_user THEN
        PERFORM relay.fail('WB202', 'only the invited runner accepts');
    END IF;
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

CREATE FUNCTION relay.decline(run uuid) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    PERFORM relay.sweep();
    UPDATE relay.runs SET state = 'declined', ended_at = now()
    WHERE id = run AND invitee = session_user AND state = 'invited';
    IF NOT FOUND THEN
        PERFORM relay.fail('WB301', format('no pending invite %s to you', run));
    END IF;
    PERFORM relay.emit(run, 'declined', session_user, '{}');
END
$$;

-- Cancels an invite or a race not yet decided (a wearable that is not ready does this for both).
CREATE FUNCTION relay.cancel(run uuid, reason text DEFAULT NULL) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    PERFORM relay.sweep();
    UPDATE relay.runs SET state = 'cancelled', ended_at = now(), reason = left(cancel.reason, 200)
    WHERE id = run AND session_user IN (inviter, invitee) AND state IN ('invited', 'accepted');
    IF NOT FOUND THEN
        PERFORM relay.fail('WB302', format('no invite or race %s of yours that can be cancelled', run));
    END IF;
    PERFORM relay.emit(run, 'cancelled', session_user, jsonb_build_object('reason', left(cancel.reason, 200)));
END
$$;

-- The wearable's actual start against the agreed instant, in milliseconds (late is positive).
CREATE FUNCTION relay.report_start(run uuid, offset_ms integer) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    UPDATE relay.entries e SET start_offset_ms = offset_ms
    FROM relay.runs r
    WHERE e.run_id = run AND e.runner = session_user AND r.id = e.run_id AND r.state = 'accepted'
      AND e.start_offset_ms IS NULL;
    IF NOT FOUND THEN
        PERFORM relay.fail('WB401', format('no started race %s of yours without a start offset', run));
    END IF;
    PERFORM relay.emit(run, 'started', session_user, jsonb_build_object('start_offset_ms', offset_ms));
END
$$;

-- Submits this runner's final figures, from the wearable's own data log; the run is decided when
-- both have ended. A repeat of the same figures is harmless; other figures are refused.
CREATE FUNCTION relay.finish(run uuid, distance_m double precision, elapsed_s double precision,
                             moving_s double precision) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    e relay.entries;
    r relay.runs;
    top double precision;
BEGIN
    PERFORM relay.sweep();
    SELECT * INTO r FROM relay.runs WHERE id = run AND session_user IN (inviter, invitee);
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
    SELECT top_speed INTO top FROM relay.activities WHERE activity = r.activity;
    IF distance_m IS NULL OR elapsed_s IS NULL OR distance_m < 0 OR elapsed_s < 0
       OR moving_s < 0 OR moving_s > elapsed_s + 1 THEN
        PERFORM relay.fail('WB504', 'final figures need a distance and an elapsed time, moving time within it');
    END IF;
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

-- Every message a runner inserts passes here: a resend of a stored key is skipped (so ON CONFLICT
-- DO NOTHING works even for a snapshot that is older than the newest), the run must be under way,
-- the server stamps the time, and a snapshot must be plausible against the runner's previous one.
CREATE FUNCTION relay.check_message() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    r relay.runs;
    prev relay.messages;
    lim relay.limits;
    top double precision;
    rate double precision;
BEGIN
    IF EXISTS (SELECT FROM relay.messages WHERE run_id = NEW.run_id AND runner = NEW.runner AND seq = NEW.seq) THEN
        RETURN NULL;
    END IF;
    SELECT * INTO r FROM relay.runs WHERE id = NEW.run_id;
    IF r.state <> 'accepted' THEN
        PERFORM relay.fail('WB601', format('the race is %s; it takes no messages', r.state));
    END IF;
    IF EXISTS (SELECT FROM relay.entries WHERE run_id = NEW.run_id AND runner = NEW.runner AND outcome IS NOT NULL) THEN
        PERFORM relay.fail('WB602', 'this runner has ended the race; it takes no more messages');
    END IF;
    SELECT * INTO lim FROM relay.limits;
    NEW.received_at := now();
    NEW.expires_at := NULL;
    IF NEW.class = 'snapshot' THEN
        NEW.expires_at := now() + lim.snapshot_ttl;
        SELECT top_speed INTO top FROM relay.activities WHERE activity = r.activity;
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
        IF rate > top THEN
            PERFORM relay.fail('WB607', format('%s m in %s s is beyond a %s''s top speed of %s m/s',
                round(NEW.distance_m::numeric, 1), round(NEW.elapsed_s::numeric, 1), r.activity, top));
        END IF;
    END IF;
    UPDATE relay.entries SET last_seen_at = now(),
        last_distance_m = coalesce(NEW.distance_m, last_distance_m),
        last_elapsed_s = coalesce(NEW.elapsed_s, last_elapsed_s)
    WHERE run_id = NEW.run_id AND runner = NEW.runner;
    IF NEW.class <> 'snapshot' OR lim.notify_snapshots THEN
        PERFORM pg_notify(relay.channel(NEW.run_id), 'message ' || NEW.runner || ' ' || NEW.seq);
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER check_message BEFORE INSERT ON relay.messages FOR EACH ROW EXECUTE FUNCTION relay.check_message();

-- The partner's newest snapshot: what a phone fetches first on every reconnect.
CREATE FUNCTION relay.latest_snapshot(run uuid, of_runner name) RETURNS SETOF relay.messages
LANGUAGE sql STABLE SECURITY INVOKER SET search_path = pg_catalog, pg_temp AS $$
    SELECT * FROM relay.messages
    WHERE run_id = run AND runner = of_runner AND class = 'snapshot'
    ORDER BY seq DESC LIMIT 1
$$;

CREATE FUNCTION relay.server_time() RETURNS timestamptz LANGUAGE sql STABLE RETURN clock_timestamp();

REVOKE ALL ON ALL FUNCTIONS IN SCHEMA relay FROM PUBLIC;
GRANT EXECUTE ON FUNCTION relay.invite(name, text, double precision, interval, interval, interval, uuid),
    relay.accept(uuid), relay.decline(uuid), relay.cancel(uuid, text), relay.report_start(uuid, integer),
    relay.finish(uuid, double precision, double precision, double precision), relay.sweep(),
    relay.latest_snapshot(uuid, name), relay.server_time(), relay.channel(uuid)
    TO relay_runner;

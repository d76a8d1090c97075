-- wearbridge relay, migration 3: each runner's route after a race, for the two runners alone
-- (docs/relay.md, "Routes"). When a race is over, each phone shares its runner's simplified route:
-- every point's position (1e-7 degree), time since the agreed start (0.1 s) and the runner's own
-- distance there (0.1 m). The partner's phone reads it to draw both routes on one map.
--
-- The same rules as the rest of the relay: no runner reads the table (no privilege, row-level
-- security on with no policy); they call relay.share_route and relay.run_routes, which decide
-- membership before they read or quote anything, so a third runner learns nothing, not even whether
-- the race exists. A route is bounded in size (limits.route_points) and judged as figures are:
-- finite, in order, within the race's time by the relay's clock, within the activity's top speed
-- and the runner's final distance. It is stored once: the same route again is harmless, another is
-- refused.

ALTER TABLE relay.limits
    -- The most points a route may have (16 bytes each at the relay, plus the arrays' headers).
    ADD COLUMN route_points integer NOT NULL DEFAULT 5000 CHECK (route_points BETWEEN 2 AND 100000),
    -- How long after its end a race takes its runners' routes.
    ADD COLUMN route_window interval NOT NULL DEFAULT '7 days'
        CHECK (route_window BETWEEN '1 minute' AND '90 days');

CREATE TABLE relay.routes (
    run_id uuid NOT NULL,
    runner name NOT NULL,
    lat_e7 integer[] NOT NULL,
    lon_e7 integer[] NOT NULL,
    elapsed_ds integer[] NOT NULL,
    distance_dm integer[] NOT NULL,
    shared_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (run_id, runner),
    FOREIGN KEY (run_id, runner) REFERENCES relay.entries ON DELETE CASCADE
);
ALTER TABLE relay.routes ENABLE ROW LEVEL SECURITY;

-- Stores the caller's route of RUN, once the race is over for them (their entry has ended, or the
-- race has), within limits.route_window of that end. Returns the points stored.
CREATE FUNCTION relay.share_route(run uuid, lat_e7 integer[], lon_e7 integer[], elapsed_ds integer[],
                                  distance_dm integer[]) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    r relay.runs;
    e relay.entries;
    lim relay.limits;
    stored relay.routes;
    top double precision;
    n integer;
    ended timestamptz;
    lasted double precision;
BEGIN
    SELECT * INTO r FROM relay.runs WHERE id = run AND session_user IN (inviter, invitee);
    IF NOT FOUND THEN
        PERFORM relay.fail('WB701', format('no race %s of yours', run));
    END IF;
    SELECT * INTO e FROM relay.entries WHERE run_id = run AND runner = session_user;
    IF NOT FOUND THEN
        PERFORM relay.fail('WB701', format('no race %s of yours', run));
    END IF;
    IF e.outcome IS NULL AND r.state = 'accepted' THEN
        PERFORM relay.fail('WB702', 'the race is under way: a route is shared once it is over for this runner');
    END IF;
    SELECT * INTO lim FROM relay.limits;
    ended := coalesce(e.ended_at, r.ended_at, now());
    IF now() > ended + lim.route_window THEN
        PERFORM relay.fail('WB703', format('the race ended more than %s ago: it takes no more routes', lim.route_window));
    END IF;
    n := cardinality(lat_e7);
    IF n IS NULL OR array_ndims(lat_e7) IS DISTINCT FROM 1 OR cardinality(lon_e7) IS DISTINCT FROM n
       OR cardinality(elapsed_ds) IS DISTINCT FROM n OR cardinality(distance_dm) IS DISTINCT FROM n
       OR array_ndims(lon_e7) <> 1 OR array_ndims(elapsed_ds) <> 1 OR array_ndims(distance_dm) <> 1 THEN
        PERFORM relay.fail('WB704', 'a route is four one-dimensional arrays of one length');
    END IF;
    IF n < 2 OR n > lim.route_points THEN
        PERFORM relay.fail('WB704', format('a route has 2 to %s points, not %s', lim.route_points, n));
    END IF;
    IF array_position(lat_e7, NULL) IS NOT NULL OR array_position(lon_e7, NULL) IS NOT NULL
       OR array_position(elapsed_ds, NULL) IS NOT NULL OR array_position(distance_dm, NULL) IS NOT NULL THEN
        PERFORM relay.fail('WB704', 'a route has no missing values');
    END IF;
    SELECT * INTO stored FROM relay.routes WHERE run_id = run AND runner = session_user;
    IF FOUND THEN
        IF stored.lat_e7 = lat_e7 AND stored.lon_e7 = lon_e7 AND stored.elapsed_ds = elapsed_ds
           AND stored.distance_dm = distance_dm THEN
            RETURN n;
        END IF;
        PERFORM relay.fail('WB705', 'this runner''s route of the race is stored already');
    END IF;
    lasted := extract(epoch FROM coalesce(e.ended_at, r.ended_at, now()) - r.start_at)
        + extract(epoch FROM lim.clock_slack);
    SELECT top_speed INTO top FROM relay.activities WHERE activity = r.activity;
    FOR i IN 1..n LOOP
        IF NOT lat_e7[i] BETWEEN -900000000 AND 900000000 OR NOT lon_e7[i] BETWEEN -1800000000 AND 1800000000 THEN
            PERFORM relay.fail('WB706', format('point %s is off the globe', i));
        END IF;
        IF elapsed_ds[i] < 0 OR distance_dm[i] < 0 OR (i > 1 AND (elapsed_ds[i] < elapsed_ds[i - 1]
           OR distance_dm[i] < distance_dm[i - 1])) THEN
            PERFORM relay.fail('WB707', format('point %s: times and distances start at 0 and never go back', i));
        END IF;
        IF i > 1 AND (distance_dm[i] - distance_dm[i - 1] - 250) > top * (elapsed_ds[i] - elapsed_ds[i - 1]) THEN
            PERFORM relay.fail('WB708', format('point %s: %s m in %s s is beyond a %s''s top speed of %s m/s', i,
                round((distance_dm[i] - distance_dm[i - 1]) / 10.0, 1), round((elapsed_ds[i] - elapsed_ds[i - 1]) / 10.0, 1),
                r.activity, top));
        END IF;
    END LOOP;
    IF elapsed_ds[n] / 10.0 > lasted THEN
        PERFORM relay.fail('WB709', format('the route lasts %s s, longer than the race did by the relay''s clock (%s s)',
            round(elapsed_ds[n] / 10.0, 1), round(lasted::numeric, 1)));
    END IF;
    IF e.final_distance_m IS NOT NULL AND distance_dm[n] / 10.0 > e.final_distance_m + 50 THEN
        PERFORM relay.fail('WB710', format('the route runs %s m, beyond this runner''s final %s m',
            round(distance_dm[n] / 10.0, 1), round(e.final_distance_m::numeric, 1)));
    END IF;
    INSERT INTO relay.routes (run_id, runner, lat_e7, lon_e7, elapsed_ds, distance_dm)
    VALUES (run, session_user, lat_e7, lon_e7, elapsed_ds, distance_dm);
    RETURN n;
END
$$;

-- RUN's routes, for its two runners (nothing for anyone else).
CREATE FUNCTION relay.run_routes(run uuid) RETURNS SETOF relay.routes
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    SELECT o.* FROM relay.routes o
    WHERE o.run_id = run AND EXISTS (SELECT FROM relay.runs WHERE id = run AND session_user IN (inviter, invitee))
    ORDER BY o.runner
$$;

REVOKE ALL ON relay.routes FROM PUBLIC;
REVOKE ALL ON FUNCTION relay.share_route(uuid, integer[], integer[], integer[], integer[]), relay.run_routes(uuid)
    FROM PUBLIC;
GRANT EXECUTE ON FUNCTION relay.share_route(uuid, integer[], integer[], integer[], integer[]), relay.run_routes(uuid)
    TO relay_runner;

-- wearbridge relay, migration 4: races on a course (docs/relay.md, "Races on a course"). An invite
-- may name a course: its points (1e-7 degree), each point's distance along it (cm: a course the
-- inviter's phone simplified keeps the length of the line it came from) and its turns. Both runners
-- read it, their wearables follow it, and their progress is compared by the distance along it: a
-- message may carry the runner's `course_m`, the final figures too, and the result is the fastest
-- to the course's end, else the farthest along it.
--
-- A course is a stranger's: it is judged before the invite is made (WB801-WB805): a name of one
-- printable line, 2 to limits.course_points points on the globe, distances from 0 that grow by no
-- less than the straight line between their points, at most 1000 km, turns on the course. Like
-- every table of a race, the runners read it only through a function that decides membership first
-- (relay.run_course). A `course_m` is judged against the course and the runner's own distance: no
-- farther along than the course is long, and no farther than the runner has run plus 2 % and 50 m
-- (a short cut is not progress) (WB612, WB613).

ALTER TABLE relay.limits
    -- The most points a race's course may have (12 bytes each at the relay, plus the arrays' headers).
    ADD COLUMN course_points integer NOT NULL DEFAULT 5000 CHECK (course_points BETWEEN 2 AND 100000);

CREATE TABLE relay.courses (
    run_id uuid PRIMARY KEY REFERENCES relay.runs ON DELETE CASCADE,
    name text NOT NULL,
    lat_e7 integer[] NOT NULL,
    lon_e7 integer[] NOT NULL,
    distance_cm integer[] NOT NULL,
    turn_cm integer[] NOT NULL,
    turn_direction text[] NOT NULL,
    length_m double precision NOT NULL
);
ALTER TABLE relay.courses ENABLE ROW LEVEL SECURITY;

ALTER TABLE relay.messages ADD COLUMN course_m double precision;
ALTER TABLE relay.entries ADD COLUMN last_course_m double precision, ADD COLUMN final_course_m double precision;

-- An invite to a race on a course: the course judged, then the invite as relay.invite makes it (its
-- distance the course's length), both in one transaction.
CREATE FUNCTION relay.invite_on_course(
    partner name, course_name text, lat_e7 integer[], lon_e7 integer[], distance_cm integer[],
    turn_cm integer[] DEFAULT '{}', turn_direction text[] DEFAULT '{}', activity text DEFAULT 'run',
    lead interval DEFAULT '90 seconds', abandon_after interval DEFAULT NULL, expires_in interval DEFAULT NULL,
    rematch_of uuid DEFAULT NULL
) RETURNS uuid
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    lim relay.limits;
    n integer;
    t integer;
    chord double precision;
    total double precision;
    new_id uuid;
BEGIN
    SELECT * INTO lim FROM relay.limits;
    IF course_name IS NULL OR course_name ~ '[[:cntrl:]]' OR char_length(course_name) NOT BETWEEN 1 AND 64
       OR btrim(course_name) <> course_name THEN
        PERFORM relay.fail('WB801', 'a course''s name is one line of 1 to 64 printable characters');
    END IF;
    n := cardinality(lat_e7);
    IF n IS NULL OR array_ndims(lat_e7) IS DISTINCT FROM 1 OR cardinality(lon_e7) IS DISTINCT FROM n
       OR cardinality(distance_cm) IS DISTINCT FROM n OR array_ndims(lon_e7) <> 1 OR array_ndims(distance_cm) <> 1
       OR n < 2 OR n > lim.course_points
       OR array_position(lat_e7, NULL) IS NOT NULL OR array_position(lon_e7, NULL) IS NOT NULL
       OR array_position(distance_cm, NULL) IS NOT NULL THEN
        PERFORM relay.fail('WB802', format('a course is three one-dimensional arrays of one length, without gaps, '
            || 'of 2 to %s points', lim.course_points));
    END IF;
    t := coalesce(cardinality(turn_cm), -1);
    IF t < 0 OR cardinality(turn_direction) IS DISTINCT FROM t OR array_position(turn_cm, NULL) IS NOT NULL
       OR array_position(turn_direction, NULL) IS NOT NULL OR t > lim.course_points
       OR (t > 0 AND (array_ndims(turn_cm) <> 1 OR array_ndims(turn_direction) <> 1)) THEN
        PERFORM relay.fail('WB802', format('a course''s turns are two one-dimensional arrays of one length, at most %s',
            lim.course_points));
    END IF;
    IF distance_cm[1] <> 0 THEN
        PERFORM relay.fail('WB803', 'a course''s distances start at 0');
    END IF;
    FOR i IN 1..n LOOP
        IF NOT lat_e7[i] BETWEEN -900000000 AND 900000000 OR NOT lon_e7[i] BETWEEN -1800000000 AND 1800000000 THEN
            PERFORM relay.fail('WB804', format('point %s is off the globe', i));
        END IF;
        IF i > 1 THEN
            -- The straight line on a sphere of the Earth's mean radius; 1 % and 1 m of slack for the
            -- phone's ellipsoid and its rounding.
            chord := 6371008.8 * sqrt(power(radians((lat_e7[i] - lat_e7[i - 1]) / 1e7), 2)
                + power(radians(((lon_e7[i]::bigint - lon_e7[i - 1] + 5400000000) % 3600000000 - 1800000000) / 1e7)
                    * cos(radians((lat_e7[i] + lat_e7[i - 1]) / 2e7)), 2));
            IF (distance_cm[i] - distance_cm[i - 1]) / 100.0 < 0.99 * chord - 1
               OR distance_cm[i] <= distance_cm[i - 1] THEN
                PERFORM relay.fail('WB803', format('point %s: %s m along the course from the last, less than the '
                    || '%s m between them', i, round((distance_cm[i] - distance_cm[i - 1]) / 100.0, 2),
                    round(chord::numeric, 2)));
            END IF;
        END IF;
    END LOOP;
    total := distance_cm[n] / 100.0;
    IF total > 1000000 THEN
        PERFORM relay.fail('WB803', format('a course of %s km: at most 1000', round((total / 1000)::numeric, 1)));
    END IF;
    FOR i IN 1..t LOOP
        IF NOT turn_cm[i] BETWEEN 0 AND distance_cm[n]
           OR turn_direction[i] NOT IN ('left', 'right', 'sharp_left', 'sharp_right', 'u_turn') THEN
            PERFORM relay.fail('WB805', format('turn %s: on the course, and left, right, sharp_left, sharp_right '
                || 'or u_turn', i));
        END IF;
    END LOOP;
    new_id := relay.invite(partner, activity => activity, distance_m => total, lead => lead,
        abandon_after => abandon_after, expires_in => expires_in, rematch_of => rematch_of);
    INSERT INTO relay.courses (run_id, name, lat_e7, lon_e7, distance_cm, turn_cm, turn_direction, length_m)
    VALUES (new_id, course_name, lat_e7, lon_e7, distance_cm, coalesce(turn_cm, '{}'), coalesce(turn_direction, '{}'),
        total);
    RETURN new_id;
END
$$;

-- RUN's course, for its two runners (nothing for anyone else, and nothing for a race without one).
CREATE FUNCTION relay.run_course(run uuid) RETURNS SETOF relay.courses
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    SELECT c.* FROM relay.courses c
    WHERE c.run_id = run AND EXISTS (SELECT FROM relay.runs WHERE id = run AND session_user IN (inviter, invitee))
$$;

-- A course_m of RUN, by a runner who has run RAN metres: only in a race on a course (WB612, `carrier`
-- naming what carried it), within the course's length (WB612), and no farther along it than the
-- runner has run, plus 2 % and 50 m (WB613). Called once membership is settled.
CREATE FUNCTION relay.check_course_m(run uuid, course_m double precision, ran double precision, carrier text)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    c relay.courses;
BEGIN
    SELECT * INTO c FROM relay.courses WHERE run_id = run;
    IF NOT FOUND THEN
        PERFORM relay.fail('WB612', format('this race has no course: %s carries no course_m', carrier));
    END IF;
    IF NOT course_m BETWEEN 0 AND c.length_m + 1 THEN
        PERFORM relay.fail('WB612', format('course_m is 0 to the course''s %s m', round(c.length_m::numeric, 1)));
    END IF;
    IF course_m > ran * 1.02 + 50 THEN
        PERFORM relay.fail('WB613', format('%s m along the course after %s m run: farther than the runner has run',
            round(course_m::numeric, 1), round(ran::numeric, 1)));
    END IF;
END
$$;

-- A message's course_m, judged after relay.check_message has settled who may write it (triggers
-- run in their names' order): only in a race on a course, finite, within the course's length, and
-- no farther along it than the runner has run (this message's distance, else their newest), plus
-- 2 % and 50 m. The newest course_m is kept with the entry's newest figures.
CREATE FUNCTION relay.check_message_course() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET lock_timeout = '2s' AS $$
BEGIN
    IF NEW.course_m IS NULL THEN
        RETURN NEW;
    END IF;
    PERFORM relay.check_course_m(NEW.run_id, NEW.course_m, coalesce(NEW.distance_m,
        (SELECT last_distance_m FROM relay.entries WHERE run_id = NEW.run_id AND runner = NEW.runner), 0), 'a message');
    UPDATE relay.entries SET last_course_m = greatest(coalesce(last_course_m, 0), NEW.course_m)
    WHERE run_id = NEW.run_id AND runner = NEW.runner;
    RETURN NEW;
END
$$;
CREATE TRIGGER check_message_course BEFORE INSERT ON relay.messages
    FOR EACH ROW EXECUTE FUNCTION relay.check_message_course();

-- The final figures of a race on a course: relay.finish's, with the distance along the course
-- reached, judged as a message's course_m is. Stored before relay.finish decides the race, in the
-- same transaction (a refusal of either stores nothing).
CREATE FUNCTION relay.finish(run uuid, distance_m double precision, elapsed_s double precision,
                             moving_s double precision, course_m double precision) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    e relay.entries;
BEGIN
    IF NOT EXISTS (SELECT FROM relay.runs WHERE id = run AND session_user IN (inviter, invitee)) THEN
        PERFORM relay.fail('WB501', format('no race %s of yours', run));
    END IF;
    IF course_m IS NOT NULL THEN
        PERFORM relay.check_course_m(run, course_m, coalesce(distance_m, 0), 'its final figures');
        SELECT * INTO e FROM relay.entries WHERE run_id = run AND runner = session_user FOR UPDATE;
        -- A repeat of the same final figures is harmless; other ones relay.finish refuses (WB502).
        IF e.outcome IS NULL THEN
            UPDATE relay.entries SET final_course_m = course_m WHERE run_id = run AND runner = session_user;
        ELSIF e.final_course_m IS DISTINCT FROM course_m THEN
            PERFORM relay.fail('WB502', format('this runner already ended the race (%s)', e.outcome));
        END IF;
    END IF;
    RETURN relay.finish(run, distance_m, elapsed_s, moving_s);
END
$$;

-- Decides a run whose entries have all ended. On a course: the fastest to its end (within 25 m of
-- it, by the final course_m, else the newest a message carried) among those who finished, else the
-- farthest along it. Without a course, as before: the fastest to the distance, else the farthest.
CREATE OR REPLACE FUNCTION relay.decide(run uuid) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    r relay.runs;
    c relay.courses;
    best name;
BEGIN
    SELECT * INTO r FROM relay.runs WHERE id = run FOR UPDATE;
    IF r.state <> 'accepted' OR EXISTS (SELECT FROM relay.entries WHERE run_id = run AND outcome IS NULL) THEN
        RETURN;
    END IF;
    SELECT * INTO c FROM relay.courses WHERE run_id = run;
    IF FOUND THEN
        SELECT runner INTO best FROM relay.entries
        WHERE run_id = run AND outcome = 'finished' AND coalesce(final_course_m, last_course_m, 0) >= c.length_m - 25
        ORDER BY final_elapsed_s, runner LIMIT 1;
        IF best IS NULL THEN
            SELECT runner INTO best FROM relay.entries
            WHERE run_id = run AND outcome = 'finished'
            ORDER BY coalesce(final_course_m, last_course_m, 0) DESC, final_elapsed_s, runner LIMIT 1;
        END IF;
    ELSE
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
    END IF;
    UPDATE relay.runs SET state = CASE WHEN best IS NULL THEN 'abandoned' ELSE 'complete' END,
        ended_at = now(), winner = best
    WHERE id = run;
    PERFORM relay.emit(run, 'result', best, (
        SELECT jsonb_build_object('winner', best, 'entries', jsonb_agg(jsonb_build_object(
            'runner', runner, 'outcome', outcome, 'distance_m', final_distance_m,
            'elapsed_s', final_elapsed_s, 'moving_s', final_moving_s, 'start_offset_ms', start_offset_ms)
            || CASE WHEN c.run_id IS NULL THEN '{}'::jsonb
                    ELSE jsonb_build_object('course_m', coalesce(final_course_m, last_course_m)) END
            ORDER BY runner))
        FROM relay.entries WHERE run_id = run));
END
$$;

REVOKE ALL ON relay.courses FROM PUBLIC;
REVOKE ALL ON FUNCTION relay.invite_on_course(name, text, integer[], integer[], integer[], integer[], text[], text,
    interval, interval, interval, uuid), relay.run_course(uuid),
    relay.finish(uuid, double precision, double precision, double precision, double precision),
    relay.check_course_m(uuid, double precision, double precision, text), relay.check_message_course(),
    relay.decide(uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION relay.invite_on_course(name, text, integer[], integer[], integer[], integer[], text[], text,
    interval, interval, interval, uuid), relay.run_course(uuid),
    relay.finish(uuid, double precision, double precision, double precision, double precision)
    TO relay_runner;

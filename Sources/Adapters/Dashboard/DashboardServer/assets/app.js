// wearbridge dashboard: one page, no libraries. Numbers come from the API as numbers; this script
// formats them, judges their age against the server's clock, and draws the track and the chart.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  // What tests and the benchmark read: latencies (ms from the phone's receipt to the DOM), the
  // seqs of the messages shown, and the command ids this page made.
  const wb = (window.__wb = { latencies: [], seqs: [], commands: [], lastId: null, link: null });
  const state = {
    wearable: null, source: null, epoch: null, serverMs: 0, perfAt: 0, snapshot: null,
    link: null, activity: "running", track: [], course: null, beats: [], splits: new Map(), pending: null,
    lastSeenMs: 0, contact: null, race: null, raceAt: 0, relay: null,
    // When this page last heard from its phone (performance.now()), and whether it ever did.
    heardAt: null,
  };
  // The phone sends its link about once a second; silent this long, the page cannot vouch for it.
  const PHONE_SILENT_S = 5;

  // ---- formatting ----
  const pad = (n) => String(n).padStart(2, "0");
  function duration(s) {
    if (s == null) return "–";
    s = Math.max(0, Math.round(s));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    return h > 0 ? `${h}:${pad(m)}:${pad(r)}` : `${m}:${pad(r)}`;
  }
  const km = (m) => (m == null ? "–" : (m / 1000).toFixed(2));
  const speedActivity = () => state.activity === "cycling";
  function pace(sPerKm) {
    if (sPerKm == null || sPerKm <= 0) return "–";
    return speedActivity() ? (3600 / sPerKm).toFixed(1) : duration(sPerKm);
  }
  function text(id, value) { const el = $(id); if (el.textContent !== value) el.textContent = value; }

  // ---- the server's clock ----
  function serverNow() { return state.serverMs + (performance.now() - state.perfAt); }
  function stampServer(ms) { if (ms) { state.serverMs = ms; state.perfAt = performance.now(); } }

  // ---- views ----
  function show(view) {
    for (const v of ["list", "live", "history", "pair"]) $("view-" + v).hidden = v !== view;
  }
  function route() {
    const path = location.pathname;
    if (path.startsWith("/w/")) return live(decodeURIComponent(path.slice(3)));
    if (path === "/history") return history();
    if (path === "/pair") return pair();
    return list();
  }

  // A phone that cannot be reached answers like a refusal that says so, never an exception.
  async function api(path, options) {
    let response;
    try {
      response = await fetch(path, Object.assign({ credentials: "same-origin", cache: "no-store" }, options || {}));
    } catch (e) {
      return { status: 0, ok: false, body: { error: "unreachable", message: "the phone is unreachable" } };
    }
    let body = null;
    try { body = await response.json(); } catch (e) { body = null; }
    return { status: response.status, ok: response.ok, body };
  }

  // ---- the link strip ----
  // What the page knows: the wearable's link as the phone reports it holds only while the page's
  // stream from the phone is up and heard from; otherwise the phone itself is unreachable.
  function heard() { state.heardAt = performance.now(); }
  function phoneSilence() {
    const up = state.source && state.source.readyState === EventSource.OPEN;
    const age = state.heardAt == null ? null : (performance.now() - state.heardAt) / 1000;
    return up && age != null && age < PHONE_SILENT_S ? null : { age };
  }
  function unreachableReason(silence) {
    return silence.age == null ? "the phone is unreachable" :
      `the phone is unreachable (nothing from it for ${Math.floor(silence.age)} s)`;
  }
  function stripUnreachable(age) {
    $("link").className = "link unreachable";
    text("link-state", "phone unreachable");
    text("link-age", age == null ? "not heard yet" : `nothing from it for ${Math.floor(age)} s`);
    text("link-outbox", "");
    wb.link = "unreachable";
  }
  function renderLink() {
    // Off a wearable's page the strip polls the phone and says so itself when it cannot reach it.
    const silence = state.wearable ? phoneSilence() : null;
    if (silence) {
      stripUnreachable(silence.age);
      renderCommands();
      renderAges();
      return;
    }
    const link = state.link;
    const el = $("link");
    const s = link ? link.state : "lost";
    el.className = "link " + s;
    text("link-state", s);
    if (link && link.last_seen_age_s != null) {
      const age = link.last_seen_age_s + (performance.now() - state.perfAt) / 1000;
      text("link-age", `updated ${Math.max(0, Math.floor(age))} s ago`);
    } else text("link-age", link ? "never heard" : "");
    text("link-outbox", link ? `outbox ${link.outbox_depth} waiting · high-water ${link.high_water}` : "");
    wb.link = s;
    renderCommands();
    renderAges();
  }

  // ---- tiles ----
  function renderSnapshot(snap) {
    text("v-distance", km(snap.distance_m));
    text("v-elapsed", duration(snap.elapsed_s));
    text("v-moving", duration(snap.moving_s));
    text("l-pace", speedActivity() ? "Speed" : "Pace");
    text("l-avgpace", speedActivity() ? "Avg speed" : "Avg pace");
    text("u-pace", speedActivity() ? "km/h" : "/km");
    text("u-avgpace", speedActivity() ? "km/h" : "/km");
    text("v-pace", pace(snap.pace_s_per_km));
    text("v-avgpace", pace(snap.avg_pace_s_per_km));
    text("v-hr", snap.heart_rate == null ? "–" : String(snap.heart_rate));
    text("v-zone", snap.zone == null ? "" : `zone ${snap.zone}`);
    const hr = $("t-hr");
    hr.className = "tile hr" + (snap.zone ? " z" + Math.min(5, snap.zone) : "");
    text("v-gps", snap.gps);
    text("v-energy", snap.energy_kcal == null ? "–" : String(snap.energy_kcal));
    text("v-climbed", snap.climbed_m == null ? "–" : String(snap.climbed_m));
    text("v-steps", snap.steps == null ? "–" : String(snap.steps));
    // The course's distance to go, and how far off it the wearer is when off course.
    const c = snap.course;
    $("t-togo").hidden = !c;
    if (c) {
      const off = c.state === "off_course" || c.state === "leaving";
      text("l-togo", c.state === "finished" ? "Course done" : off ? `Off course ${c.away_m == null ? "" : c.away_m + " m"}` : "To go");
      text("v-togo", km(c.to_go_m));
      text("u-togo", c.to_go_s == null ? "km" : `km · ${duration(c.to_go_s)}`);
      $("t-togo").className = "tile small" + (off ? " off" : "");
      $("t-togo").dataset.value = c.to_go_m;
      $("t-togo").dataset.state = c.state;
    }
    text("v-strap", snap.strap_lost ? "lost" : (state.contact || (snap.heart_rate == null ? "–" : "ok")));
    $("t-distance").dataset.value = snap.distance_m;
    $("t-elapsed").dataset.value = snap.elapsed_s;
    $("t-hr").dataset.value = snap.heart_rate == null ? "" : snap.heart_rate;
    renderAges();
  }

  // Each value greys out past its own limit. A running session sends a snapshot every second, so
  // its figures age with the snapshot; idle or paused, the link's heartbeats vouch for them.
  function renderAges() {
    const snap = state.snapshot;
    if (!snap) return;
    const now = serverNow();
    const snapAge = (now - snap.received_at_ms) / 1000;
    const linkAge = state.link && state.link.last_seen_age_s != null
      ? state.link.last_seen_age_s + (performance.now() - state.perfAt) / 1000 : Infinity;
    const running = snap.state === "active";
    const age = running ? snapAge : Math.min(snapAge, linkAge);
    for (const tile of document.querySelectorAll(".tile[data-limit]")) {
      let stale = age > Number(tile.dataset.limit) || !state.link || state.link.state === "lost" || !!phoneSilence();
      if (tile.id === "t-hr" && snap.strap_lost) stale = true;
      if ((tile.id === "t-pace" || tile.id === "t-gps") && (snap.gps === "lost" || snap.gps === "none")) stale = true;
      tile.classList.toggle("stale", stale);
    }
  }

  // ---- commands ----
  function newId() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return "dash-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  function renderCommands() {
    const silence = state.wearable ? phoneSilence() : null;
    const refused = silence ? unreachableReason(silence) : state.link && state.link.commands_refused_because;
    for (const button of document.querySelectorAll("[data-command]")) {
      const pending = state.pending && state.pending.kind === button.dataset.command && state.pending.state === "pending";
      button.disabled = !!refused && !pending;
      button.setAttribute("aria-disabled", button.disabled ? "true" : "false");
    }
    // A command answered in the last 10 s keeps its answer in the note beside the reason.
    const last = state.pending;
    const recent = last && last.state !== "pending" && last.settledAt != null && performance.now() - last.settledAt < 10000;
    if (refused && !(last && last.state === "pending")) {
      text("command-note", (recent ? outcome(last) + " · " : "") + "Commands unavailable: " + refused);
    } else if (!last) text("command-note", "");
  }
  function outcome(record) {
    if (record.state === "pending") return `${record.kind}: pending…`;
    if (record.state === "ack") return `${record.kind}: ACK`;
    return `${record.kind}: FAIL – ${record.message || record.reason}`;
  }
  function settle(button, record) {
    button.classList.remove("pending", "ack", "fail");
    button.classList.add(record.state === "pending" ? "pending" : record.state === "ack" ? "ack" : "fail");
    button.dataset.state = record.state;
    button.dataset.commandId = record.id;
    if (record.state !== "pending" && record.settledAt == null) record.settledAt = performance.now();
    text("command-note", outcome(record));
  }
  // One click is one command id; a click while it is pending sends the same id again.
  async function command(kind, button) {
    let record = state.pending;
    if (!(record && record.kind === kind && record.state === "pending")) {
      record = { id: newId(), kind, state: "pending" };
      state.pending = record;
      wb.commands.push({ id: record.id, kind });
    }
    settle(button, record);
    const body = { id: record.id, kind };
    if (kind === "start") {
      // Body mass and load for the energy; empty leaves the wearable's own.
      for (const [field, input] of [["body_mass_kg", "start-body"], ["load_kg", "start-load"]]) {
        const value = $(input).value.trim();
        if (value !== "") body[field] = Number(value);
      }
      // A course the wearable keeps, to follow.
      if ($("start-course").value !== "") body.course = $("start-course").value;
    }
    const result = await api(`/api/wearables/${encodeURIComponent(state.wearable)}/commands`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    if (record.state !== "pending") return;
    if (result.body && result.body.state && result.body.state !== "pending") {
      Object.assign(record, { state: result.body.state, reason: result.body.reason, message: result.body.message });
    } else if (!result.ok && result.status !== 202) {
      Object.assign(record, { state: "fail", message: (result.body && result.body.message) || `HTTP ${result.status}` });
    }
    settle(button, record);
    if (record.state === "pending") poll(record, button);
  }
  // The reply arrives on the stream; a poll covers answers that are not messages (not answered).
  async function poll(record, button) {
    while (record.state === "pending") {
      await new Promise((r) => setTimeout(r, 1000));
      if (record.state !== "pending") break;
      const result = await api(`/api/commands/${record.id}`);
      if (result.ok && result.body.state !== "pending") {
        Object.assign(record, { state: result.body.state, reason: result.body.reason, message: result.body.message });
      }
    }
    settle(button, record);
    renderCommands();
  }
  function commandReply(message) {
    const record = state.pending;
    if (!record || record.id !== message.command_id || record.state !== "pending") return;
    Object.assign(record, { state: message.ok ? "ack" : "fail", reason: message.reason, message: message.message });
    const button = document.querySelector(`[data-command="${record.kind}"]`);
    settle(button, record);
    renderCommands();
  }

  // ---- track ----
  const svgNS = "http://www.w3.org/2000/svg";
  function el(name, attrs, parent) {
    const node = document.createElementNS(svgNS, name);
    for (const k in attrs) node.setAttribute(k, attrs[k]);
    parent.appendChild(node);
    return node;
  }
  function niceScale(metres) {
    const steps = [10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000];
    return steps.find((s) => s >= metres) || 100000;
  }
  function renderTrack() {
    const svg = $("track");
    svg.replaceChildren();
    const pts = state.track;
    const course = state.course ? state.course.points : [];
    if (pts.length === 0 && course.length === 0) { el("text", { x: 10, y: 20 }, svg).textContent = "no track yet"; return; }
    let minE = Infinity, maxE = -Infinity, minN = Infinity, maxN = -Infinity;
    for (const p of pts.concat(course)) { minE = Math.min(minE, p[0]); maxE = Math.max(maxE, p[0]); minN = Math.min(minN, p[1]); maxN = Math.max(maxN, p[1]); }
    const W = 320, H = 240, M = 14;
    const span = Math.max(maxE - minE, maxN - minN, 20);
    const k = Math.min((W - 2 * M) / Math.max(maxE - minE, 1e-9), (H - 2 * M - 16) / Math.max(maxN - minN, 1e-9), (W - 2 * M) / 20);
    const x = (e) => M + (e - minE) * k + ((W - 2 * M) - (maxE - minE) * k) / 2;
    const y = (n) => H - M - 16 - (n - minN) * k - ((H - 2 * M - 16) - (maxN - minN) * k) / 2;
    // The course under the track, the way the wearer means to go.
    if (course.length > 1) {
      el("polyline", { points: course.map((p) => `${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join(" "), class: "course" }, svg);
    }
    svg.dataset.course = course.length;
    if (pts.length === 0) return;
    // Runs of moving and paused points, each its own polyline.
    let run = [], paused = pts[0][3] === 1;
    const flush = () => { if (run.length > 1) el("polyline", { points: run.join(" "), class: paused ? "paused" : "moving" }, svg); };
    for (const p of pts) {
      const isPaused = p[3] === 1;
      const xy = `${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`;
      if (isPaused !== paused) { run.push(xy); flush(); run = [run[run.length - 1]]; paused = isPaused; }
      else run.push(xy);
    }
    flush();
    el("circle", { cx: x(pts[0][0]), cy: y(pts[0][1]), r: 5, class: "start" }, svg);
    const last = pts[pts.length - 1];
    el("circle", { cx: x(last[0]), cy: y(last[1]), r: 6, class: "now" }, svg);
    const metres = niceScale(span / 4);
    const len = metres * k;
    el("line", { x1: M, y1: H - 8, x2: M + len, y2: H - 8, class: "scale" }, svg);
    el("text", { x: M + len + 4, y: H - 4 }, svg).textContent = metres >= 1000 ? `${metres / 1000} km` : `${metres} m`;
    svg.dataset.points = pts.length;
  }

  // ---- heart-rate chart ----
  function renderChart() {
    const svg = $("hrchart");
    svg.replaceChildren();
    const beats = state.beats;
    const W = 320, H = 160, L = 30;
    const floors = (state.snapshot && state.snapshot.zone_floors_bpm) || [];
    if (beats.length === 0) { el("text", { x: 10, y: 20 }, svg).textContent = "no heart rate yet"; return; }
    const end = beats[beats.length - 1][0], start = end - 600;
    const shown = beats.filter((b) => b[0] >= start);
    let lo = Math.min(...shown.map((b) => b[1])) - 10, hi = Math.max(...shown.map((b) => b[1])) + 10;
    if (floors.length) { lo = Math.min(lo, floors[0] - 10); hi = Math.max(hi, floors[floors.length - 1] + 10); }
    const x = (t) => L + ((t - start) / 600) * (W - L - 4);
    const y = (b) => H - 4 - ((b - lo) / Math.max(hi - lo, 1)) * (H - 8);
    floors.forEach((f, i) => {
      const top = i + 1 < floors.length ? floors[i + 1] : hi;
      const y1 = y(Math.min(top, hi)), y2 = y(Math.max(f, lo));
      if (y2 > y1) el("rect", { x: L, y: y1, width: W - L - 4, height: y2 - y1, class: "band" + Math.min(5, i + 1) }, svg);
      el("text", { x: 2, y: y(f) + 4 }, svg).textContent = String(f);
    });
    el("polyline", { points: shown.map((b) => `${x(b[0]).toFixed(1)},${y(b[1]).toFixed(1)}`).join(" "), class: "hrline" }, svg);
    svg.dataset.beats = shown.length;
  }

  // ---- splits and events ----
  function renderSplits() {
    const body = $("splits");
    body.replaceChildren();
    for (const s of [...state.splits.values()].sort((a, b) => a.index - b.index)) {
      const row = body.insertRow();
      const cells = [s.index, `${km(s.distance_m)} km`, duration(s.duration_s),
        pace(s.distance_m > 0 ? s.duration_s / (s.distance_m / 1000) : null), s.avg_heart_rate == null ? "–" : s.avg_heart_rate];
      for (const c of cells) row.insertCell().textContent = String(c);
    }
  }
  function logEvent(message) {
    const li = document.createElement("li");
    li.dataset.seq = message.seq;
    li.textContent = `#${message.seq} ${message.kind.replace(/_/g, " ")}` +
      (message.detail ? `: ${message.detail}` : "") + (message.message ? `: ${message.message}` : "");
    const list = $("events");
    list.insertBefore(li, list.firstChild);
    while (list.children.length > 200) list.removeChild(list.lastChild);
  }

  function measure(stampMs) {
    if (!stampMs) return;
    requestAnimationFrame(() => { wb.latencies.push(Date.now() - stampMs); if (wb.latencies.length > 5000) wb.latencies.shift(); });
  }

  // ---- the race ----
  // The partner beside the runner: both distances on one scale, the gap at equal time since the
  // start (the phone judges it as the wearable does), the partner's state and how old their
  // figures are, by the server's clock.
  const PARTNER_STALE_S = 10;
  function renderRace() {
    const r = state.race;
    $("race").hidden = !(r || state.relay);
    $("race-live").hidden = !r;
    $("race-desk").hidden = !state.relay;
    if (!r) return;
    text("race-partner", r.course ? `with ${r.partner}, along ${r.course}` : `with ${r.partner}`);
    text("lane-partner-name", r.partner);
    const mine = r.own_distance_m, theirs = r.partner_distance_m;
    const scale = r.distance_m || Math.max(mine || 0, theirs || 0, 100) * 1.1;
    $("lane-me").style.width = `${Math.min(100, ((mine || 0) / scale) * 100).toFixed(1)}%`;
    $("lane-partner").style.width = `${Math.min(100, ((theirs || 0) / scale) * 100).toFixed(1)}%`;
    text("lane-me-m", mine == null ? "–" : `${Math.round(mine)} m`);
    text("lane-partner-m", theirs == null ? "–" : `${Math.round(theirs)} m`);
    const gap = r.gap_m;
    text("l-gap", gap == null ? "Gap" : gap >= 0 ? "You lead by" : "You trail by");
    text("v-gap", gap == null ? "–" : String(Math.round(Math.abs(gap))));
    $("t-gap").className = "tile" + (gap == null ? "" : gap >= 0 ? " ahead" : " behind");
    $("t-gap").dataset.value = gap == null ? "" : gap;
    const gapS = gap == null ? null : r.gap_s;
    text("u-gap", gapS == null ? "m, at equal time since the start" : `m, ${Math.abs(gapS) < 60 ? `${Math.round(Math.abs(gapS))} s` : duration(Math.abs(gapS))} at the same point`);
    $("t-gap").dataset.seconds = gapS == null ? "" : gapS;
    text("v-partner", km(theirs));
    $("t-partner").dataset.value = theirs == null ? "" : theirs;
    const age = r.partner_age_s == null ? null : r.partner_age_s + (performance.now() - state.raceAt) / 1000;
    text("v-pstate", r.partner_state === "running" && r.partner_link !== "live" ? r.partner_link : r.partner_state);
    text("v-page", age == null ? "no figures yet" : `${Math.floor(age)} s ago`);
    const old = age == null || age > PARTNER_STALE_S;
    $("t-partner").classList.toggle("stale", old);
    $("t-gap").classList.toggle("stale", old);
    const startsIn = r.starts_in_s - (performance.now() - state.raceAt) / 1000;
    text("l-start", startsIn > 0 ? "Starts in" : "Started");
    text("v-start", startsIn > 0 ? duration(startsIn) : new Date(r.start_at_ms).toLocaleTimeString());
    text("race-state", r.leader ? (r.leader === "me" ? "· you lead" : `· ${r.partner} leads`) : `· ${r.relay_state}`);
    const list = $("race-events");
    const wanted = r.events.map((e) => `${new Date(e.at_ms).toLocaleTimeString()} ${e.runner || "relay"} ${e.kind}`).reverse();
    if (list.dataset.shown !== JSON.stringify(wanted)) {
      list.replaceChildren(...wanted.map((t) => { const li = document.createElement("li"); li.textContent = t; return li; }));
      list.dataset.shown = JSON.stringify(wanted);
    }
  }
  // The relay's desk: invites to answer, races under way, a new invite. Each action is one call
  // to the relay through the phone; its refusal is shown in its own words.
  async function loadRuns() {
    if (!state.relay) return;
    const result = await api("/api/race/runs");
    const ul = $("race-runs");
    if (!result.ok) { text("race-note", (result.body && result.body.message) || `relay: HTTP ${result.status}`); return; }
    ul.replaceChildren();
    for (const run of result.body.runs) {
      const li = document.createElement("li");
      li.dataset.run = run.run;
      const distance = run.distance_m ? ` over ${km(run.distance_m)} km` : "";
      li.append(`${run.activity} ${run.inviter} → ${run.invitee}${distance}: ${run.state}` +
        (run.start_at_ms ? `, starts ${new Date(run.start_at_ms).toLocaleTimeString()}` : ""));
      if (run.state === "invited" && run.invitee === result.body.runner) {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = "Accept";
        button.dataset.accept = run.run;
        button.addEventListener("click", () => accept(run.run, button));
        li.appendChild(button);
      }
      ul.appendChild(li);
    }
    if (!result.body.runs.length) { const li = document.createElement("li"); li.textContent = "no open invites or races"; ul.appendChild(li); }
  }
  async function accept(run, button) {
    button.disabled = true;
    text("race-note", "accepting…");
    const result = await api(`/api/race/runs/${run}/accept`, { method: "POST" });
    text("race-note", result.ok ? `accepted: the race starts at ${new Date(result.body.start_at_ms).toLocaleTimeString()}`
      : `accept refused: ${(result.body && result.body.message) || "HTTP " + result.status}`);
    button.disabled = false;
    loadRuns();
  }
  async function invite(event) {
    event.preventDefault();
    const body = { partner: $("invite-partner").value.trim() };
    const distance = parseFloat($("invite-distance").value);
    if (distance > 0) body.distance_m = Math.round(distance * 1000);
    const start = parseFloat($("invite-start").value);
    if (start > 0) body.start_in_s = start;
    // On a course: its length is the distance.
    if ($("invite-course").value !== "") { body.course = $("invite-course").value; delete body.distance_m; }
    text("race-note", "inviting…");
    const result = await api("/api/race/invites", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    text("race-note", result.ok ? `invited ${body.partner}: run ${result.body.run.slice(0, 8)}`
      : `invite refused: ${(result.body && result.body.message) || "HTTP " + result.status}`);
    loadRuns();
  }
  async function race(name) {
    const result = await api(`/api/wearables/${encodeURIComponent(name)}/race`);
    if (!result.ok) return;
    state.relay = result.body.relay;
    takeRace(result.body);
    if (state.relay) {
      $("race-invite").addEventListener("submit", invite);
      loadRuns();
      setInterval(loadRuns, 15000);
    }
  }
  function takeRace(body) {
    stampServer(body.server_time_ms);
    state.race = body.race;
    state.raceAt = performance.now();
    renderRace();
  }

  // ---- the live stream ----
  function connect(last) {
    const url = `/api/wearables/${encodeURIComponent(state.wearable)}/events` + (last != null ? `?last_event_id=${last}` : "");
    const source = new EventSource(url);
    state.source = source;
    source.onopen = heard;
    for (const kind of ["hello", "link", "snapshot", "message", "race", "track"]) source.addEventListener(kind, heard);
    source.addEventListener("hello", (e) => {
      const hello = JSON.parse(e.data);
      stampServer(hello.server_time_ms);
      if (state.epoch && state.epoch !== hello.epoch) { state.splits.clear(); state.track = []; state.beats = []; wb.seqs = []; }
      state.epoch = hello.epoch;
    });
    source.addEventListener("link", (e) => {
      const link = JSON.parse(e.data);
      stampServer(link.server_time_ms);
      state.link = link;
      if (link.strap_battery_percent != null) text("v-battery", `battery ${link.strap_battery_percent}%`);
      renderLink();
    });
    source.addEventListener("snapshot", (e) => {
      const snap = JSON.parse(e.data);
      stampServer(snap.server_time_ms);
      state.snapshot = snap;
      renderSnapshot(snap);
      if (wb.firstDataMs == null) wb.firstDataMs = performance.now();
      measure(snap.received_at_ms);
    });
    source.addEventListener("message", (e) => {
      const m = JSON.parse(e.data);
      stampServer(m.server_time_ms);
      wb.lastId = e.lastEventId;
      if (wb.seqs.length && m.seq <= wb.seqs[wb.seqs.length - 1]) return;
      wb.seqs.push(m.seq);
      if (m.kind === "session_started") {
        state.activity = m.activity || "running";
        if (state.session !== m.session) { state.splits.clear(); state.track = []; state.beats = []; }
        state.session = m.session;
      }
      if (m.kind === "split") { state.splits.set(m.index, m); renderSplits(); }
      if (m.kind === "command_reply") commandReply(m);
      logEvent(m);
      measure(m.received_at_ms);
    });
    source.addEventListener("race", (e) => takeRace(JSON.parse(e.data)));
    source.addEventListener("track", (e) => {
      const t = JSON.parse(e.data);
      if (t.after === 0) { state.track = []; state.beats = []; state.course = null; }
      if (t.course) state.course = t.course;
      state.track.push(...t.points);
      state.beats.push(...t.beats);
      if (state.beats.length > 4000) state.beats = state.beats.slice(-3000);
      if (t.contact) state.contact = t.contact.replace(/_/g, " ");
      renderTrack();
      renderChart();
    });
    // The phone is stopping: this stream ends; a new one resumes from the last message shown.
    source.addEventListener("bye", () => {
      source.close();
      renderLink();
      setTimeout(() => { if (state.source === source) connect(wb.lastId); }, 1000);
    });
    // The browser reconnects by itself with Last-Event-ID; if it gives up (the phone was down and
    // answered with an error), a new stream resumes from the last message this page showed.
    source.onerror = () => {
      renderLink();
      if (source.readyState === EventSource.CLOSED) {
        setTimeout(() => { if (state.source === source) connect(wb.lastId); }, 1500);
      }
    };
  }

  // ---- courses: the phone's, added from a file, sent to this wearable, forgotten on both ----
  async function loadCourses() {
    const result = await api("/api/courses");
    if (!result.ok) return;
    const list = $("course-list");
    list.textContent = "";
    const names = result.body.courses.map((c) => c.name);
    for (const select of [$("start-course"), $("invite-course")]) {
      const chosen = select.value;
      select.textContent = "";
      for (const name of [""].concat(names)) {
        const option = document.createElement("option");
        option.value = name;
        option.textContent = name === "" ? "none" : name;
        select.appendChild(option);
      }
      select.value = names.includes(chosen) ? chosen : "";
    }
    for (const c of result.body.courses) {
      const item = document.createElement("li");
      item.dataset.course = c.name;
      const label = document.createElement("span");
      label.textContent = `${c.name}: ${km(c.length_m)} km, ${c.points} points (${c.file_points} in ${c.source}), ${c.turns} turns`;
      item.appendChild(label);
      for (const [action, title] of [["send", "Send to the wearable"], ["remove", "Remove"]]) {
        const button = document.createElement("button");
        button.type = "button";
        button.dataset.courseAction = action;
        button.textContent = title;
        button.addEventListener("click", () => (action === "send" ? sendCourse : removeCourse)(c.name, button));
        item.appendChild(button);
      }
      list.appendChild(item);
    }
  }
  // Each command's standing until all are answered (a part at a time may take a while on a slow link).
  async function answered(ids, say) {
    const outcome = new Map();
    while (outcome.size < ids.length) {
      for (const id of ids) {
        if (outcome.has(id)) continue;
        const result = await api(`/api/commands/${id}`);
        if (result.ok && result.body.state !== "pending") outcome.set(id, result.body);
      }
      say(outcome.size);
      if (outcome.size < ids.length) await new Promise((r) => setTimeout(r, 1000));
    }
    return ids.map((id) => outcome.get(id));
  }
  async function sendCourse(name, button) {
    button.disabled = true;
    text("course-note", `sending ${name}…`);
    const path = `/api/wearables/${encodeURIComponent(state.wearable)}/courses/${encodeURIComponent(name)}`;
    const result = await api(path, { method: "POST" });
    if (!result.ok) {
      text("course-note", `not sent: ${(result.body && result.body.message) || "HTTP " + result.status}`);
      button.disabled = false;
      return;
    }
    const ids = result.body.commands;
    const answers = await answered(ids, (n) => text("course-note", `sending ${name}: ${n} of ${ids.length} parts answered`));
    const failed = answers.find((a) => a.state !== "ack");
    const kept = answers.find((a) => a.message && a.message.startsWith("course "));
    text("course-note", failed ? `${name} not sent: ${failed.message || failed.state}`
      : `sent ${name} in ${ids.length} parts: ${kept ? kept.message : "kept"}`);
    $("course-note").dataset.sent = failed ? "" : name;
    button.disabled = false;
  }
  async function removeCourse(name, button) {
    button.disabled = true;
    const path = `/api/wearables/${encodeURIComponent(state.wearable)}/courses/${encodeURIComponent(name)}`;
    const result = await api(path, { method: "DELETE" });
    if (!result.ok) {
      text("course-note", `not removed: ${(result.body && result.body.message) || "HTTP " + result.status}`);
      button.disabled = false;
      return;
    }
    await loadCourses();
    text("course-note", `removed ${name} from the phone; the wearable…`);
    const [answer] = await answered([result.body.command], () => {});
    text("course-note", answer.state === "ack" ? `removed ${name}: ${answer.message}`
      : `the wearable keeps ${name}: ${answer.message || answer.state}`);
  }
  async function addCourse(event) {
    event.preventDefault();
    const file = $("course-file").files[0];
    if (!file) return;
    const query = new URLSearchParams({ file: file.name });
    if ($("course-name").value.trim() !== "") query.set("name", $("course-name").value.trim());
    text("course-note", `reading ${file.name}…`);
    const result = await api(`/api/courses?${query}`, {
      method: "POST", headers: { "Content-Type": "application/octet-stream" }, body: file,
    });
    text("course-note", result.ok ? `added ${result.body.name}: ${km(result.body.length_m)} km, ${result.body.points} points kept of ${result.body.file_points}, ${result.body.turns} turns`
      : `not added: ${(result.body && result.body.message) || "HTTP " + result.status}`);
    if (result.ok) { $("course-add").reset(); loadCourses(); }
  }

  async function live(name) {
    show("live");
    state.wearable = name;
    text("live-title", name);
    document.title = `${name} · wearbridge`;
    for (const button of document.querySelectorAll("[data-command]")) {
      button.addEventListener("click", () => command(button.dataset.command, button));
    }
    renderTrack();
    renderChart();
    connect(null);
    race(name);
    $("course-add").addEventListener("submit", addCourse);
    loadCourses();
    setInterval(() => { renderLink(); if (state.race) renderRace(); }, 1000);
  }

  // ---- the strip off a wearable's page: one wearable's link, or how many of several are live ----
  function stripOf(wearables) {
    if (wearables.length === 1) { state.link = wearables[0].link; renderLink(); return; }
    const order = ["lost", "stale", "paused", "live"];
    const worst = wearables.map((w) => w.link.state).sort((a, b) => order.indexOf(a) - order.indexOf(b))[0] || "lost";
    $("link").className = "link " + worst;
    text("link-state", `${wearables.filter((w) => w.link.state === "live").length} of ${wearables.length} live`);
    text("link-age", wearables.map((w) => `${w.name} ${w.link.state}`).join(" · "));
    text("link-outbox", "");
    wb.link = worst;
  }
  async function watchLinks(then) {
    let heardAt = performance.now();
    const refresh = async () => {
      const result = await api("/api/wearables");
      if (result.status === 0) {
        stripUnreachable((performance.now() - heardAt) / 1000);
        return;
      }
      if (!result.ok) return;
      heardAt = performance.now();
      stampServer(result.body.server_time_ms);
      stripOf(result.body.wearables);
      if (then) then(result.body.wearables);
    };
    await refresh();
    setInterval(refresh, 2000);
  }

  // ---- the list of wearables ----
  async function list() {
    show("list");
    await watchLinks((wearables) => {
      const ul = $("wearables");
      ul.replaceChildren();
      for (const w of wearables) {
        const li = document.createElement("li");
        const a = document.createElement("a");
        a.href = `/w/${encodeURIComponent(w.name)}`;
        const snap = w.snapshot;
        a.textContent = `${w.name} · ${w.link.state}` + (snap ? ` · ${km(snap.distance_m)} km · ${duration(snap.elapsed_s)}` : "");
        li.appendChild(a);
        ul.appendChild(li);
      }
    });
  }

  // ---- history ----
  async function history() {
    show("history");
    watchLinks(null);
    const result = await api("/api/sessions");
    const body = $("sessions");
    body.replaceChildren();
    if (!result.ok) { text("download-note", (result.body && result.body.message) || "cannot list sessions"); return; }
    for (const s of result.body.sessions) {
      const row = body.insertRow();
      row.dataset.session = s.session;
      const started = s.started_at_ms ? new Date(s.started_at_ms).toLocaleString() : s.session.slice(0, 8);
      const indoor = s.distance_source && s.distance_source !== "gps" ? ` · indoor (${s.distance_source})` : "";
      row.insertCell().textContent = `${started} · ${s.activity || "?"}${indoor}`;
      row.insertCell().textContent = s.distance_m != null ? `${km(s.distance_m)} km` : "–";
      row.insertCell().textContent = duration(s.elapsed_s);
      state.activity = s.activity;
      row.insertCell().textContent = pace(s.avg_pace_s_per_km);
      row.insertCell().textContent = s.avg_heart_rate == null ? "–" : String(s.avg_heart_rate);
      row.insertCell().textContent = s.energy_kcal == null ? "–" : String(Math.round(s.energy_kcal));
      row.insertCell().textContent = s.elevation_gain_m == null ? "–" : `${Math.round(s.elevation_gain_m)} m`;
      row.insertCell().textContent = s.steps == null ? "–" : String(s.steps);
      const files = row.insertCell();
      if (s.exportable) {
        for (const format of ["gpx", "tcx", "fit", "csv"]) {
          const button = document.createElement("button");
          button.type = "button";
          button.textContent = format.toUpperCase();
          button.dataset.format = format;
          button.setAttribute("aria-label", `Download ${format.toUpperCase()} of ${started}`);
          button.addEventListener("click", () => download(s.session, format));
          files.appendChild(button);
        }
      } else files.textContent = s.ended ? `backfill ${s.backfill || "waiting"}` : "running";
    }
    races();
  }
  // Races that are over: both runners' figures and the map of both routes (an image: the phone draws it).
  async function races() {
    const list = $("races");
    list.replaceChildren();
    const result = await api("/api/races");
    if (!result.ok) return;
    if (!result.body.races.length) { const li = document.createElement("li"); li.textContent = "no race yet"; list.appendChild(li); return; }
    for (const r of result.body.races) {
      const li = document.createElement("li");
      li.dataset.run = r.run;
      const who = (x) => `${x.name} ${x.distance_m == null ? "–" : km(x.distance_m) + " km"} in ${duration(x.elapsed_s)}`;
      const heading = document.createElement("p");
      heading.textContent = `${new Date(r.start_at_ms).toLocaleString()} · ${r.state}${r.winner ? ` · ${r.winner} won` : ""} · ` +
        `${who(r.mine)} · ${who(r.partner)}` + (r.lead_changes == null ? "" : ` · the lead changed ${r.lead_changes} times`);
      li.appendChild(heading);
      const map = document.createElement("img");
      map.src = `/api/races/${encodeURIComponent(r.run)}/map.svg`;
      map.alt = `the routes of ${r.mine.name} and ${r.partner.name}`;
      map.className = "race-map";
      li.appendChild(map);
      list.appendChild(li);
    }
  }
  // Streamed with its length: the bar shows how much has arrived.
  async function download(session, format) {
    const bar = $("download-progress");
    bar.hidden = false; bar.value = 0;
    text("download-note", `${format.toUpperCase()}: making the file…`);
    const response = await fetch(`/api/sessions/${encodeURIComponent(session)}/export/${format}`, { credentials: "same-origin" });
    if (!response.ok) {
      let message = `HTTP ${response.status}`;
      try { message = (await response.json()).message; } catch (e) { /* not JSON */ }
      text("download-note", `${format.toUpperCase()}: ${message}`);
      bar.hidden = true;
      return;
    }
    const total = Number(response.headers.get("Content-Length")) || 0;
    const reader = response.body.getReader();
    const chunks = [];
    let received = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.length;
      if (total) bar.value = received / total;
      text("download-note", `${format.toUpperCase()}: ${Math.round(received / 1024)} of ${Math.round(total / 1024)} KB`);
    }
    const blob = new Blob(chunks);
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `${session}.${format}`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    text("download-note", `${format.toUpperCase()}: saved ${Math.round(received / 1024)} KB`);
    bar.value = 1;
  }

  // ---- pairing ----
  function pair() {
    show("pair");
    const secret = location.hash.slice(1);
    if (secret) $("pair-secret").value = secret;
    $("pair-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const result = await api("/api/pair", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ secret: $("pair-secret").value.trim() }),
      });
      text("pair-note", result.ok ? "Paired: this browser may now use the dashboard." : (result.body && result.body.message) || "refused");
      if (result.ok) { window.history.replaceState(null, "", "/pair"); setTimeout(() => (location.href = "/"), 800); }
    });
  }

  route();
})();

"""Dashboard figures in one run, release builds (scripts/bench/dashboard.sh): event to visible DOM update
in the browser (p50, p99: the phone's receipt stamp carried in each event, measured in the page after
the next frame), first load bytes and time, and the phone's CPU and RSS with 0 pages open (the
baseline) and with 5, as a ratio. The wearable is fed by gpsfake through a real gpsd."""
import json
import os
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "rigs"))
import dashboard as dash  # noqa: E402  (the rig: wearable, phone, dashboard and browser)

harness = dash.harness
SECONDS = float(os.environ.get("BENCH_SECONDS", "40"))
TICK = os.sysconf("SC_CLK_TCK")


def cpu_and_rss(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / TICK
    with open(f"/proc/{pid}/status") as f:
        rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024
    return cpu, rss


def phase(pid, seconds):
    """CPU seconds per wall second and peak RSS (MB) of the phone over `seconds`."""
    start_cpu, _ = cpu_and_rss(pid)
    started = time.time()
    peak = 0.0
    while time.time() - started < seconds:
        peak = max(peak, cpu_and_rss(pid)[1])
        time.sleep(0.5)
    end_cpu, _ = cpu_and_rss(pid)
    return (end_cpu - start_cpu) / (time.time() - started), peak


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main():
    d = dash.Dashboard()
    try:
        harness.wait_for(lambda: d.js("return window.__wb.firstDataMs") is not None, 60, "the first data")
        load = d.js("""
            const nav = performance.getEntriesByType('navigation')[0];
            const res = performance.getEntriesByType('resource').filter(r => !r.name.includes('/events'));
            return {bytes: nav.transferSize + res.reduce((a, r) => a + r.transferSize, 0),
                    body: nav.encodedBodySize + res.reduce((a, r) => a + r.encodedBodySize, 0),
                    files: 1 + res.length, dom_ms: nav.domContentLoadedEventEnd, first_data_ms: window.__wb.firstDataMs};""")
        pid = d.phone_process.pid
        # The baseline: the page closed, nothing open on the dashboard.
        d.driver.get("about:blank")
        harness.wait_for(lambda: dash.http(d.base + "/api/health")[1]["open_streams"] == 0, 30, "no stream open")
        time.sleep(3)
        cpu0, rss0 = phase(pid, SECONDS)
        handles = []
        for index in range(5):
            if index:
                d.driver.switch_to.new_window("window")
            d.driver.get(d.base + "/w/pi")
            handles.append(d.driver.current_window_handle)
        d.driver.switch_to.window(handles[0])
        harness.wait_for(lambda: dash.http(d.base + "/api/health")[1]["open_streams"] == 5, 30, "5 streams")
        d.js("window.__wb.latencies = []")
        cpu5, rss5 = phase(pid, SECONDS)
        latencies = d.js("return window.__wb.latencies")
        figures = {
            "event_to_dom_ms": {"p50": percentile(latencies, 50), "p99": percentile(latencies, 99),
                                "events": len(latencies)},
            "first_load": load,
            "phone_0_pages": {"cpu_percent": round(cpu0 * 100, 2), "peak_rss_mb": round(rss0, 1)},
            "phone_5_pages": {"cpu_percent": round(cpu5 * 100, 2), "peak_rss_mb": round(rss5, 1)},
            "cpu_ratio_5_to_0": round(cpu5 / cpu0, 2) if cpu0 else None,
            "rss_delta_mb": round(rss5 - rss0, 1),
            "seconds_per_phase": SECONDS,
        }
        print(json.dumps(figures, indent=2))
    finally:
        d.close()
        harness.stop_all()


if __name__ == "__main__":
    main()

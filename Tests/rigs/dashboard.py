"""The dashboard as its tests and benchmark meet it: a real wearable fed by gpsfake, the phone with its
dashboard, and Debian's chromium on it."""
import json
import os
import time

import harness
from browser import By, chromium, http

BIN = harness.BIN


class Dashboard:
    """The wearable, the phone with its dashboard, and a browser on it."""

    def __init__(self):
        self.setup = harness.Setup()
        self.port = harness.free_port()
        self.setup.write_phone_config(self.dashboard_config())
        # stale after 2 s, lost after 12 s: the strip's changes come within a test's patience.
        with open(self.setup.phone_config) as f:
            text = f.read().replace("valid_for = 60\n", "valid_for = 60\nstale_after = 2\n")
        with open(self.setup.phone_config, "w") as f:
            f.write(text)
        self.base = f"http://127.0.0.1:{self.port}"
        self.shots = os.environ.get("DASHBOARD_SHOTS", harness.SCREENSHOTS)
        os.makedirs(self.shots, exist_ok=True)
        self.downloads = os.path.join(self.setup.dir, "downloads")
        os.makedirs(self.downloads)
        self.phone_process = self.setup.phone()
        self.setup.gpsfake(cycle="0.12")
        self.wearable_process = self.setup.wearable()
        harness.wait_for(lambda: http(self.base + "/api/health")[0] == 200, 30, "the dashboard")
        self.driver = chromium(self.setup.dir, downloads=self.downloads)
        self.driver.get(self.base + "/w/pi")

    def dashboard_config(self, extra=""):
        return f"\n[dashboard]\nport = {self.port}\nmax_streams = 8\n{extra}"

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def text(self, element_id):
        return self.driver.find_element(By.ID, element_id).text

    def link_state(self):
        return self.text("link-state")

    def ctl_status(self):
        out = harness.run([f"{BIN}/wearbridge", "ctl", "status", "--json", "--config", self.setup.wear_config])
        return json.loads(out.stdout)

    def wear_rows(self, sql, args=()):
        return harness.rows(f"{self.setup.wear_dir}/wearbridge.sqlite", sql, args)

    def phone_rows(self, sql, args=()):
        return harness.rows(f"{self.setup.phone_dir}/wearbridge-phone.sqlite", sql, args)

    def shot(self, name, width, height):
        self.driver.set_window_size(width, height)
        time.sleep(0.6)
        path = os.path.join(self.shots, f"{name}-{width}x{height}.png")
        self.driver.save_screenshot(path)
        return path

    def click_command(self, kind):
        """Clicks a command button; returns its state right after the click and the id it made."""
        return self.js("""
            const b = document.querySelector(`[data-command="${arguments[0]}"]`);
            b.click();
            return [b.dataset.state, b.dataset.commandId];""", kind)

    def wait_command(self, kind, states=("ack", "fail", "not_answered"), timeout=30):
        return harness.wait_for(lambda: self.js(
            "const b = document.querySelector(`[data-command=\"${arguments[0]}\"]`);"
            "return arguments[1].includes(b.dataset.state) ? [b.dataset.state, b.dataset.commandId] : null;",
            kind, list(states)), timeout, f"{kind} to be answered")

    def close(self):
        try:
            self.driver.quit()
        except Exception:
            pass

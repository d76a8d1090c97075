"""What the dashboard's tests talk to it with: Debian's chromium, headless, driven by Debian's
chromedriver through python3-selenium (no browser is downloaded), and a plain HTTP client."""
import json
import os
import sys
import urllib.error
import urllib.request

try:
    from selenium import webdriver
except ImportError:  # Debian's python3-selenium, when python3 is not Debian's own
    sys.path.append("/usr/lib/python3/dist-packages")
    from selenium import webdriver
from selenium.webdriver.chrome.service import Service as ChromeService  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402,F401  (for the tests)


def chromium(log_dir, downloads=None, width=412, height=892):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    # No back-forward cache: a page navigated away from would stay alive in it with its event stream
    # open, which the phone rightly counts as an open stream.
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}", "--force-device-scale-factor=1",
                     "--disable-features=BackForwardCache"):
        options.add_argument(argument)
    if downloads:
        options.add_experimental_option("prefs", {"download.default_directory": downloads,
                                                  "download.prompt_for_download": False})
    service = ChromeService(executable_path="/usr/bin/chromedriver",
                            log_path=os.path.join(log_dir, "chromedriver.log"))
    driver = webdriver.Chrome(options=options, service=service)
    if downloads:
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    return driver


def http(url, method="GET", body=None, headers=None, timeout=10, context=None):
    """(status, parsed JSON or raw bytes, headers) of one request; errors are answers too."""
    request = urllib.request.Request(url, method=method, data=body, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout, context=context) as response:
            data = response.read()
            status, got = response.status, response.headers
    except urllib.error.HTTPError as error:
        data, status, got = error.read(), error.code, error.headers
    except (urllib.error.URLError, OSError):  # not listening (yet, or any more)
        return None, None, None
    try:
        return status, json.loads(data), got
    except ValueError:
        return status, data, got

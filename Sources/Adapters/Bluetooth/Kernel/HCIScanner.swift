import ATT
import CBluetooth
import ProcessClock

#if canImport(Glibc)
import Glibc
#endif

/// LE scanning on a raw HCI socket through libbluetooth, for finding straps.
///
/// Passive scan, on purpose: Linux (6.x) takes an active scan's Command Complete as the start of
/// discovery and, as it never saw discovery start through mgmt, stays "discovering" after we stop,
/// refusing LE connections (found in the VM: connect() then never reaches the controller). Straps
/// put 0x180D and usually their name in the advertisement itself, so a passive scan finds them.
/// Duplicates are not filtered so RSSI stays current; the event filter is put back and scanning
/// turned off however the scan ends.
public struct HCIScanner: Sendable {
    public var adapter: String

    /// LE Extended Advertising Report: libbluetooth's headers predate it.
    static let extendedAdvertisingReport: UInt8 = 0x0D

    public init(adapter: String = "hci0") {
        self.adapter = adapter
    }

    /// Scans for `seconds` (or until `stop` says so), reporting each advertisement as it arrives.
    /// Returns every device heard, merged by address, in the order first heard.
    public func scan(
        seconds: Double,
        stop: (AdvertisingReport) -> Bool = { _ in false },
        malformed: (String) -> Void = { _ in }
    ) throws(BluetoothError) -> [AdvertisingReport] {
        let device = try HCIAdapter(name: adapter)
        let dd = hci_open_dev(device.id)
        guard dd >= 0 else { throw .system("hci_open_dev(\(adapter))", errno: errno) }
        defer { hci_close_dev(dd) }

        var saved = hci_filter()
        var savedLength = socklen_t(MemoryLayout<hci_filter>.size)
        guard getsockopt(dd, SOL_HCI, HCI_FILTER, &saved, &savedLength) == 0 else {
            throw .system("getsockopt(HCI_FILTER)", errno: errno)
        }
        // A scan the kernel left on (or an earlier run killed mid-scan) refuses new parameters.
        _ = hci_le_set_scan_enable(dd, 0x00, 0x00, 1000)
        // Passive scan, 10 ms interval and window (units of 0.625 ms), public own address, accept all.
        guard
            hci_le_set_scan_parameters(dd, 0x00, UInt16(0x10).littleEndian, UInt16(0x10).littleEndian, 0x00, 0x00, 1000)
                >= 0
        else {
            throw .system("LE Set Scan Parameters on \(adapter)", errno: errno)
        }
        var filter = hci_filter()
        hci_filter_clear(&filter)
        hci_filter_set_ptype(Int32(HCI_EVENT_PKT), &filter)
        hci_filter_set_event(Int32(EVT_LE_META_EVENT), &filter)
        guard setsockopt(dd, SOL_HCI, HCI_FILTER, &filter, socklen_t(MemoryLayout<hci_filter>.size)) == 0 else {
            throw .system("setsockopt(HCI_FILTER)", errno: errno)
        }
        defer { _ = setsockopt(dd, SOL_HCI, HCI_FILTER, &saved, savedLength) }
        guard hci_le_set_scan_enable(dd, 0x01, 0x00, 1000) >= 0 else {
            throw .system("LE Set Scan Enable on \(adapter)", errno: errno)
        }
        defer { _ = hci_le_set_scan_enable(dd, 0x00, 0x00, 1000) }

        var heard: [AdvertisingReport] = []
        let deadline = MonotonicClock.now() + seconds
        var buffer = [UInt8](repeating: 0, count: Int(HCI_MAX_EVENT_SIZE))
        while true {
            let left = deadline - MonotonicClock.now()
            if left <= 0 { break }
            var poller = pollfd(fd: dd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left, 0.2) * 1000) + 1)
            if ready < 0 && errno != EINTR { throw .system("poll(HCI)", errno: errno) }
            guard ready > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(dd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .system("read(HCI)", errno: errno)
            }
            // packet type, event code, parameter length, subevent, parameters
            guard count >= 4, buffer[0] == UInt8(HCI_EVENT_PKT), buffer[1] == UInt8(EVT_LE_META_EVENT) else { continue }
            let reports: [AdvertisingReport]
            do {
                switch buffer[3] {
                case UInt8(EVT_LE_ADVERTISING_REPORT):
                    reports = try AdvertisingReport.parse(leAdvertisingReport: Array(buffer[4..<count]))
                case Self.extendedAdvertisingReport:
                    reports = try AdvertisingReport.parse(leExtendedAdvertisingReport: Array(buffer[4..<count]))
                default:
                    continue
                }
            } catch {
                malformed("advertising report \(Array(buffer[0..<count])): \(error)")
                continue
            }
            for report in reports where stop(heard.hear(report).device) { return heard }
        }
        return heard
    }
}

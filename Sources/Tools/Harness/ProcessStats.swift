import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// CPU time and peak RSS of a running process, from /proc: the same reading for the daemon and gpsd.
public struct ProcessStats {
    public let pid: Int32

    public init(pid: Int32) {
        self.pid = pid
    }

    /// User + system CPU seconds so far.
    public var cpuSeconds: Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return .nan }
        // Fields after "(comm)": state is field 3; utime and stime are fields 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return .nan }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Peak resident set size (VmHWM) in MB.
    public var peakRSSMB: Double { statusField("VmHWM") / 1024 }

    /// Resident set size now (VmRSS) in MB.
    public var rssMB: Double { statusField("VmRSS") / 1024 }

    private func statusField(_ name: String) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return .nan }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            return Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan
        }
        return .nan
    }

    /// Direct children (gpsfake's gpsd).
    public var children: [Int32] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return text.split(separator: " ").compactMap { Int32($0) }
    }
}

/// A harness failure with what went wrong.
public struct HarnessError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

import Foundation
import Harness

/// A long generated run around a 2 km loop with receiver-like noise, as gpsd JSON lines.
struct SyntheticSession {
    var hours: Double
    var rate: Double

    /// Writes the session and returns how many fixes it holds.
    func write(to path: String) throws -> Int {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw CocoaError(.fileWriteUnknown) }
        defer { try? handle.close() }
        let count = Int(hours * 3600 * rate)
        let speed = 3.2
        let radius = 2000 / (2 * Double.pi)
        let lat0 = 48.137
        let lon0 = 11.575
        let metresPerDegreeLat = 111_200.0
        let metresPerDegreeLon = 111_200.0 * cos(lat0 * Double.pi / 180)
        var generator = SplitMix(seed: 42)
        var buffer = ""
        buffer.reserveCapacity(1 << 20)
        for i in 0..<count {
            let t = Double(i) / rate
            let angle = speed * t / radius
            let east = radius * sin(angle) + generator.gaussian() * 1.5
            let north = radius * (1 - cos(angle)) + generator.gaussian() * 1.5
            let track = (90 - angle * 180 / Double.pi).truncatingRemainder(dividingBy: 360)
            let seconds = 1_750_000_000 + t
            buffer +=
                "{\"class\":\"TPV\",\"device\":\"/dev/ttyACM0\",\"mode\":3,\"time\":\"\(iso(seconds))\","
                + "\"lat\":\(lat0 + north / metresPerDegreeLat),\"lon\":\(lon0 + east / metresPerDegreeLon),"
                + "\"epx\":4.1,\"epy\":4.3,\"eph\":5.9,\"speed\":\(speed + generator.gaussian() * 0.1),"
                + "\"track\":\(track < 0 ? track + 360 : track),\"eps\":0.77}\n"
            if buffer.utf8.count > 1 << 20 {
                handle.write(Data(buffer.utf8))
                buffer.removeAll(keepingCapacity: true)
            }
        }
        handle.write(Data(buffer.utf8))
        return count
    }

    private func iso(_ seconds: Double) -> String {
        let whole = Int(seconds)
        let millis = Int(((seconds - Double(whole)) * 1000).rounded())
        var tm = tm()
        var t = time_t(whole)
        gmtime_r(&t, &tm)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
            tm.tm_year + 1900,
            tm.tm_mon + 1,
            tm.tm_mday,
            tm.tm_hour,
            tm.tm_min,
            tm.tm_sec,
            millis
        )
    }
}

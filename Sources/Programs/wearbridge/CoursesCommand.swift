import ArgumentParser
import Course
import Foundation
import PhoneLinkWire
import Store

/// `wearbridge courses`: the courses the data log keeps (sent by the phone), by name.
struct CoursesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "courses",
        abstract: "List the courses this wearable keeps (wearbridge ctl remove --course NAME forgets one)."
    )

    @Flag(help: "One JSON object per course.")
    var json = false

    @OptionGroup var storage: StorageOptions

    func run() throws {
        let log = try storage.open()
        let stored: [StoredCourse]
        do {
            stored = try log.courses()
        } catch {
            StandardError.line("wearbridge: cannot read \(log.path): \(error)")
            throw ExitCode(65)
        }
        if stored.isEmpty, !json {
            StandardOutput.line("no course kept (the phone sends them: wearbridge-phone course send NAME)")
        }
        for kept in stored {
            guard let course = try? CourseWire.decode(kept.bytes) else {
                StandardError.line("wearbridge: the kept course \"\(kept.name)\" cannot be read by this version")
                continue
            }
            if json {
                StandardOutput.line(
                    try JSONLine.encode(
                        CourseJSON(
                            name: kept.name,
                            id: kept.id,
                            lengthM: (course.length * 10).rounded() / 10,
                            points: course.points.count,
                            turns: course.turns.count,
                            bytes: kept.bytes.count
                        )
                    )
                )
            } else {
                StandardOutput.line(
                    "\(kept.name): \(TextFormat.format(course.length / 1000, 2)) km, \(course.points.count) points, "
                        + "\(course.turns.count) turns"
                )
            }
        }
    }

    private struct CourseJSON: Encodable {
        var name: String
        var id: String
        var lengthM: Double
        var points: Int
        var turns: Int
        var bytes: Int

        enum CodingKeys: String, CodingKey {
            case name, id, points, turns, bytes
            case lengthM = "length_m"
        }
    }
}

import Course
import Foundation
import RelayClient
import RelayContract

/// How the race commands print runs: one line for a person, one JSON object for a program.
enum RaceText {
    static func instant(_ date: Date) -> String {
        date.formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted)
        )
    }

    static func line(_ run: RelayRun) -> String {
        var text = "\(run.id.uuidString.lowercased()) \(run.state.rawValue) \(run.activity) with \(run.partner)"
        if let distance = run.distanceMetres { text += String(format: " over %.0f m", distance) }
        switch run.state {
        case .invited: text += " (invited by \(run.inviter), expires \(instant(run.expiresAt)))"
        case .accepted: text += run.startAt.map { " (starts \(instant($0)))" } ?? ""
        case .complete: text += " (winner \(run.winner ?? "none"))"
        case .abandoned, .declined, .cancelled, .expired: text += run.reason.map { " (\($0))" } ?? ""
        }
        return text
    }

    static func line(_ entry: RelayEntry) -> String {
        var text = "\(entry.runner):"
        text +=
            entry.startOffsetMilliseconds.map { " started \($0) ms off the agreed instant;" } ?? " no start reported;"
        if let outcome = entry.outcome {
            text += " \(outcome.rawValue)"
            if let distance = entry.finalDistanceMetres, let elapsed = entry.finalElapsedSeconds {
                text += String(format: " %.1f m in %.1f s", distance, elapsed)
            }
        } else if let distance = entry.lastDistanceMetres {
            text += String(format: " under way, %.1f m at the last snapshot", distance)
        } else {
            text += " not under way yet"
        }
        return text
    }

    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(instant(date))
        }
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let text = String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
        // Foundation writes UUIDs in capitals; PostgreSQL, psql and the other commands in lower case.
        return text.replacing(/[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}/) { $0.output.lowercased() }
    }
}

extension RaceText {
    /// A run as `race show --json` prints it: the relay's details and, on a course, the course (or
    /// why no wearable could follow it).
    static func json(_ details: RaceDesk.Details, course: Result<Course, RelayCourseProblem>?) -> String {
        struct Shown: Encodable {
            var run: RelayRun
            var entries: [RelayEntry]
            var events: [RelayEvent]
            var course: ShownCourse?
        }
        struct ShownCourse: Encodable {
            var name: String?
            var lengthM: Double?
            var points: Int?
            var turns: Int?
            var problem: String?
        }
        let shown: ShownCourse? =
            switch course {
            case .success(let course)?:
                ShownCourse(
                    name: course.name,
                    lengthM: (course.length * 10).rounded() / 10,
                    points: course.points.count,
                    turns: course.turns.count
                )
            case .failure(let problem)?: ShownCourse(problem: problem.description)
            case nil: nil
            }
        return json(Shown(run: details.run, entries: details.entries, events: details.events, course: shown))
    }
}

import ArgumentParser
import Course
import CourseFiles
import Foundation
import PhoneServer
import ProcessClock

/// `wearbridge-phone course add|list|send|remove`: courses read from GPX or FIT files, kept on the
/// phone simplified for the wearable, sent to it part by part (durable: the parts not answered go
/// when it next connects, for a week), and forgotten on both.
struct PhoneCourseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "course",
        abstract: "Courses to follow: add one from a GPX or FIT file, list them, send one to the wearable, remove one.",
        subcommands: [Add.self, List.self, Send.self, Remove.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read a course from a GPX (track or route) or FIT course file and keep it."
        )
        @OptionGroup var options: PhoneConfigOptions
        @Argument(help: "The GPX or FIT file.") var file: String
        @Option(help: "Its name (default: the file's own, else the file name).") var name: String?
        @Flag(help: "Replace a course kept under the same name.") var replace = false

        func run() async throws {
            let read: CourseFile
            let course: Course
            do {
                read = try CourseFile.read(path: file)
                let fallback = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
                course = try read.course(named: name, fallback: fallback)
            } catch {
                Output.error("wearbridge-phone: \(file): \(error)")
                throw ExitCode(65)
            }
            let kept = PhoneCourse(
                simplifying: course,
                filePoints: read.positions.count,
                source: (file as NSString).lastPathComponent,
                addedAt: WallClock.system.now()
            )
            let simple = kept.course
            let inbox = try options.inbox(readOnly: false)
            guard try await inbox.courses.add(kept, replacing: replace) else {
                Output.error(
                    "wearbridge-phone: a course named \"\(simple.name)\" is kept already (--replace replaces it)"
                )
                throw ExitCode(1)
            }
            Output.line("course \"\(simple.name)\" added: \(PhoneCourseCommand.summary(kept))")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The courses kept, one a line.")
        @OptionGroup var options: PhoneConfigOptions
        @Flag(help: "One JSON object per course.") var json = false

        func run() throws {
            let courses = try options.inbox().courses.all()
            if courses.isEmpty, !json { Output.line("no course kept yet (add one: wearbridge-phone course add FILE)") }
            for kept in courses {
                let course = kept.course
                if json {
                    Output.line(
                        Output.json([
                            "name": course.name, "id": kept.id, "length_m": (course.length * 10).rounded() / 10,
                            "points": course.points.count, "file_points": kept.filePoints,
                            "turns": course.turns.count, "bytes": kept.bytes.count, "source": kept.source,
                        ])
                    )
                } else {
                    Output.line("\(course.name): \(PhoneCourseCommand.summary(kept))")
                }
            }
        }
    }

    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a kept course to the wearable (resumable: parts not answered go when it connects)."
        )
        @OptionGroup var options: PhoneConfigOptions
        @Argument(help: "The course's name.") var name: String
        @Option(help: "The wearable's name (needed when more than one is configured).") var wearable: String?
        @Option(help: "How long to wait for the answers (s); the parts stay queued after it.") var timeout: Double = 60

        func run() async throws {
            let config = try options.load()
            let target = try PhoneSessionCommand.chosenWearable(wearable, config)
            let inbox = try options.inbox(readOnly: false)
            guard let kept = try inbox.courses.named(name) else {
                Output.error("wearbridge-phone: no course named \"\(name)\" (see wearbridge-phone course list)")
                throw ExitCode(64)
            }
            let ids = try await inbox.courses.send(kept, to: target, at: WallClock.system.now())
            let deadline = WallClock.system.now() + timeout
            while true {
                var acks: [String] = []
                for id in ids {
                    guard let (_, answer) = try inbox.commands.standing(id), let answer else { continue }
                    switch answer.outcome {
                    case .ack:
                        acks.append(answer.message)
                    case .fail(let refusal):
                        Output.line("FAIL \(refusal.rawValue) course \"\(name)\" part \(id): \(answer.message)")
                        throw ExitCode(1)
                    case .notAnswered:
                        Output.line("NOT ANSWERED course \"\(name)\": part \(id) was not answered in a week")
                        throw ExitCode(2)
                    }
                }
                if acks.count == ids.count {
                    // The part that completed it says what the wearable kept.
                    let kept = acks.first { $0.hasPrefix("course ") } ?? acks.last ?? ""
                    Output.line("SENT course \"\(name)\" to \(target) in \(ids.count) parts: \(kept)")
                    return
                }
                if WallClock.system.now() >= deadline {
                    Output.line(
                        "QUEUED course \"\(name)\": \(acks.count) of \(ids.count) parts answered; "
                            + "the rest go when \(target) connects (run this again to see)"
                    )
                    throw ExitCode(2)
                }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Forget a course on the phone and on the wearable (the wearable's when it next connects)."
        )
        @OptionGroup var options: PhoneConfigOptions
        @Argument(help: "The course's name.") var name: String
        @Option(help: "The wearable's name (needed when more than one is configured).") var wearable: String?
        @Flag(help: "Forget the phone's copy only; the wearable keeps its own.") var phoneOnly = false
        @Option(help: "How long to wait for the wearable's answer (s); the removal stays queued after it.")
        var timeout: Double = 30

        func run() async throws {
            guard let clean = CourseName.clean(name), clean == name else {
                Output.error("wearbridge-phone: \"\(name)\" is not a course's name (one line of at most 64 characters)")
                throw ExitCode(64)
            }
            let config = try options.load()
            let inbox = try options.inbox(readOnly: false)
            let removed = try await inbox.courses.remove(named: name)
            Output.line(removed ? "removed course \"\(name)\" from the phone" : "the phone keeps no course \"\(name)\"")
            if phoneOnly { return }
            let target = try PhoneSessionCommand.chosenWearable(wearable, config)
            let id = try await inbox.courses.queueRemoval(named: name, from: target, at: WallClock.system.now())
            let deadline = WallClock.system.now() + timeout
            guard let answer = try await PhoneSessionCommand.answer(to: id, in: inbox, until: deadline) else {
                Output.line("QUEUED remove course \"\(name)\": it goes when \(target) connects")
                throw ExitCode(2)
            }
            switch answer.outcome {
            case .ack:
                Output.line("ACK remove course \"\(name)\" on \(target): \(answer.message)")
            case .fail(let refusal):
                Output.line("FAIL \(refusal.rawValue) remove course \"\(name)\" on \(target): \(answer.message)")
                throw ExitCode(1)
            case .notAnswered:
                Output.line("NOT ANSWERED remove course \"\(name)\": \(target) did not answer in a week")
                throw ExitCode(2)
            }
        }
    }

    static func summary(_ kept: PhoneCourse) -> String {
        let course = kept.course
        return "\((course.length / 10).rounded() / 100) km, \(kept.filePoints) points in \(kept.source) "
            + "kept as \(course.points.count) (\(kept.bytes.count) bytes for the wearable), \(course.turns.count) turns"
    }
}

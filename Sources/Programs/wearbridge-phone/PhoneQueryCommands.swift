import ArgumentParser
import Foundation
import PhoneLinkWire
import PhoneServer
import ProcessClock

/// `wearbridge-phone status`: per wearable, the link, the session and the last snapshot.
struct PhoneStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Each wearable's link and live figures."
    )
    @OptionGroup var options: PhoneConfigOptions
    @Flag(help: "One JSON object per wearable.") var json = false

    func run() throws {
        let config = try options.load()
        let statuses = try options.inbox().link.status(now: WallClock.system.now(), staleAfter: config.staleAfter)
        if statuses.isEmpty, !json { Output.line("no wearable has connected yet") }
        for status in statuses {
            let snapshot = status.snapshot
            var object: [String: Any] = [
                "wearable": status.wearable, "link": status.link.rawValue, "messages": status.inboxCount,
                "mark": status.mark,
            ]
            if let age = status.lastSeenAge { object["last_seen_age_s"] = (age * 10).rounded() / 10 }
            if let snapshot {
                object["session"] = uuidText(snapshot.session) ?? NSNull()
                object["state"] = "\(snapshot.state)"
                object["distance_m"] = Double(snapshot.distanceDm) / 10
                object["elapsed_s"] = snapshot.elapsedS
                object["moving_s"] = snapshot.movingS
                object["heart_rate"] = snapshot.heartRate
                object["gps"] = "\(snapshot.gps)"
                object["snapshot_age_s"] = ((status.snapshotAge ?? 0) * 10).rounded() / 10
            }
            if json {
                Output.line(Output.json(object))
            } else {
                var line = "\(status.wearable): link \(status.link.rawValue), \(status.inboxCount) messages"
                if let snapshot {
                    line += "; \(snapshot.state) \(Double(snapshot.distanceDm) / 10) m in \(snapshot.elapsedS) s"
                    if snapshot.heartRate > 0 { line += ", \(snapshot.heartRate) bpm" }
                    line += String(format: " (%.1f s ago)", status.snapshotAge ?? 0)
                }
                Output.line(line)
            }
        }
    }
}

/// `wearbridge-phone inbox`: every message received, one JSON object per line.
struct PhoneInboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "inbox", abstract: "Every message received, in order.")
    @OptionGroup var options: PhoneConfigOptions
    @Option(help: "Only this wearable.") var wearable: String?
    @Flag(help: "JSON lines (the default output is also one line per message).") var json = false

    func run() throws {
        for entry in try options.inbox().link.entries(wearable: wearable) {
            let object: [String: Any] = [
                "wearable": entry.wearable, "epoch": entry.epoch, "seq": entry.seq,
                "class": entry.messageClass.rawValue,
                "kind": entry.kind.rawValue, "session": entry.session ?? NSNull(), "received_at": entry.receivedAt,
                "created_at_ms": entry.createdAtMs,
                "payload": (try? JSONSerialization.jsonObject(with: Data(entry.payloadJSON.utf8))) ?? [:],
            ]
            if json {
                Output.line(Output.json(object))
            } else {
                Output.line(
                    "\(entry.wearable) #\(entry.seq) \(entry.messageClass.rawValue) \(entry.kind.rawValue) \(entry.payloadJSON)"
                )
            }
        }
    }
}

/// `wearbridge-phone sessions`: the sessions the inbox has heard of.
struct PhoneSessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "Sessions heard of, newest first."
    )
    @OptionGroup var options: PhoneConfigOptions
    @Flag var json = false

    func run() throws {
        for session in try options.inbox().sessions.list() {
            let state = session.state?.rawValue ?? "unknown"
            if json {
                Output.line(
                    Output.json([
                        "wearable": session.wearable, "session": session.session, "state": state,
                        "messages": session.messages,
                        "started_at_ms": session.startedAtMs.map { $0 as Any } ?? NSNull(),
                    ])
                )
            } else {
                Output.line("\(session.session) \(session.wearable) \(state) (\(session.messages) messages)")
            }
        }
    }
}

/// `wearbridge-phone show SESSION`: a session's messages as received.
struct PhoneShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "A session's messages as received.")
    @OptionGroup var options: PhoneConfigOptions
    @Argument(help: "Session id or a unique prefix.") var session: String
    @Flag var json = false

    func run() throws {
        let inbox = try options.inbox()
        let matches = Set(try inbox.sessions.list().map(\.session).filter { $0.hasPrefix(session) })
        guard matches.count == 1, let id = matches.first else {
            Output.error(
                "wearbridge-phone: \(matches.isEmpty ? "no session" : "more than one session") matches \(session)"
            )
            throw ExitCode(1)
        }
        let backfill = try inbox.backfill.state(session: id)
        let counts = try inbox.backfill.counts(session: id)
        if json {
            Output.line(
                Output.json([
                    "session": id, "backfill": backfill?.state.rawValue ?? "none",
                    "backfill_through_seq": backfill?.throughSeq ?? 0,
                    "fixes": counts["fix"] ?? 0, "beats": counts["beat"] ?? 0, "events": counts["event"] ?? 0,
                    "commands": counts["command"] ?? 0,
                ])
            )
        } else {
            Output.line(
                "session \(id): backfill \(backfill?.state.rawValue ?? "none") (\(counts["fix"] ?? 0) fixes, "
                    + "\(counts["beat"] ?? 0) beats, \(counts["event"] ?? 0) events, \(counts["command"] ?? 0) commands)"
            )
        }
        for entry in try inbox.link.entries(session: id) {
            if json {
                Output.line(
                    Output.json([
                        "seq": entry.seq, "kind": entry.kind.rawValue, "class": entry.messageClass.rawValue,
                        "payload": (try? JSONSerialization.jsonObject(with: Data(entry.payloadJSON.utf8))) ?? [:],
                    ])
                )
            } else {
                Output.line("#\(entry.seq) \(entry.kind.rawValue) \(entry.payloadJSON)")
            }
        }
    }
}

import ArgumentParser
import Control
import ControlProtocol
import Foundation

/// `wearbridge ctl`: start, pause, resume and end sessions, and see the daemon's status.
struct ControlCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ctl",
        abstract: "Control the running daemon: start, pause, resume, end, status, calibrate or remove (a course).",
        discussion: """
            Every command but status carries an id (a new one each call unless --id is given); \
            the daemon answers a repeated id with its first answer and never applies it twice, so \
            a command whose reply was lost can be retried with the same --id.
            """
    )

    @Argument(help: "start, pause, resume, end, status, calibrate, or remove --course NAME (forget a kept course).")
    var command: ControlRequest.Command

    @Flag(help: "Print the daemon's reply as JSON.")
    var json = false

    @Option(help: "Control socket (default: [control] socket of the configuration).")
    var socket: String?

    @Option(help: "Command id, to retry a command safely.")
    var id: String?

    @Option(help: "For start: running, walking or cycling.")
    var activity: String?

    @Flag(
        inversion: .prefixedNo,
        help:
            "For start: an indoor session (distance from the footpod or treadmill, no GPS) or not; default: [session] indoor."
    )
    var indoor: Bool?

    @Option(
        help: "For calibrate: the distance run since `ctl calibrate` marked the footpod (m), e.g. 400 for a lap."
    )
    var metres: Double?

    @Option(name: .customLong("body-mass"), help: "For start: your body mass (kg), over [wearer] body_mass_kg.")
    var bodyMass: Double?

    @Option(help: "For start: the load you carry, a ruck or a vest (kg), over [wearer] load_kg.")
    var load: Double?

    @Option(
        help: "For start: a course the wearable keeps (sent by the phone), to follow; for remove: the course to forget."
    )
    var course: String?

    @Option(help: "Seconds to wait for the daemon's reply before giving up (exit 69).")
    var timeout: Double = 15

    @OptionGroup var configOptions: ConfigOptions

    func run() async throws {
        let path = try socket ?? configOptions.loadOrExit().controlSocket
        let request = ControlRequest(
            command: command,
            id: command == .status ? nil : (id ?? UUID().uuidString.lowercased()),
            activity: activity,
            indoor: indoor,
            metres: metres,
            bodyMass: bodyMass,
            load: load,
            course: course
        )
        let reply: ControlReply
        do {
            reply = try await ControlClient(path: path).send(request, timeout: .milliseconds(Int(timeout * 1000)))
        } catch {
            StandardError.line("wearbridge: \(error)")
            throw ExitCode(69)
        }
        StandardOutput.line(
            json ? String(decoding: ControlCodec.encode(reply).dropLast(), as: UTF8.self) : Self.text(reply)
        )
        if !reply.ok { throw ExitCode(1) }
    }

    static func text(_ reply: ControlReply) -> String {
        guard reply.ok else {
            let why = reply.error ?? reply.message ?? "unknown error"
            if let reason = reply.reason { return "failed (\(reason)): \(why)" }
            return "refused: \(why) (state \(reply.state ?? "?"))"
        }
        guard let status = reply.status else {
            return "\(reply.message ?? "ok"); state \(reply.state ?? "?")"
                + (reply.sessionID.map { ", session \($0)" } ?? "")
        }
        var lines = ["state     \(status.state)" + (status.sessionID.map { "  (session \($0))" } ?? "")]
        if let distance = status.distance {
            lines.append("activity  \(status.activity ?? "?")")
            let source = status.distanceSource.flatMap { $0 == "gps" ? nil : " (from the \($0))" } ?? ""
            lines.append("distance  \(TextFormat.format(distance / 1000, 2)) km\(source)")
            lines.append(
                "elapsed   \(TextFormat.clock(status.elapsed ?? 0))   moving \(TextFormat.clock(status.moving ?? 0))   paused \(TextFormat.clock(status.paused ?? 0))"
            )
            lines.append(
                "pace      avg \(TextFormat.pace(status.averagePace))   now \(TextFormat.pace(status.currentPace))"
            )
            lines.append("fixes     \(status.fixesAccepted ?? 0) accepted, \(status.fixesRejected ?? 0) rejected")
            if let steps = status.steps { lines.append("steps     \(steps)") }
            if let course = status.course {
                var text =
                    "\(course.name): \(TextFormat.format(course.toGo / 1000, 2)) km to go of "
                    + "\(TextFormat.format(course.length / 1000, 2)), \(course.state.replacingOccurrences(of: "_", with: " "))"
                if let away = course.away, away >= 10 { text += ", \(TextFormat.format(away, 0)) m off it" }
                if let eta = course.secondsToGo { text += ", \(TextFormat.clock(eta)) to go" }
                lines.append("course    \(text)")
            }
            if let elevation = status.elevation {
                var text =
                    "\(TextFormat.format(elevation.altitude, 0)) m, gain \(TextFormat.format(elevation.gain, 0)) m,"
                    + " loss \(TextFormat.format(elevation.loss, 0)) m"
                if let grade = elevation.grade { text += ", grade \(TextFormat.format(grade, 1)) %" }
                lines.append("elevation \(text) (\(elevation.source))")
            }
            if let energy = status.energy {
                if let kilocalories = energy.kilocalories, let kilojoules = energy.kilojoules {
                    var text = "\(TextFormat.format(kilocalories, 0)) kcal (\(TextFormat.format(kilojoules, 0)) kJ)"
                    if let body = energy.bodyMass {
                        text += ", \(TextFormat.format(body, 1)) kg"
                        if let load = energy.load, load > 0 { text += " + \(TextFormat.format(load, 1)) kg load" }
                    }
                    if let model = energy.model { text += " (\(model))" }
                    lines.append("energy    \(text)")
                } else if energy.unavailable == "no_body_mass" {
                    lines.append("energy    not estimated: no body mass ([wearer] body_mass_kg or start --body-mass)")
                } else {
                    lines.append("energy    not estimated for this activity")
                }
            }
        }
        let gps = status.gps
        var quality = gps.gpsdConnected ? "gpsd connected" : "gpsd not connected"
        if let mode = gps.mode { quality += ", mode \(mode == 3 ? "3D" : mode == 2 ? "2D" : "no fix")" }
        if let error = gps.horizontalError { quality += ", error \(TextFormat.format(error, 1)) m" }
        quality += gps.lastFixAge.map { ", last fix \(TextFormat.format($0, 1)) s ago" } ?? ", no fix yet"
        if gps.lost { quality += ", LOST" }
        if let noFix = gps.noFix { quality += " (\(noFix.sentence))" }
        lines.append("gps       \(quality)")
        if let hr = status.heartRate {
            var strap = hr.link + (hr.address.map { " \($0)" } ?? "")
            if let bpm = hr.bpm, hr.link == "streaming" { strap += ", \(bpm) bpm" }
            if let contact = hr.contact { strap += ", contact \(contact.replacingOccurrences(of: "_", with: " "))" }
            if let battery = hr.batteryPercent { strap += ", battery \(battery)%" }
            if let age = hr.lastBeatAge { strap += ", last beat \(TextFormat.format(age, 1)) s ago" }
            if let held = hr.heldBy { strap += " (\(held))" }
            lines.append("strap     \(strap)")
        }
        for sensor in status.speedSensors ?? [] {
            var text = sensor.link + (sensor.address.map { " \($0)" } ?? "")
            if sensor.link == "streaming" {
                if let speed = sensor.speed { text += ", \(TextFormat.format(speed, 2)) m/s" }
                if let cadence = sensor.cadence { text += ", cadence \(cadence)/min" }
            }
            if let battery = sensor.batteryPercent { text += ", battery \(battery)%" }
            if let age = sensor.lastSampleAge { text += ", last sample \(TextFormat.format(age, 1)) s ago" }
            if let held = sensor.heldBy { text += " (\(held))" }
            lines.append(sensor.kind.padding(toLength: 10, withPad: " ", startingAt: 0) + text)
        }
        if let barometer = status.barometer {
            var text = barometer.state + (barometer.name.map { " \($0)" } ?? "")
            if let pressure = barometer.pressure, barometer.state == "reading" {
                text += ", \(TextFormat.format(pressure, 3)) kPa"
            }
            if let age = barometer.lastReadingAge { text += ", last reading \(TextFormat.format(age, 1)) s ago" }
            if let reason = barometer.reason { text += " (\(reason))" }
            lines.append("barometer \(text)")
        }
        if let imu = status.imu {
            var text = imu.state + (imu.name.map { " \($0)" } ?? "") + " (\(imu.placement))"
            if imu.state == "reading" {
                if let rate = imu.measuredRate { text += ", \(TextFormat.format(rate, 0)) Hz" }
                if let trigger = imu.trigger { text += " by \(trigger)" }
                text += ", \(imu.steps) steps"
                if let cadence = imu.cadence { text += ", cadence \(TextFormat.format(cadence, 0))/min" }
                if imu.still { text += ", still" }
            }
            if let age = imu.lastSampleAge { text += ", last sample \(TextFormat.format(age, 1)) s ago" }
            if let reason = imu.reason { text += " (\(reason))" }
            lines.append("imu       \(text)")
        }
        if let storage = status.storage {
            var text = storage.state
            if let error = storage.error {
                text =
                    "FAILING for \(TextFormat.format(storage.failingFor ?? 0, 0)) s (\(storage.cause ?? "?")): \(error)"
            }
            let dropped = storage.dropped
            if dropped.fixes + dropped.beats + dropped.events > 0 {
                text += "; given up: \(dropped.fixes) fixes, \(dropped.beats) beats, \(dropped.events) events"
            }
            if storage.pendingRows > 0 { text += "; \(storage.pendingRows) rows held" }
            lines.append("storage   \(text)")
        }
        if let link = status.link {
            var text = "\(link.state), \(link.outboxDepth) messages not acknowledged"
            if let age = link.oldestCriticalAge { text += ", oldest critical \(Int(age.rounded())) s old" }
            lines.append("phone     \(text)")
        }
        if let race = status.race {
            var text = "with \(race.partner), \(race.phase)"
            if let startsIn = race.startsIn { text += ", starts in \(TextFormat.format(startsIn, 1)) s" }
            if race.phase != "armed" {
                text += "; partner \(race.partnerState), link \(race.partnerLink)"
                if let distance = race.partnerDistance { text += ", \(TextFormat.format(distance, 0)) m" }
                if let gap = race.gap { text += gap >= 0 ? ", you lead by " : ", behind by " }
                if let gap = race.gap { text += "\(TextFormat.format(abs(gap), 0)) m" }
                if race.gap != nil, let seconds = race.gapSeconds {
                    text += " (\(TextFormat.format(abs(seconds), 0)) s)"
                }
                if let age = race.age { text += ", \(TextFormat.format(age, 1)) s old" }
                if let course = race.course { text += " (along \(course))" }
            }
            lines.append("race      \(text)")
        }
        return lines.joined(separator: "\n")
    }
}

extension ControlRequest.Command: ExpressibleByArgument {}

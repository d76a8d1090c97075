import ControlProtocol
import Course
import Energy
import Engine
import SessionCore
import TrackCore

extension ControlRequest {
    /// A request as the engine takes it, or the refusal this edge gives at once.
    public enum Translation: Sendable {
        /// The engine's input, given the reply token.
        case ask(@Sendable (ReplyToken) -> EngineInput)
        /// Not the engine's to judge: no id, an unknown activity.
        case refuse(ControlReply)
    }

    /// The control socket's wire format ends here.
    public var translated: Translation {
        let command: SessionCommand
        switch self.command {
        case .status: return .ask { .status($0) }
        case .start: command = .start
        case .pause: command = .pause
        case .resume: command = .resume
        case .end: command = .end
        case .calibrate: command = .calibrate
        case .remove: command = .removeCourse
        }
        guard let id else {
            return .refuse(.failure("\(command.rawValue) needs an \"id\" so that a retry is not applied twice"))
        }
        var activity: Activity?
        if let name = self.activity {
            guard let parsed = Activity(rawValue: name) else {
                return .refuse(.failure(Activity.refusal(forUnknown: name), id: id))
            }
            activity = parsed
        }
        if let metres, !(metres.isFinite && metres > 0 && metres <= 100_000) {
            return .refuse(.failure("\"metres\" must be a distance run, more than 0 and at most 100 km", id: id))
        }
        let carriage: CarriageOverride
        switch CarriageOverride.checked(bodyMass: bodyMass, load: load) {
        case .success(let checked): carriage = checked
        case .failure(let error): return .refuse(.failure(error.message, id: id))
        }
        if command == .removeCourse, course == nil {
            return .refuse(.failure("remove needs \"course\": the name of the course to forget", id: id))
        }
        if let course, CourseName.clean(course) != course {
            return .refuse(
                .failure(
                    "\"course\" is a course's name: one line of at most \(CourseName.maximumLength) characters",
                    id: id
                )
            )
        }
        return .ask { [activity, indoor, metres, course] token in
            .command(
                CommandRequest(
                    command,
                    id: id,
                    activity: activity,
                    indoor: indoor,
                    metres: metres,
                    carriage: carriage,
                    token: token,
                    course: course
                )
            )
        }
    }
}

extension ControlReply {
    /// The engine's answer on the wire.
    public init(_ reply: EngineReply) {
        switch reply {
        case .command(let reply):
            self.init(
                ok: reply.accepted,
                id: reply.commandID,
                command: reply.command.rawValue,
                message: reply.message,
                state: reply.state.name,
                sessionID: reply.sessionID,
                error: reply.accepted ? nil : reply.message
            )
        case .failed(let failure):
            self.init(
                ok: false,
                id: failure.commandID,
                command: failure.command.rawValue,
                error: failure.message,
                reason: failure.reason.rawValue
            )
        case .status(let status):
            self.init(
                ok: true,
                command: "status",
                state: status.state.name,
                sessionID: status.figures?.sessionID,
                status: StatusReport(status)
            )
        }
    }
}

extension StatusReport {
    init(_ status: SessionStatus) {
        let figures = status.figures
        let gps = status.gps
        self.init(
            state: status.state.name,
            sessionID: figures?.sessionID,
            activity: figures?.activity.rawValue,
            distance: figures?.distance,
            elapsed: figures?.elapsed,
            moving: figures?.moving,
            paused: figures?.paused,
            averagePace: figures?.averagePace,
            currentPace: figures?.currentPace,
            fixesAccepted: figures?.fixesAccepted,
            fixesRejected: figures?.fixesRejected,
            distanceSource: figures?.distanceSource.rawValue,
            elevation: figures?.elevation.map {
                Elevation(
                    source: $0.source.rawValue,
                    altitude: $0.altitude,
                    gain: $0.gain,
                    loss: $0.loss,
                    grade: $0.grade.map { $0 * 100 }
                )
            },
            energy: figures.flatMap { figures in
                if let spent = figures.energy {
                    return Energy(
                        kilocalories: spent.kilocalories,
                        kilojoules: spent.kilojoules,
                        model: spent.model?.rawValue,
                        bodyMass: spent.carriage.bodyMass,
                        load: spent.carriage.load
                    )
                }
                return figures.energyUnavailable.map { Energy(unavailable: $0.rawValue) }
            },
            steps: figures?.steps,
            course: figures?.course.map {
                Course(
                    name: $0.name,
                    length: $0.length,
                    done: $0.done,
                    toGo: $0.toGo,
                    away: $0.away,
                    state: $0.state.name,
                    secondsToGo: $0.secondsToGo
                )
            },
            gps: GPS(
                gpsdConnected: gps.gpsdConnected,
                mode: gps.mode,
                horizontalError: gps.horizontalError,
                lastFixAge: gps.lastFixAge,
                lost: gps.lost,
                noFix: gps.noFix.map(NoFix.init)
            ),
            heartRate: status.heartRate.map(HeartRate.init),
            speedSensors: status.speedSensors.isEmpty ? nil : status.speedSensors.map(SpeedSensor.init),
            barometer: status.barometer.map {
                Barometer(
                    state: $0.state.rawValue,
                    name: $0.name,
                    device: $0.device,
                    pressure: $0.kilopascal,
                    lastReadingAge: $0.lastReadingAge,
                    readings: $0.readings,
                    unreadable: $0.unreadable,
                    reason: $0.reason
                )
            },
            imu: status.imu.map {
                IMU(
                    state: $0.state.rawValue,
                    placement: $0.placement.rawValue,
                    name: $0.name,
                    device: $0.device,
                    trigger: $0.trigger,
                    rate: $0.rate,
                    measuredRate: $0.measuredRate,
                    samples: $0.samples,
                    unreadable: $0.unreadable,
                    steps: $0.steps,
                    cadence: $0.cadence,
                    still: $0.still,
                    lastSampleAge: $0.lastSampleAge,
                    reason: $0.reason
                )
            },
            storage: Storage(status.storage),
            link: status.link.map {
                Link(state: $0.state.rawValue, outboxDepth: $0.outboxDepth, oldestCriticalAge: $0.oldestCriticalAge)
            },
            race: status.race.map {
                Race(
                    run: $0.run,
                    phase: $0.phase,
                    startsIn: $0.startsIn,
                    clock: $0.clock,
                    partner: $0.partner.partner,
                    partnerState: $0.partner.state.rawValue,
                    partnerLink: $0.partner.link.rawValue,
                    partnerDistance: $0.partner.distanceMetres,
                    gap: $0.partner.gapMetres,
                    gapSeconds: $0.partner.gapSeconds,
                    age: $0.partner.ageSeconds,
                    leader: $0.partner.leader,
                    course: $0.course
                )
            }
        )
    }
}

extension StatusReport.HeartRate {
    init(_ strap: SessionStatus.HeartRate) {
        self.init(
            link: strap.link.rawValue,
            heldBy: strap.heldBy,
            address: strap.address,
            bpm: strap.bpm,
            contact: strap.contact?.rawValue,
            batteryPercent: strap.batteryPercent,
            location: strap.location,
            lastBeatAge: strap.lastBeatAge,
            beats: strap.beats,
            malformed: strap.malformed
        )
    }
}

extension StatusReport.SpeedSensor {
    init(_ sensor: SessionStatus.SpeedSensor) {
        self.init(
            kind: sensor.kind,
            link: sensor.link.rawValue,
            heldBy: sensor.heldBy,
            address: sensor.address,
            speed: sensor.speed,
            cadence: sensor.cadence,
            totalDistance: sensor.totalDistance,
            batteryPercent: sensor.batteryPercent,
            lastSampleAge: sensor.lastSampleAge,
            samples: sensor.samples,
            malformed: sensor.malformed
        )
    }
}

extension StatusReport.Storage {
    init(_ storage: SessionStatus.Storage) {
        self.init(
            state: storage.failure == nil ? "ok" : "failing",
            error: storage.failure?.message,
            cause: storage.failure?.kind.rawValue,
            failingFor: storage.failingFor,
            pendingRows: storage.pendingRows,
            dropped: Dropped(
                fixes: storage.dropped.fixes,
                beats: storage.dropped.beats,
                events: storage.dropped.events
            )
        )
    }
}

extension StatusReport.NoFix {
    init(_ reason: NoFixReason) {
        switch reason {
        case .gpsdUnreachable(let error): self.init(reason: .gpsdUnreachable, detail: error)
        case .waitingForGPSD: self.init(reason: .waitingForGPSD)
        case .gpsdError(let message): self.init(reason: .gpsdError, detail: message)
        case .noReceiver: self.init(reason: .noReceiver)
        case .receiverSilent(let path): self.init(reason: .receiverSilent, detail: path)
        case .searching(let seen, let used):
            self.init(reason: .searching, satellitesSeen: seen, satellitesUsed: used)
        }
    }
}

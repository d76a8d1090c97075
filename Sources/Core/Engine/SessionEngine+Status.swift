import RaceCore
import SessionCore
import TrackCore

extension SessionEngine {
    /// The figures `status` shows at `now`.
    func status(_ now: Instant) -> SessionStatus {
        // One judge of GPS loss: the session's own (what its gps_lost events say) while fixes feed
        // it; the same rule on the last usable fix otherwise.
        let fed = controller.session != nil && !queue.isFailing
        let lost = fed ? controller.session?.track.isGPSLost ?? false : standbyWatch.isLost
        let gpsLost = !controller.gpsdConnected || lost
        let gps = SessionStatus.GPS(
            gpsdConnected: controller.gpsdConnected,
            mode: lastFix?.mode,
            horizontalError: lastFix?.gatingError,
            lastFixAge: lastPositionAt.map { now.monotonic - $0 },
            lost: gpsLost,
            noFix: lastPositionAt == nil || gpsLost ? gpsd.reason(now: now.monotonic) : nil
        )
        var storage = SessionStatus.Storage(
            failure: nil,
            failingFor: nil,
            pendingRows: queue.pendingRows,
            dropped: queue.dropped
        )
        if case .failing(let since, let failure, _) = queue.health {
            storage.failure = failure
            storage.failingFor = now.monotonic - since
        }
        var figures: SessionStatus.Figures?
        if let session = controller.session {
            let summary = session.track.summary
            let speed = session.track.currentSpeed ?? 0
            figures = SessionStatus.Figures(
                sessionID: session.id,
                activity: summary.activity,
                distance: summary.distance,
                elapsed: summary.elapsed,
                moving: summary.moving,
                paused: summary.paused,
                averagePace: summary.averagePace,
                currentPace: speed > 0.3 ? 1000 / speed : nil,
                fixesAccepted: summary.accepted,
                fixesRejected: summary.rejectedTotal,
                distanceSource: summary.distanceSource,
                elevation: summary.elevation,
                steps: summary.steps,
                energy: summary.energy,
                energyUnavailable: summary.energy != nil
                    ? nil : session.track.energy == nil ? .noBodyMass : .noModel,
                course: follower?.progress(averageSpeed: summary.moving > 0 ? summary.distance / summary.moving : nil)
            )
        }
        var link: SessionStatus.Link?
        if configuration.phoneLink {
            let report = phoneReport ?? PhoneLinkReport(state: .lost, outboxDepth: 0, oldestCriticalAt: nil)
            link = SessionStatus.Link(
                state: report.state,
                outboxDepth: report.outboxDepth,
                oldestCriticalAge: report.oldestCriticalAt.map { max(0, now.system - $0) }
            )
        }
        return SessionStatus(
            state: controller.lifecycle.state,
            figures: figures,
            gps: gps,
            heartRate: strap?.report(now: now.monotonic),
            speedSensors: speedSensors.map { $0.report(now: now.monotonic) },
            barometer: barometerStatus.map { status in
                var aged = status
                aged.lastReadingAge = status.lastReadingAt.map { now.monotonic - $0 }
                return aged
            },
            imu: imuStatus.map { status in
                var aged = status
                aged.lastSampleAge = status.lastSampleAt.map { now.monotonic - $0 }
                return aged
            },
            storage: storage,
            link: link,
            race: race.map { raceStatus($0, now) }
        )
    }
}

extension SessionEngine {
    func raceStatus(_ race: WearableRace, _ now: Instant) -> SessionStatus.Race {
        var phase = "armed"
        var startsIn: Double?
        switch race.phase {
        case .armed(let countdown):
            startsIn = max(0, countdown.start - now.monotonic)
        case .running:
            phase = "running"
        case .finished:
            phase = "finished"
        }
        return SessionStatus.Race(
            run: race.order.run,
            phase: phase,
            startsIn: startsIn,
            clock: raceClock.source?.rawValue,
            partner: race.tracker.status(now: now.monotonic),
            course: race.order.course
        )
    }
}

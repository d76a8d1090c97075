import TrackCore

/// A session fed `fixes` as the daemon and `replay` feed them: through the epoch merger, then the core.
public func replayed(
    _ fixes: [Fix],
    activity: Activity,
    profile: ActivityProfile? = nil,
    recordingSteps: Bool = false
) -> TrackSession {
    var session = TrackSession(activity: activity, profile: profile, recordingSteps: recordingSteps)
    var merger = EpochMerger()
    for fix in fixes { merger.add(fix) { _ = session.ingest($0) } }
    if let last = merger.flush() { _ = session.ingest(last) }
    return session
}

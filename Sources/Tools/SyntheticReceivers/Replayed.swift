import TrackCore

/// A session fed `fixes` as the daemon and `replay` feed them: through the epoch merger, then the core.
public func replayed(_ fixes: [Fix], activity: Activity, profile: ActivityProfile? = nil) -> TrackSession {
    var session = TrackSession(activity: activity, profile: profile)
    var merger = EpochMerger()
    for fix in fixes { merger.add(fix) { _ = session.ingest($0) } }
    if let last = merger.flush() { _ = session.ingest(last) }
    return session
}

import TrackCore

/// A session fed `fixes` as the daemon and `replay` feed them: through the epoch merger, then the core.
public func replayed(_ fixes: [Fix], activity: Activity, profile: ActivityProfile? = nil) -> TrackSession {
    replayed(fixes, activity: activity, profile: profile) { _, _, _ in }
}

/// The same, calling `each` after every merged fix the core took, with its outcome and the
/// session as it stands then.
public func replayed(
    _ fixes: [Fix],
    activity: Activity,
    profile: ActivityProfile? = nil,
    each: (Fix, FixOutcome, TrackSession) -> Void
) -> TrackSession {
    var session = TrackSession(activity: activity, profile: profile)
    var merger = EpochMerger()
    func ingest(_ fix: Fix) {
        let outcome = session.ingest(fix)
        each(fix, outcome, session)
    }
    for fix in fixes { merger.add(fix) { ingest($0) } }
    if let last = merger.flush() { ingest(last) }
    return session
}

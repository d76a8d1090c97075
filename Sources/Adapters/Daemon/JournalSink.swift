import Logging
import SessionCore
import Store

/// Every session event in the journal, named as the data log names it: what a field tester
/// reads with `journalctl -u wearbridge`.
struct JournalSink: SessionSink {
    let name = "journal"
    let capacity = 256
    let logger: Logger

    func consume(_ news: SessionNews) async {
        guard case .announcement(let announcement) = news else { return }
        // The strap's and the footpod's links log malformed payloads themselves, the first few and
        // then a sample: a sensor sending garbage must not flood the journal.
        if case .malformedBeat = announcement.event { return }
        if case .speedSensor(.malformed) = announcement.event { return }
        var metadata: Logger.Metadata = ["event": "\(announcement.event.storedKind)"]
        if let session = announcement.sessionID { metadata["session"] = "\(session)" }
        for (key, value) in announcement.event.storedDetailText { metadata[key] = "\(value)" }
        logger.info("session event", metadata: metadata)
    }
}

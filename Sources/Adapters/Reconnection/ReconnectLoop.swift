import Logging

/// Connection attempts forever, with capped backoff between them: the loop the gpsd and strap
/// links share, so that both give up never and log alike.
///
/// An attempt that failed is logged the first time and then every 20th (forever, but quietly); an
/// attempt that delivered and then ended resets the backoff and is always logged. Waiting is
/// `Task.sleep`: cancelling the task ends the loop at once.
public struct ReconnectLoop: Sendable {
    /// How one attempt ended.
    public struct Outcome: Sendable {
        /// It delivered data (a report, a beat): the peer was good, so the backoff starts again.
        public var delivered: Bool
        public var reason: String
        /// What the attempt has to add to the log line (counts, timings).
        public var metadata: Logger.Metadata

        public init(delivered: Bool, reason: String, metadata: Logger.Metadata = [:]) {
            self.delivered = delivered
            self.reason = reason
            self.metadata = metadata
        }
    }

    /// The log line's text for a failed attempt and for a good connection that ended.
    public struct Messages: Sendable {
        public var failed: Logger.Message
        public var ended: Logger.Message

        public init(failed: Logger.Message, ended: Logger.Message) {
            self.failed = failed
            self.ended = ended
        }
    }

    public let messages: Messages
    /// Who is being reached, as log metadata (`"gpsd": "127.0.0.1:2947"`).
    public let peer: Logger.Metadata
    public let backoff: ReconnectBackoff
    private let logger: Logger

    public init(messages: Messages, peer: Logger.Metadata, backoff: ReconnectBackoff, logger: Logger) {
        self.messages = messages
        self.peer = peer
        self.backoff = backoff
        self.logger = logger
    }

    /// Runs `attempt` again and again until the task is cancelled.
    public func run(_ attempt: () async -> Outcome) async {
        var backoff = self.backoff
        while !Task.isCancelled {
            let outcome = await attempt()
            if Task.isCancelled { return }
            if outcome.delivered { backoff.reset() }
            let delay = backoff.nextDelay()
            var metadata = peer.merging(outcome.metadata) { $1 }
            metadata["error"] = "\(outcome.reason)"
            metadata["retry_s"] = "\(delay)"
            if outcome.delivered {
                logger.warning(messages.ended, metadata: metadata)
            } else if backoff.shouldReport {
                metadata["attempt"] = "\(backoff.failures)"
                logger.warning(messages.failed, metadata: metadata)
            } else {
                metadata["attempt"] = "\(backoff.failures)"
                logger.debug("reconnect attempt failed, retrying", metadata: metadata)
            }
            do {
                try await Task.sleep(for: .milliseconds(Int(delay * 1000)))
            } catch {
                return
            }
        }
    }
}

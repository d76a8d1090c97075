import Foundation

/// A runner's message as the relay stores it (`relay.messages`): keyed by run, runner and seq.
public struct RelayMessage: Sendable, Equatable, Codable {
    public enum Class: String, Sendable, Codable {
        case critical, snapshot, notice
    }

    /// The kinds a phone writes. The relay's contract takes any kind, so a partner's message is read
    /// with its kind as text; these are the ones this program sends and acts on.
    public enum Kind: String, Sendable, CaseIterable {
        case started, snapshot, paused, resumed, split, finished
    }

    public var runID: UUID
    public var runner: String
    public var seq: Int64
    public var messageClass: Class
    public var kind: String
    public var distanceMetres: Double?
    public var elapsedSeconds: Double?
    public var movingSeconds: Double?
    public var paused: Bool
    /// Details as JSON text.
    public var body: String
    /// Stamped by the relay's clock.
    public var receivedAt: Date?
    /// A race on a course: the runner's distance along it (m).
    public var courseMetres: Double?

    public init(
        runID: UUID,
        runner: String,
        seq: Int64,
        messageClass: Class,
        kind: String,
        distanceMetres: Double?,
        elapsedSeconds: Double?,
        movingSeconds: Double?,
        paused: Bool,
        body: String,
        receivedAt: Date? = nil,
        courseMetres: Double? = nil
    ) {
        self.runID = runID
        self.runner = runner
        self.seq = seq
        self.messageClass = messageClass
        self.kind = kind
        self.distanceMetres = distanceMetres
        self.elapsedSeconds = elapsedSeconds
        self.movingSeconds = movingSeconds
        self.paused = paused
        self.body = body
        self.receivedAt = receivedAt
        self.courseMetres = courseMetres
    }
}

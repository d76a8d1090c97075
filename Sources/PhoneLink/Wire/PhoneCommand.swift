import PhoneLinkContract
import SessionCore
import TrackCore

/// A command from the phone, typed: the one place a command on the wire is read and checked
/// (id, kind, activity, validity), so the wearable's edges hand the engine only what it can apply.
public struct PhoneCommand: Sendable, Equatable {
    /// Ids are UUIDs; anything longer than this is not one and would bloat the ledger.
    public static let maxIDBytes = 128
    /// A command whose `valid_for_ms` is 0 is valid this long (s), as the contract says.
    public static let defaultValidity = 60.0

    public var id: String
    public var kind: SessionCommand
    public var activity: Activity?
    /// Seconds of validity left when it arrived (negative: expired on the way); nil: no limit.
    public var validityLeft: Double?

    public init(id: String, kind: SessionCommand, activity: Activity? = nil, validityLeft: Double? = nil) {
        self.id = id
        self.kind = kind
        self.activity = activity
        self.validityLeft = validityLeft
    }

    /// Reads a command off the wire, or says why it cannot be read (the phone gets FAIL INVALID).
    public init(wire command: Wearbridge_Link_V1_Command) throws(UnreadableCommand) {
        guard !command.commandID.isEmpty, command.commandID.utf8.count <= Self.maxIDBytes else {
            throw UnreadableCommand("a command needs an id (a UUID) of at most \(Self.maxIDBytes) bytes")
        }
        guard let kind = SessionCommand(wire: command.kind) else { throw UnreadableCommand("unknown command") }
        var activity: Activity?
        if !command.activity.isEmpty {
            guard let known = Activity(rawValue: command.activity) else {
                throw UnreadableCommand(Activity.refusal(forUnknown: command.activity))
            }
            activity = known
        }
        let validFor = command.validForMs == 0 ? Self.defaultValidity : Double(command.validForMs) / 1000
        self.init(
            id: command.commandID,
            kind: kind,
            activity: activity,
            validityLeft: validFor - Double(command.ageMs) / 1000
        )
    }
}

/// Why a command from the phone could not be read: answered FAIL INVALID at once, never applied.
public struct UnreadableCommand: Error, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

extension Wearbridge_Link_V1_Command {
    /// The phone's command as it goes out at `now` (seconds on the clock it was issued by): its age
    /// since issue and its validity travel with it, so the wearable needs no common clock.
    public init(
        id: String,
        kind: SessionCommand,
        activity: Activity?,
        issuedAt: Double,
        validFor: Double,
        now: Double
    ) {
        self.init()
        commandID = id
        self.kind = kind.wire
        self.activity = activity?.rawValue ?? ""
        issuedAtMs = Int64((issuedAt * 1000).rounded())
        ageMs = UInt64(max(0, (now - issuedAt) * 1000).rounded())
        validForMs = UInt64((validFor * 1000).rounded())
    }
}

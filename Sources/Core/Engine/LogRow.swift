import PhoneLinkMessages
import SessionCore

/// One row of a write batch: a session's own row, or a message for the phone's outbox written in
/// the same transaction as the rows it reports (so no message exists without its cause).
public enum LogRow: Sendable, Equatable {
    case session(SessionRow)
    /// `createdAt` is the wall clock (display only).
    case outbox(LinkMessage, createdAt: Double)

    /// What is given up first when storage is short (`SessionRow.Retention`): a snapshot goes with
    /// the raw fixes, a notice with the notices; critical messages never.
    public var retention: SessionRow.Retention {
        switch self {
        case .session(let row): row.retention
        case .outbox(let message, _):
            switch message.messageClass {
            case .critical: .critical
            case .notice: .notice
            case .snapshot: .fix
            }
        }
    }

    /// Written at once, not with the next batch: lifecycle rows, commands and the phone's replies.
    public var isUrgent: Bool {
        switch self {
        case .session(let row): row.isUrgent
        case .outbox(.commandReply, _): true
        case .outbox: false
        }
    }

    /// The command this row answers, if it is one.
    public var commandID: String? {
        if case .session(let row) = self { row.commandID } else { nil }
    }
}

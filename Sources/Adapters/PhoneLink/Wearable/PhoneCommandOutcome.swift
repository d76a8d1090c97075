/// What the engine's edge tells the link about a command: the durable reply travels through the
/// outbox, so only a transient refusal (storage failing, shutting down) comes back here.
public enum PhoneCommandOutcome: Sendable, Equatable {
    case queued
    case busy(String)
}

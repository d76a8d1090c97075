/// Why the data log cannot be used; each names the file and what is wrong with it.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    /// The storage directory is missing, not a directory, or not writable.
    case directory(path: String, reason: String)
    /// SQLite could not read the file as a database.
    case corrupt(path: String, reason: String)
    /// A real SQLite database, but another program's.
    case foreign(path: String, reason: String)
    /// Written by a newer wearbridge: its migrations are unknown here.
    case newerSchema(path: String, migration: String)
    case noSuchSession(String)
    case ambiguousSession(String, matches: [String])

    public var description: String {
        switch self {
        case .directory(let path, let reason):
            "storage directory \(path) is not usable: \(reason)"
        case .corrupt(let path, let reason):
            "\(path) is not a readable wearbridge database (corrupt or not SQLite): \(reason)"
        case .foreign(let path, let reason):
            "\(path) belongs to another program, not wearbridge: \(reason); move it away or set [storage] directory"
        case .newerSchema(let path, let migration):
            "\(path) was written by a newer wearbridge (unknown migration \(migration)); upgrade wearbridge"
        case .noSuchSession(let prefix):
            "no session matches \(prefix)"
        case .ambiguousSession(let prefix, let matches):
            "\(prefix) matches several sessions: \(matches.joined(separator: ", "))"
        }
    }
}

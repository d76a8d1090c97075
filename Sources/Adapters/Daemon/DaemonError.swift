import Config
import Control
import Identity
import Store
import TOMLConfig

/// A start-up failure and the exit status it maps to (sysexits.h), so that systemd's
/// `RestartPreventExitStatus=` can stop a restart loop on a configuration error.
public struct DaemonError: Error, CustomStringConvertible {
    public var description: String
    public var exitCode: Int32

    public init(_ error: any Error) {
        description = "\(error)"
        switch error {
        case is ConfigError: exitCode = 78  // EX_CONFIG
        case StoreError.corrupt, StoreError.foreign, StoreError.newerSchema: exitCode = 65  // EX_DATAERR
        case is StoreError: exitCode = 73  // EX_CANTCREAT
        case ControlSocketError.unknownGroup: exitCode = 78
        case is ControlSocketError: exitCode = 73
        case IdentityError.unreadable, IdentityError.mismatch: exitCode = 78
        case is IdentityError: exitCode = 73
        default: exitCode = 70  // EX_SOFTWARE
        }
    }
}

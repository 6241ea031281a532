/// What ends a command early. The library throws its own errors; this type adds the two kinds the
/// command line knows: usage mistakes (exit status 2) and everything else (exit status 1).
public enum CLIError: Error, Sendable, CustomStringConvertible {
    /// The command line itself is wrong: unknown option, missing value, wrong number of files.
    case usage(String)
    /// The command could not do its work.
    case failure(String)
    /// SIGINT or SIGTERM stopped the work (exit status 128 + the signal's number).
    case interrupted(String, signal: Int32)

    /// The message, without the `blurkit: ` the runner puts before it.
    public var description: String {
        switch self {
        case let .usage(text), let .failure(text), let .interrupted(text, _): return text
        }
    }

    /// 2 for a usage error, 1 for a failure, 128 + the signal's number when interrupted.
    public var exitStatus: Int32 {
        switch self {
        case .usage: return 2
        case .failure: return 1
        case let .interrupted(_, signal): return 128 + signal
        }
    }
}

import ArgumentParser

/// Exit statuses shared by every command (sysexits.h values where one fits). Documented in each
/// command's page of docs/ and in docs/errors.md; which a command can end with is its
/// `CommandExits`.
enum ExitStatus: Int32, CaseIterable, Sendable {
    case success = 0
    /// Some rows failed or findings reached the threshold; the rest of the work was done.
    case partialFailure = 1
    case usage = 64
    /// The input cannot be read as CSV or lacks a required column.
    case dataError = 65
    /// The input file does not exist or cannot be opened.
    case noInput = 66
    /// Another run holds the store's resync lock.
    case lockHeld = 73
    /// EX_CANTCREAT: an output file cannot be created where asked (sheets: a symlink, no folder).
    static var cannotCreate: ExitStatus { .lockHeld }
    /// The store or the output folder cannot be opened or written.
    case ioError = 74
    /// The remote was unavailable or throttled: its part was not done; the local part was.
    case remoteUnavailable = 75
    /// The remote refused the configuration (key, clock, container) or it is unusable.
    case remoteConfiguration = 78
    /// Ctrl-C (128 + SIGINT, as a shell reports it): the run said where it stopped and how to go
    /// on.
    case interrupted = 130

    var exitCode: ExitCode { ExitCode(rawValue) }
}

import Foundation
import Synchronization

/// What `--json` prints on stdout when a run stops on an error: `{"error": {...}}`, so that a
/// script always reads exactly one JSON document, whether the command succeeded or not. The
/// "Errors as JSON" section of docs/errors.md documents the keys and every `kind`.
struct ErrorDocument: Encodable {
    let error: ErrorDetail

    init(_ error: any Error, status: ExitStatus) {
        var detail = ErrorDetail.of(error)
        detail.exitStatus = status.rawValue
        detail.status = status.name(for: detail.kind)
        detail.message = error.localizedDescription
        // Each of several problems would end the run the same way on its own.
        detail.problems = detail.problems?.map { problem in
            problem.with {
                $0.exitStatus = status.rawValue; $0.status = status.name(for: $0.kind)
            }
        }
        self.error = detail
    }
}

/// One error as data: a stable `kind` (from the error's type and case, never from its wording)
/// and the typed values a script can act on. Only what is safe to print: never a family code or
/// a key; an unset field is left out of the document.
struct ErrorDetail: Encodable, Equatable {
    var exitStatus: Int32 = 0
    var status = ""
    var kind: ErrorKind
    var message = ""
    /// The kind of the error behind this one, when this one says what it stopped (a repair not
    /// applied because of `file.failed`).
    var cause: ErrorKind?
    var path: String?
    /// What stands at `path` instead of a plain file: symbolicLink, folder or special.
    var fileType: String?
    var line: Int?
    var column: String?
    var recordType: String?
    var field: String?
    var recordId: String?
    var recordIds: [String]?
    var setting: String?
    /// The command-line option a usage error names (`--code-length`).
    var option: String?
    var placeholders: [String]?
    var operation: String?
    var category: String?
    var serverErrorCode: String?
    var httpStatus: Int?
    var attempts: Int?
    var retryAfterSeconds: Double?
    var pid: Int32?
    var mode: String?
    var bytes: Int?
    /// The fields an error is about (the text blocks `sheets` could not fit).
    var fields: [String]?
    /// How many things an error is about, when `recordIds` lists only the first.
    var count: Int?
    /// The character's place on `line` (1-based): a template's brace or placeholder.
    var columnNumber: Int?
    /// Every problem, when an error is several at once (a template's): each a detail of its own.
    var problems: [ErrorDetail]?
    /// Not printed: the file the error is about does not exist (66 rather than 65 for a logo).
    var missingFile = false

    init(kind: ErrorKind) { self.kind = kind }

    /// Every field but `missingFile`, which only decides the status.
    enum CodingKeys: String, CodingKey {
        case exitStatus, status, kind, message, cause, path, fileType, line, column, recordType,
            field, recordId, recordIds
        case setting, option, placeholders, operation, category, serverErrorCode, httpStatus,
            attempts, retryAfterSeconds
        case pid, mode, bytes, fields, count, columnNumber, problems
    }

    /// An error no mapping knows is reported, with its message, rather than dropped.
    static func of(_ error: any Error) -> ErrorDetail {
        (error as? DocumentedError)?.errorDetail ?? ErrorDetail(kind: .unexpected)
    }

    /// The same detail with more fields set: keeps the mappings one expression each.
    func with(_ change: (inout ErrorDetail) -> Void) -> ErrorDetail {
        var copy = self
        change(&copy)
        return copy
    }
}

/// An error the error document can describe.
protocol DocumentedError: Error {
    var errorDetail: ErrorDetail { get }
}

/// Whether this run has put its one document on stdout yet: a report emitted before a failing
/// exit (resync, audit or migrate ending 1 or 75) is the document, so no error document follows.
final class StandardOutputDocument: Sendable {
    private let written = Mutex(false)

    /// True once, for the first document of the run.
    func claim() -> Bool {
        written.withLock { written in
            defer { written = true }
            return !written
        }
    }
}

extension ExitStatus {
    /// The documented name of the status in the error document. 73 is two things by command:
    /// another run holding the lock (resync), a file that cannot be created (sheets).
    func name(for kind: ErrorKind) -> String {
        switch self {
        case .success: return "success"
        case .partialFailure: return "partialFailure"
        case .usage: return "usage"
        case .dataError: return "dataError"
        case .noInput: return "noInput"
        case .lockHeld: return kind == .lockHeld ? "lockHeld" : "cannotCreate"
        case .ioError: return "ioError"
        case .remoteUnavailable: return "remoteUnavailable"
        case .remoteConfiguration: return "remoteConfiguration"
        case .interrupted: return "interrupted"
        }
    }
}

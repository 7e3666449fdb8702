import Foundation

/// The server error codes of Apple's table, with the HTTP status each is sent with.
public enum ServerErrorCode: String, Sendable, Codable {
    case accessDenied = "ACCESS_DENIED"
    case atomicError = "ATOMIC_ERROR"
    case authenticationFailed = "AUTHENTICATION_FAILED"
    case authenticationRequired = "AUTHENTICATION_REQUIRED"
    case badRequest = "BAD_REQUEST"
    case conflict = "CONFLICT"
    case exists = "EXISTS"
    case internalError = "INTERNAL_ERROR"
    case notFound = "NOT_FOUND"
    case quotaExceeded = "QUOTA_EXCEEDED"
    case throttled = "THROTTLED"
    case tryAgainLater = "TRY_AGAIN_LATER"
    case validatingReferenceError = "VALIDATING_REFERENCE_ERROR"
    case zoneNotFound = "ZONE_NOT_FOUND"

    var httpStatus: Int {
        switch self {
        case .accessDenied: return 403
        case .atomicError, .badRequest: return 400
        case .authenticationFailed: return 401
        case .authenticationRequired: return 421
        case .conflict, .exists: return 409
        case .internalError: return 500
        case .notFound, .zoneNotFound: return 404
        case .quotaExceeded: return 413
        case .throttled: return 429
        case .tryAgainLater: return 503
        case .validatingReferenceError: return 412
        }
    }
}

/// The error dictionary of a failed request: `uuid` always, as Apple's servers send it.
struct ErrorBody: Encodable {
    var uuid: String
    var serverErrorCode: ServerErrorCode
    var reason: String
    var retryAfter: Double?
}

/// One failed entry of a records array: the other entries still stand.
struct RecordErrorBody: Codable, Equatable {
    var recordName: String
    var reason: String
    var serverErrorCode: ServerErrorCode
    var retryAfter: Double?
    var uuid: String
}

/// One entry of a `records` array in a response.
enum RecordEntry: Encodable, Equatable, Sendable {
    case record(WireRecord)
    case error(RecordErrorBody)

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .record(let record): try record.encode(to: encoder)
        case .error(let error): try error.encode(to: encoder)
        }
    }

    var isError: Bool { if case .error = self { return true } else { return false } }
}

struct QueryResponseBody: Encodable, Sendable {
    var records: [WireRecord]
    var continuationMarker: String?
}

struct RecordsResponseBody: Encodable, Sendable {
    var records: [RecordEntry]
}

/// users/caller, in the shape of Apple's reference: the identity inside `users`.
struct CallerResponseBody: Encodable {
    struct User: Encodable { var userRecordName: String }
    var users: [User]
}

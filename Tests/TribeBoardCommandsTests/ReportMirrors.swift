import Foundation
@testable import TribeBoardCommands
import TribeBoardReportMirrors
import TribeBoardTestSupport

// What a script reads from `--json`, decoded by types of the tests' own (not the toolkit's, so a
// renamed or dropped key fails here): the error document of docs/errors.md and the report fields
// the tests check. A field a mirror declares non-optional must be present.

/// `{"error": {...}}`.
struct ErrorDocumentMirror: Decodable {
    let error: ErrorFieldsMirror
}

/// The fields of docs/errors.md, "Errors as JSON".
struct ErrorFieldsMirror: Decodable {
    let exitStatus: Int
    let status: String
    let kind: String
    let message: String
    var cause: String?
    var path: String?
    var fileType: String?
    var line: Int?
    var column: String?
    var recordType: String?
    var field: String?
    var recordId: String?
    var recordIds: [String]?
    var setting: String?
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
    var fields: [String]?
    var count: Int?
}

/// The keys of the error document and of its `error` object.
struct ErrorDocumentKeys: Decodable {
    let error: JSONKeys
}

// JSONKeys, ProvisionReportMirror and ResyncReportMirror are TribeBoardReportMirrors' (the
// end-to-end tests decode the same reports).

enum Decoded {
    static func decode<Value: Decodable>(_ type: Value.Type, from value: some Encodable) throws -> Value {
        try JSONDecoder().decode(type, from: try JSONEncoder().encode(value))
    }

    /// The document exactly as `CommandContext.emit` writes it, decoded.
    static func decode<Value: Decodable>(_ type: Value.Type, fromText text: String) throws -> Value {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }
}

import Foundation
import Testing
import TribeBoardTestSupport

/// The `{"error": …}` document a command prints on stdout with --json when it stops on an error
/// (docs/errors.md, "Errors as JSON"), decoded independently of the toolkit's own types.
struct ErrorDocument: Decodable {
    let exitStatus: Int32
    let status: String
    let kind: String
    let message: String
    let path: String?
    let fileType: String?
    let line: Int?
    let column: String?
    let recordType: String?
    let field: String?
    let recordId: String?
    let recordIds: [String]?
    let setting: String?
    let option: String?
    let cause: String?
    let placeholders: [String]?
    let operation: String?
    let category: String?
    let serverErrorCode: String?
    let httpStatus: Int?
    let attempts: Int?
    let pid: Int32?
    let mode: String?
    let bytes: Int?
    let fields: [String]?
    let count: Int?
    let columnNumber: Int?
    let problems: [ErrorDocument]?

    private struct Document: Decodable {
        let error: ErrorDocument
    }

    /// stdout as exactly one error document (trailing text would not decode), whose exit status
    /// is the one the process ended with.
    init(_ result: ProcessRunner.Result, sourceLocation: SourceLocation = #_sourceLocation) throws {
        do {
            self = try JSONDecoder().decode(Document.self, from: Data(result.stdout.utf8)).error
        } catch {
            Issue.record("stdout is not one error document (\(error)):\n\(result.stdout)\nstderr: \(result.stderr)", sourceLocation: sourceLocation)
            throw error
        }
        #expect(exitStatus == result.status, "the document's exitStatus is the process's", sourceLocation: sourceLocation)
        #expect(!message.isEmpty && result.stderr.contains(message), "the message is the one on stderr: \(result.stderr)",
                sourceLocation: sourceLocation)
    }
}

import Foundation
import Testing
import TribeBoardTestSupport
@testable import TribeBoardCloudKit

/// How the client classes whole-request answers (issues 23 and 27): what passes by waiting is
/// transient and retried; what no retry changes is configuration (78), read once, with the type
/// and field named when CloudKit's text names them. Also the bound on an answer's size.
@Suite("CloudKit client: answer classes and bounds")
struct CloudKitAnswerClassTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let status: Int
        let code: String
        let reason: String
        let category: CloudKitError.Category
        let expected: CloudKitError?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "undocumented code on a 503", status: 503, code: "SERVICE_UNAVAILABLE", reason: "backend busy", category: .transient, expected: nil),
        Case(name: "undocumented code on a 500", status: 500, code: "UNKNOWN_ERROR", reason: "oops", category: .transient, expected: nil),
        Case(name: "whole-request BAD_REQUEST", status: 400, code: "BAD_REQUEST", reason: "Unknown field 'x' in request", category: .configuration,
             expected: nil),
        Case(name: "QUOTA_EXCEEDED", status: 413, code: "QUOTA_EXCEEDED", reason: "quota exceeded", category: .configuration, expected: nil),
        Case(name: "a type without indexes", status: 400, code: "BAD_REQUEST", reason: "Type is not marked indexable: Family",
             category: .configuration, expected: .schema(.notIndexable(recordType: "Family"), reason: "Type is not marked indexable: Family")),
        Case(name: "a field the type lacks", status: 400, code: "BAD_REQUEST", reason: "Did not find field: 'code' in type: 'Family'",
             category: .configuration,
             expected: .schema(.missingField(field: "code", recordType: "Family"), reason: "Did not find field: 'code' in type: 'Family'")),
    ]

    static func client(_ baseURL: String, maxResponseBytes: Int = CloudKitClient.maxResponseBytes) -> CloudKitClient {
        var configuration = CloudKitConfiguration()
        configuration.baseURL = baseURL
        return CloudKitClient(configuration: configuration, signer: nil,
                              policy: RetryPolicy(maxAttempts: 3, baseDelay: 0.001, maxDelay: 0.01, maxTotalSeconds: 120),
                              maxResponseBytes: maxResponseBytes, logger: TestLogger.quiet)
    }

    @Test(arguments: cases)
    func aWholeRequestAnswerIsClassedByWhetherWaitingHelps(_ answer: Case) async throws {
        let body = #"{"uuid":"1","serverErrorCode":"\#(answer.code)","reason":"\#(answer.reason)"}"#
        let server = try RawHTTPServer { _, _ in .init(status: answer.status, body: body) }
        defer { server.stop() }
        let error = await #expect(throws: CloudKitError.self) {
            try await Self.client(server.baseURL).query(CloudKitQuery(recordType: "Family", filterBy: [.equals("code", "ABC123")]))
        }
        #expect(error?.category == answer.category, "\(String(describing: error))")
        // Transient answers are retried until the attempts run out; the others are asked once.
        #expect(server.requests.count == (answer.category == .transient ? 3 : 1), "\(server.requests)")
        if let expected = answer.expected {
            #expect(error == expected)
            #expect(error?.localizedDescription.contains("Schema > ") == true, "the fix is named: \(error?.localizedDescription ?? "")")
        }
    }

    /// A 200 whose body never ends (here: 8 MiB, no length, against a 1 MiB bound) is cut at the
    /// bound and said so, not read into memory whole; it is not asked again.
    @Test(arguments: [false, true])
    func anAnswerLongerThanTheBoundIsRefused(declaresLength: Bool) async throws {
        let big = #"{"records":[""# + String(repeating: "x", count: 8 << 20) + #""]}"#
        let server = try RawHTTPServer { _, _ in
            var answer = RawHTTPServer.Answer(status: 200, body: big)
            if !declaresLength { answer.head = answer.head.replacingOccurrences(of: "Content-Length: \(big.utf8.count)\r\n", with: "") }
            return answer
        }
        defer { server.stop() }
        let error = await #expect(throws: CloudKitError.self) {
            try await Self.client(server.baseURL, maxResponseBytes: 1 << 20).query(CloudKitQuery(recordType: "Family"))
        }
        #expect(error == .responseTooLarge(limit: 1 << 20), "\(String(describing: error))")
        #expect(error?.category == .configuration && error?.kind == "cloudkit.responseTooLarge")
        #expect(server.requests.count == 1)
    }

    /// A base URL given with a trailing slash reaches the same paths (the signed subpath).
    @Test func aTrailingSlashInTheBaseURLIsDropped() async throws {
        let server = try RawHTTPServer { _, _ in .init(status: 200, body: #"{"users":[{"userRecordName":"_c0ffee"}]}"#) }
        defer { server.stop() }
        _ = try await Self.client(server.baseURL + "/").caller()
        #expect(server.requests.first?.hasPrefix("/database/1/") == true, "\(server.requests)")
    }

    /// records/modify requests stay under 2 MB as well as 200 operations.
    @Test func largeOperationsGoInSeveralRequests() {
        let big = (0..<10).map { index in
            CloudKitOperation(.create, CloudKitRecord(recordName: "R\(index)", recordType: "Family",
                                                      fields: ["name": .string(String(repeating: "n", count: 500_000))]))
        }
        let chunks = CloudKitClient.requests(of: big)
        #expect(chunks.map(\.count) == [3, 3, 3, 1], "\(chunks.map(\.count))")
        let small = (0..<450).map { CloudKitOperation(.create, CloudKitRecord(recordName: "R\($0)", recordType: "Family", fields: [:])) }
        #expect(CloudKitClient.requests(of: small).map(\.count) == [200, 200, 50])
    }
}

import Dispatch
import FlyingFox
import FlyingSocks
import Foundation
import TribeBoardTestSupport
import Synchronization
import TribeBoardCloudKit
import TribeBoardRemote

/// A CloudKit Web Services stand-in whose answers a test scripts: for servers that misbehave in
/// ways the emulator, which follows Apple's documentation, never does (results out of order,
/// missing, repeated, or about records nobody asked for), and for running another writer at the
/// exact moment a request is on the wire. Signatures are not checked.
///
/// Unscripted, it answers records/query with no records, records/lookup with NOT_FOUND for every
/// name, and records/modify with every record saved, in the order of the operations. Code claims
/// (a records/modify of `FamilyCodeClaim` records only) are the operation `records/modify claims`:
/// saved, and never passed to `modifyResults`, so scripts about families see families only.
/// Each script closure runs on the server's threads: what it shares with the test needs a lock.
package final class ScriptedCloudKitServer: Sendable {
    package struct Script: Sendable {
        /// Runs before each request is answered, with its operation (`records/modify`, ...) and
        /// how many of that operation came before it; a concurrent writer goes here.
        package var beforeAnswer:
            @Sendable (_ operation: String, _ earlier: Int, _ body: [String: Any]) async -> Void = {
                _, _, _ in
            }
        /// Rewrites records/modify's per-record results (JSON objects, one per operation, in
        /// order).
        package var modifyResults: @Sendable (_ results: [[String: Any]]) -> [[String: Any]] = {
            $0
        }
        /// Rewrites the results of a records/modify of code claims (`earlier`: claim requests
        /// before it).
        package var claimResults:
            @Sendable (_ results: [[String: Any]], _ earlier: Int) -> [[String: Any]] = {
                results, _ in results
            }
        /// Answers records/lookup for these names (by default NOT_FOUND for each, in order).
        package var lookupResults: @Sendable (_ names: [String]) -> [[String: Any]] = { names in
            names.map {
                ScriptedCloudKitServer.failure($0, "NOT_FOUND", reason: "Record not found")
            }
        }

        package init() {}
    }

    private let server: HTTPServer
    private let task: Task<Void, any Error>
    package let baseURL: String

    package static func start(_ script: Script) async throws -> ScriptedCloudKitServer {
        let server = HTTPServer(
            address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 30, logger: .disabled)
        let counts = Mutex<[String: Int]>([:])
        await server.appendRoute("*") { request in
            let data = (try? await request.bodyData) ?? Data()
            let body = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
            var operation =
                ["records/modify", "records/lookup", "records/query", "users/caller"].first {
                    request.path.hasSuffix($0)
                } ?? request.path
            if operation == "records/modify", Self.onlyClaims(body) {
                operation = Self.claimsOperation
            }
            let earlier = counts.withLock { counts in
                defer { counts[operation, default: 0] += 1 }
                return counts[operation, default: 0]
            }
            await script.beforeAnswer(operation, earlier, body)
            let answer: [String: Any]
            switch operation {
            case "records/modify":
                let operations = body["operations"] as? [[String: Any]] ?? []
                answer = ["records": script.modifyResults(operations.map(Self.saved))]
            case Self.claimsOperation:
                answer = [
                    "records": script.claimResults(
                        (body["operations"] as? [[String: Any]] ?? []).map(Self.saved), earlier)
                ]
            case "records/lookup":
                let names = (body["records"] as? [[String: Any]] ?? []).compactMap {
                    $0["recordName"] as? String
                }
                answer = ["records": script.lookupResults(names)]
            case "users/caller":
                answer = ["userRecordName": Self.caller]
            default:
                answer = ["records": [[String: Any]]()]
            }
            let bytes = (try? JSONSerialization.data(withJSONObject: answer)) ?? Data("{}".utf8)
            return HTTPResponse(
                statusCode: .ok, headers: [.contentType: "application/json"], body: bytes)
        }
        let task = Task(executorPreference: ScriptedExecutor()) { try await server.run() }
        try await server.waitUntilListening(timeout: 30)
        var port: UInt16 = 0
        if case .ip4(_, let bound)? = await server.listeningAddress { port = bound }
        return ScriptedCloudKitServer(
            server: server, task: task, baseURL: "http://127.0.0.1:\(port)")
    }

    private init(server: HTTPServer, task: Task<Void, any Error>, baseURL: String) {
        self.server = server
        self.task = task
        self.baseURL = baseURL
    }

    package static let claimsOperation = "records/modify claims"
    /// Who users/caller says the client is: the creator of what it saved.
    package static let caller = "_scripted"

    static func onlyClaims(_ body: [String: Any]) -> Bool {
        let operations = body["operations"] as? [[String: Any]] ?? []
        return !operations.isEmpty
            && operations.allSatisfy {
                (($0["record"] as? [String: Any])?["recordType"] as? String)
                    == RecordType.familyCodeClaim.name
            }
    }

    /// What CloudKit answers for a saved record: the record with a change tag.
    static func saved(_ operation: [String: Any]) -> [String: Any] {
        var record = operation["record"] as? [String: Any] ?? [:]
        record["recordChangeTag"] = "tag-1"
        return record
    }

    /// A per-record error entry, as CloudKit puts it among the results.
    package static func failure(
        _ recordName: String, _ serverErrorCode: String, reason: String = "scripted"
    ) -> [String: Any] {
        ["recordName": recordName, "serverErrorCode": serverErrorCode, "reason": reason]
    }

    package func stop() async {
        await server.stop(timeout: 1)
        task.cancel()
    }
}

/// The server's tasks on threads of their own: the code under test blocks its thread while it
/// waits for an answer, and the test's cooperative threads may all be busy.
private final class ScriptedExecutor: TaskExecutor {
    private let queue = DispatchQueue(
        label: "tribeboard.scripted-cloudkit", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

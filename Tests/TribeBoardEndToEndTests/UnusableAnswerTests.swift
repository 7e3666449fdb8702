import Foundation
import Testing
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// One bad server, one answer: every command that talks to CloudKit ends with the same documented
/// status for the same unusable answer (75: try later; 78: the settings point somewhere else),
/// and a provision whose codes could not be checked remotely never exits 0.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct UnusableAnswerTests {
    let tribeboard = ProcessRunner.executable("tribeboard")

    static let answers: [(name: String, status: Int, contentType: String, body: String, expected: Int32)] = [
        ("empty 200", 200, "application/json", "", 75),
        ("invalid JSON", 200, "application/json", "{\"records\": [", 75),
        ("a record without recordName", 200, "application/json", #"{"records":[{"recordType":"Family","fields":{}}]}"#, 75),
        ("an HTML 401 page", 401, "text/html", "<html><body>Sign in</body></html>", 78),
    ]

    /// A store with families waiting for sync, made without a remote.
    func workspace(_ label: String) throws -> (TemporaryDirectory, key: String) {
        let directory = try TemporaryDirectory(label)
        _ = try directory.write("in.csv", CSVFixtures.families(count: 3))
        _ = try directory.write("more.csv", CSVFixtures.families(count: 3, idPrefix: "M"))
        try #require(try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory.path).status == 0)
        let key = directory.file("eckey.pem")
        try #require(try ProcessRunner.run("/usr/bin/openssl", ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", key]).status == 0)
        chmod(key, 0o600)
        return (directory, key)
    }

    @Test(arguments: 0..<answers.count) func everyCommandEndsWithTheSameStatus(index: Int) throws {
        let answer = Self.answers[index]
        let server = try RawHTTPServer { _, _ in
            .init(status: answer.status, headers: ["Content-Type": answer.contentType], body: answer.body)
        }
        defer { server.stop() }
        let (directory, key) = try workspace("unusable-\(index)")
        let remote = ["--key-id", "k", "--key-file", key, "--ck-base-url", server.baseURL]
        for command in [["provision", "more.csv", "--out", "out2"], ["resync"], ["audit"]] {
            let result = try ProcessRunner.run(tribeboard, command + ["--store", "s.sqlite"] + remote, in: directory.path)
            #expect(result.status == answer.expected, "\(command[0]) after \(answer.name): \(result.stderr)")
        }
        let doctor = try ProcessRunner.run(tribeboard, ["doctor", "--store", "s.sqlite", "--json"] + remote, in: directory.path)
        #expect(doctor.status == 1, "doctor after \(answer.name)")
    }
}

/// `resync --max-duration` is a promise for the whole run: a server that trickles its answers or
/// asks for long waits does not hold a cron job past it.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct MaxDurationTests {
    @Test(arguments: ["trickle", "retry-after"]) func resyncEndsByItsMaxDuration(server kind: String) throws {
        let server = try RawHTTPServer { _, _ in
            kind == "trickle"
                ? .init(status: 200, body: String(repeating: " ", count: 10_000) + "{}", interval: 1, bytesPerChunk: 1)
                : .init(status: 503, headers: ["Retry-After": "100"], body: "")
        }
        defer { server.stop() }
        let (directory, key) = try UnusableAnswerTests().workspace("max-duration-\(kind)")
        let result = try ProcessRunner.run(ProcessRunner.executable("tribeboard"),
                                           ["resync", "--store", "s.sqlite", "--key-id", "k", "--key-file", key, "--ck-base-url", server.baseURL,
                                            "--max-duration", "3", "--json"], in: directory.path)
        let report = try result.report(ResyncReportMirror.self)
        #expect(report.stoppedBy == "--max-duration reached", "\(result.stdout)\n\(result.stderr)")
        #expect(report.stopKind == "cloudkit.outOfTime", "the error document's kind for the run's time: \(result.stdout)")
        #expect(result.status != 0, "records stay pending")
    }
}

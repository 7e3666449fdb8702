import Foundation
import Testing
import TribeBoardTestSupport

/// `provision -` reads a pipe through a working copy in TMPDIR: a TMPDIR that cannot hold it is
/// the machine's fault (74, I/O), not the data's (65), and the message says what to set.
@Suite struct ProvisionWorkingCopyTests {
    @Test func anUnusableTMPDIRIsAnIOErrorNamingTheFolder() async throws {
        let directory = try TemporaryDirectory("working-copy")
        let input = try directory.write("in.csv", CSVFixtures.families(count: 2))
        let result = try await ProcessRunner.runAsync("/bin/sh", ["-c", "exec \"$0\" provision - --store s.sqlite --out out --json < \"$1\"",
                                                                  ProcessRunner.executable("tribeboard"), input],
                                                      in: directory.path, environment: ["TMPDIR": directory.file("missing")])
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("TMPDIR"), "\(result.stderr)")
        let document = try ErrorDocument(result)
        #expect(document.kind == "csv.workingCopy")
        #expect(document.path?.hasPrefix(directory.file("missing")) == true)
    }
}

import Foundation
import Testing
import TribeBoardStoreFixtures
import TribeBoardTestSupport

/// A provision run over a file with a quoting mistake (the reading itself is HostileCSVTests'):
/// the malformed row fails alone, by line, and the others are created.
@Suite("Provisioner: a hand-made quoting mistake")
struct ProvisionerHostileCSVTests {
    @Test func provisionFailsOnlyTheMalformedRowAndCreatesTheOthers() throws {
        let workspace = try ProvisionWorkspace()
        let report = try workspace.run("external_id,family_name\nE1,Ames\nE2,\"Brook\" \nE3,Cole\nE4,\"Dunn\"\n")
        #expect(report.created == 3)
        #expect(report.failed == 1)
        let manifest = try workspace.manifest()
        #expect(manifest.map(\.status) == ["created", "failed", "created", "created"])
        #expect(manifest.map(\.externalId) == ["E1", "", "E3", "E4"])
        #expect(manifest[1].line == 3)
        #expect(manifest[1].error.contains("family_name"), "\(manifest[1].error)")
        #expect(try workspace.count("families") == 3)
    }
}

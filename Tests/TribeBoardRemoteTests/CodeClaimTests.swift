import Foundation
import Testing
import TribeBoardDomain
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
import TribeBoardTestSupport
@testable import TribeBoardCloudKit
@testable import TribeBoardRemote

/// The claim record (docs/code-claims.md): its name, held against an independent SHA-256 (the
/// `openssl dgst -sha256` of the worked example), and the claimer against the emulator, where
/// exactly one of many concurrent creates of one name succeeds.
@Suite("Code claims")
struct CodeClaimUnitTests {
    @Test func theNameIsTheDocumentedHashOfTheNormalisedCode() throws {
        // printf 'tribeboard-family-code-claim:v1:ABC234' | openssl dgst -sha256
        let expected = "e6738d14d0c1e2031de5af6ece1209f9afce58950ceb1be815473af6ae361f04"
        #expect(try CodeClaim.recordName(forCode: "ABC234") == expected)
        #expect(try CodeClaim.recordName(forCode: "  abc234\n") == expected, "trimmed and upper-cased, as the join screen reads a code")
        #expect(try CodeClaim.recordName(forCode: "ABC235") != expected)
        let claim = try CodeClaim(code: "abc234", familyID: "F1")
        #expect(claim.record.recordType == "FamilyCodeClaim" && claim.record.string("family") == "F1" && claim.code == "ABC234")
        #expect(!claim.recordName.contains("ABC234"), "the name does not show the code")
    }

    @Test func ofTwentyConcurrentClaimsOfOneCodeExactlyOneWinsAndEveryoneAgreesWho() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let client = try fixture.client()
        let outcomes = await withTaskGroup(of: (String, CodeClaimer.Outcome?).self) { group in
            for index in 0..<20 {
                group.addTask {
                    let family = "FAMILY-\(index)"
                    let claim = try? CodeClaim(code: "RACE42", familyID: FamilyID(rawValue: family))
                    guard let claim, let answer = try? await CodeClaimer(client: client).claim([claim]) else { return (family, nil) }
                    return (family, answer.outcomes[claim.recordName])
                }
            }
            var all: [String: CodeClaimer.Outcome?] = [:]
            for await (family, outcome) in group { all[family] = outcome }
            return all
        }
        let winners = outcomes.filter { $0.value == .claimed }.map(\.key)
        #expect(winners.count == 1, "\(outcomes)")
        let winner = try #require(winners.first)
        #expect(outcomes.filter { $0.key != winner }.allSatisfy { $0.value == .heldBy(.family(winner)) }, "the others are told who holds it")
        #expect(await fixture.emulator.claims(container: CloudKitConfiguration.defaultContainer) == [try CodeClaim.recordName(forCode: "RACE42"): winner])
        // Claimed again by its holder (a rerun after a kill): still its own, nothing created.
        let again = try await CodeClaimer(client: client).claim([try CodeClaim(code: "RACE42", familyID: FamilyID(rawValue: winner))])
        #expect(again.outcomes.values.first == .claimed)
    }

    @Test func aReleaseDeletesOnlyAClaimThatNamesItsFamily() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let claimer = CodeClaimer(client: try fixture.client())
        _ = try await claimer.claim([try CodeClaim(code: "KEEP01", familyID: "A"), try CodeClaim(code: "FREE01", familyID: "B")])
        let released = try await claimer.release([try CodeClaim(code: "KEEP01", familyID: "NOT-A"), try CodeClaim(code: "FREE01", familyID: "B"),
                                                  try CodeClaim(code: "NONE01", familyID: "C")])
        #expect(released.outcomes[try CodeClaim.recordName(forCode: "KEEP01")] == .notOurs(.family("A")))
        #expect(released.outcomes[try CodeClaim.recordName(forCode: "FREE01")] == .released)
        #expect(released.outcomes[try CodeClaim.recordName(forCode: "NONE01")] == .released, "already gone counts as released")
        #expect(await fixture.emulator.claims(container: CloudKitConfiguration.defaultContainer) == [try CodeClaim.recordName(forCode: "KEEP01"): "A"])
    }

    @Test func aLaggingIndexHidesANewFamilyFromQueriesButNotFromLookups() async throws {
        var options = CloudKitEmulator.Options()
        options.indexLag = 30
        let fixture = try await EmulatorFixture.start(options)
        defer { Task { await fixture.emulator.stop() } }
        let client = try fixture.client()
        let family = CloudKitRecord(recordName: "F-LAG", recordType: "Family", fields: ["code": .string("LAG001")])
        _ = try await client.modify([CloudKitOperation(.create, family)])
        let page = try await client.query(CloudKitQuery(recordType: "Family", filterBy: [.isIn("code", ["LAG001"])]))
        #expect(page.records.isEmpty, "Apple: query indexes update asynchronously")
        let found = try await client.lookup(recordNames: ["F-LAG"])
        #expect(found.count == 1 && { if case .record = found[0] { return true } else { return false } }())
        let repeated = try await client.modify([CloudKitOperation(.create, family)])
        #expect({ if case .failure(let error) = repeated.first { return error.code == .exists } else { return false } }(), "a create sees it at once")
    }
}

import Foundation
import Testing
import TribeBoardCloudKitEmulator

/// Who may do what, as Apple's reference has it: names unique whoever holds them, READ grants on
/// lookups as on queries, documented delete bodies, and the record-name rules.
@Suite("Emulator identity and permission rules")
struct IdentityRulesTests {
    static func startWithUser(_ options: CloudKitEmulator.Options = .init()) async throws -> (EmulatorHarness, RawCloudKit) {
        let harness = try await EmulatorHarness.start(options)
        await harness.emulator.registerUser("_app_user_1", webAuthToken: "squatter")
        return (harness, RawCloudKit.appUser(baseURL: harness.client.baseURL, query: "ckAPIToken=a&ckWebAuthToken=squatter"))
    }

    static func code(_ answer: RawCloudKit.Answer) -> String? { answer.records.first?["serverErrorCode"] as? String }

    @Test func aTakenNameIsExistsWhoeverHoldsIt() async throws {
        let (harness, squatter) = try await Self.startWithUser()
        defer { Task { await harness.emulator.stop() } }
        #expect(Self.code(try await squatter.post("records/modify", RawCloudKit.createFamily("CLAIM1", code: "ABC234"))) == nil)
        // The developer cannot change the squatter's record, yet hears that the name exists.
        let taken = try await harness.client.post("records/modify", RawCloudKit.createFamily("CLAIM1", code: "ABC234"))
        #expect(Self.code(taken) == "EXISTS")
        #expect(Self.code(try await squatter.post("records/modify", RawCloudKit.createFamily("CLAIM1", code: "ABC234"))) == "EXISTS")
    }

    @Test(arguments: [false, true]) func aTakenNameCanBeAnsweredTheOtherWays(accessDenied: Bool) async throws {
        var options = CloudKitEmulator.Options()
        options.conflictOnRepeatedCreate = !accessDenied
        options.accessDeniedOnForeignCreate = accessDenied
        let (harness, squatter) = try await Self.startWithUser(options)
        defer { Task { await harness.emulator.stop() } }
        _ = try await squatter.post("records/modify", RawCloudKit.createFamily("CLAIM1", code: "ABC234"))
        let foreign = try await harness.client.post("records/modify", RawCloudKit.createFamily("CLAIM1", code: "ABC234"))
        #expect(Self.code(foreign) == (accessDenied ? "ACCESS_DENIED" : "CONFLICT"))
        // Its own name repeated is still a repeated create, not a permission.
        let own = try await squatter.post("records/modify", RawCloudKit.createFamily("CLAIM1", code: "ABC234"))
        #expect(Self.code(own) == (accessDenied ? "EXISTS" : "CONFLICT"))
    }

    @Test func lookupsHonourReadGrantsAsQueriesDo() async throws {
        let schema = try SchemaParser.parse("""
            DEFINE SCHEMA
                RECORD TYPE Family (
                    "___recordID" REFERENCE QUERYABLE,
                    code STRING QUERYABLE,
                    name STRING,
                    GRANT READ, WRITE TO "_creator",
                    GRANT CREATE TO "_icloud"
                );
            """)
        let (harness, user) = try await Self.startWithUser(EmulatorHarness.enforced(development: schema))
        defer { Task { await harness.emulator.stop() } }
        _ = try await harness.client.post("records/modify", RawCloudKit.createFamily("F1", code: "ABC234"))
        let lookup = #"{"records": [{"recordName": "F1"}]}"#
        #expect(try await harness.client.post("records/lookup", lookup).records.first?["recordName"] as? String == "F1")
        let refused = try await user.post("records/lookup", lookup)
        #expect(Self.code(refused) == "ACCESS_DENIED")
        #expect(refused.records.first?["reason"] as? String == "READ operation not permitted")
        #expect(try await user.post("records/query", RawCloudKit.queryCode(["ABC234"])).records.isEmpty)
    }

    @Test func aDeleteNeedsOnlyTheNameAndAStaleTagIsAConflict() async throws {
        let harness = try await EmulatorHarness.start()
        defer { Task { await harness.emulator.stop() } }
        func delete(_ name: String, tag: String? = nil) -> String {
            let tagField = tag.map { #", "recordChangeTag": "\#($0)""# } ?? ""
            return #"{"operations": [{"operationType": "delete", "record": {"recordName": "\#(name)"\#(tagField)}}], "atomic": false}"#
        }
        _ = try await harness.client.post("records/modify", RawCloudKit.createFamily("F1", code: "ABC234"))
        let deleted = try await harness.client.post("records/modify", delete("F1"))
        #expect(deleted.records.first?["deleted"] as? Bool == true)
        let created = try await harness.client.post("records/modify", RawCloudKit.createFamily("F2", code: "ABC234"))
        let tag = try #require(created.records.first?["recordChangeTag"] as? String)
        #expect(Self.code(try await harness.client.post("records/modify", delete("F2", tag: tag + "x"))) == "CONFLICT")
        #expect(try await harness.client.post("records/modify", delete("F2", tag: tag)).records.first?["deleted"] as? Bool == true)
        #expect(Self.code(try await harness.client.post("records/modify", delete("F2"))) == "NOT_FOUND")
    }

    @Test func recordNamesFollowApplesRules() async throws {
        let harness = try await EmulatorHarness.start()
        defer { Task { await harness.emulator.stop() } }
        for bad in ["_claim", String(repeating: "a", count: 256), "Famille-é"] {
            let answer = try await harness.client.post("records/modify", RawCloudKit.createFamily(bad, code: "ABC234"))
            #expect(Self.code(answer) == "BAD_REQUEST", "\(bad)")
            #expect((answer.records.first?["reason"] as? String)?.hasSuffix("must not start with an underscore") == true)
        }
        let longest = String(repeating: "a", count: 255)
        #expect(Self.code(try await harness.client.post("records/modify", RawCloudKit.createFamily(longest, code: "ABC234"))) == nil)
        // A create without a name gets one.
        let unnamed = try await harness.client.post("records/modify", """
            {"operations": [{"operationType": "create", "record": {"recordType": "Family",
              "fields": {"code": {"value": "XYZ789", "type": "STRING"}}}}], "atomic": false}
            """)
        #expect((unnamed.records.first?["recordName"] as? String)?.isEmpty == false)
        #expect(Self.code(unnamed) == nil)
    }

    @Test func anInternalErrorSaysWhenItMayBeRetried() async throws {
        var options = CloudKitEmulator.Options()
        options.faults = try EmulatorFaults.parse("500=1,retry-after=0.5")
        let harness = try await EmulatorHarness.start(options)
        defer { Task { await harness.emulator.stop() } }
        let retryable = try await harness.client.get("users/caller")
        #expect(retryable.status == 500 && retryable.serverErrorCode == "INTERNAL_ERROR")
        #expect(retryable.json["retryAfter"] as? Double == 0.5)
        await harness.emulator.setFaults(try EmulatorFaults.parse("500-bare=1"))
        let bare = try await harness.client.get("users/caller")
        #expect(bare.serverErrorCode == "INTERNAL_ERROR" && bare.json["retryAfter"] == nil)
    }
}

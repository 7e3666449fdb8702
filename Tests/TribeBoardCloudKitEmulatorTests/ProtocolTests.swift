import Foundation
import Testing
import TribeBoardCloudKitEmulator

/// The documented request and answer shapes, errors and faults, with raw JSON.
@Suite("Emulator protocol")
struct ProtocolTests {
    @Test func everyErrorCarriesAUUIDAndTheDocumentedStatus() async throws {
        let harness = try await EmulatorHarness.start()
        defer { Task { await harness.emulator.stop() } }
        _ = try await harness.client.post("records/modify", RawCloudKit.createFamily("F1", code: "ABC234"))
        let again = try await harness.client.post("records/modify", RawCloudKit.createFamily("F1", code: "ABC234"))
        let entry = try #require(again.records.first)
        #expect(entry["serverErrorCode"] as? String == "EXISTS")
        #expect(UUID(uuidString: entry["uuid"] as? String ?? "") != nil)
        let malformed = try await harness.client.post("records/query", #"{"query": {}}"#)
        #expect(malformed.status == 400)
        #expect(UUID(uuidString: malformed.json["uuid"] as? String ?? "") != nil)
        let operations = (1...201).map { #"{"operationType": "create", "record": {"recordType": "Family", "recordName": "N\#($0)", "fields": {}}}"# }
        let tooMany = try await harness.client.post("records/modify", #"{"operations": [\#(operations.joined(separator: ","))], "atomic": false}"#)
        #expect(tooMany.status == 400)
        #expect(tooMany.serverErrorCode == "BAD_REQUEST")
        #expect(UUID(uuidString: tooMany.json["uuid"] as? String ?? "") != nil)
    }

    @Test func repeatedCreatesAnswerConflictWhenAskedTo() async throws {
        var options = CloudKitEmulator.Options()
        options.conflictOnRepeatedCreate = true
        let harness = try await EmulatorHarness.start(options)
        defer { Task { await harness.emulator.stop() } }
        _ = try await harness.client.post("records/modify", RawCloudKit.createFamily("F1", code: "ABC234"))
        let again = try await harness.client.post("records/modify", RawCloudKit.createFamily("F1", code: "ABC234"))
        #expect(again.records.first?["serverErrorCode"] as? String == "CONFLICT")
        #expect(await harness.emulator.storedRecords(container: harness.client.container).count == 1)
    }

    @Test func callerAnswersInsideUsersAsAppleShowsIt() async throws {
        let harness = try await EmulatorHarness.start()
        defer { Task { await harness.emulator.stop() } }
        let caller = try await harness.client.get("users/caller")
        let users = try #require(caller.json["users"] as? [[String: Any]])
        #expect(users.first?["userRecordName"] as? String == CloudKitEmulator.developerRecordName(keyID: harness.client.keyID))
    }

    @Test func unavailableAndThrottledCarryRetryAfterHeaders() async throws {
        var options = CloudKitEmulator.Options()
        options.faults = try EmulatorFaults.parse("503=1,retry-after=7")
        let harness = try await EmulatorHarness.start(options)
        defer { Task { await harness.emulator.stop() } }
        let unavailable = try await harness.client.get("users/caller")
        #expect(unavailable.status == 503)
        #expect(unavailable.headers["retry-after"] == "7")
        #expect(unavailable.serverErrorCode == "TRY_AGAIN_LATER")
        #expect(UUID(uuidString: unavailable.json["uuid"] as? String ?? "") != nil)

        await harness.emulator.setFaults(try EmulatorFaults.parse("429=1,retry-after=3"))
        let throttled = try await harness.client.get("users/caller")
        #expect(throttled.status == 429)
        #expect(throttled.headers["retry-after"] == "3")
        #expect(throttled.json["retryAfter"] as? Double == 3)

        await harness.emulator.setFaults(try EmulatorFaults.parse("503-bare=1,retry-after=2"))
        let bare = try await harness.client.get("users/caller")
        #expect(bare.status == 503)
        #expect(bare.headers["retry-after"] == "2")
        #expect(bare.data.isEmpty)
    }

    @Test func aThrottledRecordCarriesItsOwnRetryAfterWhileTheOthersAreSaved() async throws {
        var options = CloudKitEmulator.Options()
        options.faults = try EmulatorFaults.parse("record-429=0.5,retry-after=4,seed=3")
        let harness = try await EmulatorHarness.start(options)
        defer { Task { await harness.emulator.stop() } }
        let operations = (1...20).map { #"{"operationType": "create", "record": {"recordType": "Family", "recordName": "N\#($0)", "fields": {}}}"# }
        let answer = try await harness.client.post("records/modify", #"{"operations": [\#(operations.joined(separator: ","))], "atomic": false}"#)
        #expect(answer.status == 200)
        #expect(answer.records.map { $0["recordName"] as? String } == (1...20).map { "N\($0)" }, "one entry per operation, in order")
        let throttled = answer.records.filter { $0["serverErrorCode"] as? String == "THROTTLED" }
        #expect(!throttled.isEmpty && throttled.count < 20)
        #expect(throttled.allSatisfy { $0["retryAfter"] as? Double == 4 && $0["uuid"] is String })
        #expect(await harness.emulator.storedRecords(container: harness.client.container).count == 20 - throttled.count)
    }

    @Test func faultOptionsRejectNonsense() {
        #expect(throws: EmulatorError.self) { try EmulatorFaults.parse("503-bare=2") }
        #expect(throws: EmulatorError.self) { try EmulatorFaults.parse("retry-after=-1") }
        #expect(throws: EmulatorError.self) { try EmulatorFaults.parse("503=0.6,503-bare=0.6") }
    }

    /// A marker the server never gave is refused, in name order and with sortBy, instead of
    /// answering the first page again (a client would loop for ever).
    @Test(arguments: [false, true])
    func anUnknownContinuationMarkerIsAnError(sorted: Bool) async throws {
        let harness = try await EmulatorHarness.start()
        defer { Task { await harness.emulator.stop() } }
        _ = try await harness.client.post("records/modify", RawCloudKit.createFamily("F1", code: "ABC234"))
        let sort = sorted ? #", "sortBy": [{"fieldName": "code"}]"# : ""
        for marker in ["bm90LWEtbWFya2Vy", "%%%", "LTE="] {
            let answer = try await harness.client.post("records/query", """
                {"resultsLimit": 1, "continuationMarker": "\(marker)", "query": {"recordType": "Family"\(sort)}}
                """)
            #expect(answer.status == 400 && answer.serverErrorCode == "BAD_REQUEST", "\(marker): \(answer.status) \(answer.records)")
            #expect(answer.reason == "continuationMarker is not one this server gave")
        }
    }

    @Test func desiredKeysLimitTheFieldsOfQueryAndLookupAnswers() async throws {
        let harness = try await EmulatorHarness.start()
        defer { Task { await harness.emulator.stop() } }
        _ = try await harness.client.post("records/modify", RawCloudKit.createFamily("F1", code: "ABC234"))
        let queried = try await harness.client.post("records/query", #"{"desiredKeys": ["code"], "query": {"recordType": "Family"}}"#)
        #expect((queried.records.first?["fields"] as? [String: Any]).map { Set($0.keys) } == ["code"], "\(queried.records)")
        let looked = try await harness.client.post("records/lookup", #"{"desiredKeys": [], "records": [{"recordName": "F1"}]}"#)
        #expect((looked.records.first?["fields"] as? [String: Any])?.isEmpty == true, "\(looked.records)")
        let whole = try await harness.client.post("records/lookup", #"{"records": [{"recordName": "F1"}]}"#)
        #expect((whole.records.first?["fields"] as? [String: Any]).map { Set($0.keys) } == ["code", "name"], "without desiredKeys, every field")
    }

    /// Over 2 MB (the documented assumption: native CloudKit's guideline) is refused whole.
    @Test func aRequestBodyOverTheLimitIsRefused() async throws {
        let harness = try await EmulatorHarness.start()
        defer { Task { await harness.emulator.stop() } }
        let padding = #", "note": {"value": "\#(String(repeating: "x", count: 2_100_000))", "type": "STRING"}"#
        let answer = try await harness.client.post("records/modify", RawCloudKit.createFamily("F1", code: "ABC234", extra: padding))
        #expect(answer.status == 400 && answer.serverErrorCode == "BAD_REQUEST", "\(answer.status)")
        #expect(answer.reason?.contains("larger than the 2000000 bytes") == true, "\(answer.reason ?? "")")
        #expect(await harness.emulator.storedRecords(container: harness.client.container).isEmpty)
    }

    @Test func quotaExceededIsAnInjectableFaultOfWrites() async throws {
        var options = CloudKitEmulator.Options()
        options.faults = try EmulatorFaults.parse("quota=1")
        let harness = try await EmulatorHarness.start(options)
        defer { Task { await harness.emulator.stop() } }
        let write = try await harness.client.post("records/modify", RawCloudKit.createFamily("F1", code: "ABC234"))
        #expect(write.status == 413 && write.serverErrorCode == "QUOTA_EXCEEDED" && write.json["uuid"] is String)
        #expect(try await harness.client.post("records/query", RawCloudKit.queryAll("Family")).status == 200, "reads are not refused")
    }
}

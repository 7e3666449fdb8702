import Foundation
import Testing
@testable import TribeBoardCloudKitEmulator
import TribeBoardCloudFixtures
import TribeBoardTestSupport
@testable import TribeBoardCloudKit
@testable import TribeBoardSupport
@testable import TribeBoardRemote
import TribeBoardDomain

/// The client against the loopback emulator: the documented protocol end to end.
@Suite("CloudKit client against the emulator")
struct CloudKitClientTests {
    let container = CloudKitConfiguration.defaultContainer

    static func family(_ index: Int, code: String? = nil) -> CloudKitRecord {
        RecordMapping.family(id: FamilyID(rawValue: String(format: "00000000-0000-7000-8000-%012d", index)), name: "Family \(index)",
                             code: code ?? String(format: "C%05d", index), createdByUserId: "11111111-1111-4111-8111-111111111111",
                             createdAt: Timestamp(milliseconds: 1_795_000_000_123))
    }

    @Test func registeredKeyIsAcceptedAndOthersAreRefusedWithoutRetries() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let caller = try await fixture.client().caller()
        #expect(caller.userRecordName.hasPrefix("_"))

        let unknownID = try fixture.client(keyID: "not-registered")
        let error = await #expect(throws: CloudKitError.self) { try await unknownID.caller() }
        #expect(error?.category == .configuration)
        guard case .service(let code, let status, _, _)? = error else { Issue.record("expected a service error"); return }
        #expect(code == .authenticationFailed && status == 401)

        // The right id with another private key: the signature does not verify.
        let otherKey = try ProcessRunner.run("/usr/bin/openssl", ["ecparam", "-name", "prime256v1", "-genkey", "-noout"])
        let wrongKey = try fixture.client(privateKeyPEM: Array(otherKey.stdout.utf8))
        await #expect(throws: CloudKitError.self) { try await wrongKey.caller() }
        let counts = await fixture.emulator.requestCounts()
        #expect(counts["users/caller"] == 3, "configuration errors are not retried")
    }

    @Test func modifyCreatesTheAppsRecordsExactlyAndReportsEachFailureAlone() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let client = try fixture.client()
        let families = (1...450).map { Self.family($0) }
        let results = try await client.modify(families.map { CloudKitOperation(.create, $0) })
        #expect(results.count == 450)
        #expect(await fixture.emulator.requestCounts()["records/modify"] == 3, "450 operations go in requests of at most 200")

        let stored = await fixture.emulator.records(container: container)
        #expect(stored.count == 450)
        let first = try #require(stored.first)
        #expect(first.recordType == "Family")
        #expect(first.fields?["code"] == .string("C00001"))
        #expect(first.fields?["createdAt"] == CloudKitRecord.Field(value: .number(1_795_000_000_123), type: "TIMESTAMP"))

        // Creating again: every record answers EXISTS, and a new one in the same request succeeds.
        let again = try await client.modify([CloudKitOperation(.create, Self.family(1)), CloudKitOperation(.create, Self.family(999))])
        guard case .failure(let failure) = again[0], case .record(let created) = again[1] else {
            Issue.record("expected EXISTS then a record, got \(again)")
            return
        }
        #expect(failure.code == .exists && failure.code.category == .data)
        #expect(created.recordName == Self.family(999).recordName)
    }

    @Test func queryPagesWithContinuationMarkersAndFilters() async throws {
        let fixture = try await EmulatorFixture.start(try .templateContainer())
        defer { Task { await fixture.emulator.stop() } }
        await fixture.emulator.seed((1...450).map { Self.family($0) }, container: container)
        let client = try fixture.client()
        var names = Set<String>()
        var pages = 0
        try await client.queryAll(CloudKitQuery(recordType: "Family")) { page in
            pages += 1
            for case .record(let record) in page { names.insert(record.recordName) }
        }
        #expect(names.count == 450 && pages == 3)

        let wanted = try await client.query(CloudKitQuery(recordType: "Family", filterBy: [.isIn("code", ["C00007", "C00300", "NOPE00"])]))
        #expect(wanted.records.count == 2 && wanted.continuationMarker == nil)

        let notQueryable = await #expect(throws: CloudKitError.self) {
            try await client.query(CloudKitQuery(recordType: "Family", filterBy: [.equals("name", "Family 1")]))
        }
        // No retry fixes a missing index: it is the container's configuration, named with its type.
        #expect(notQueryable?.category == .configuration)
        #expect(notQueryable == .schema(.notQueryable(field: "name", recordType: "Family"), reason: "Field 'name' is not marked queryable"))
    }

    @Test func changeTagsGuardUpdatesAndReferencesMustExist() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let client = try fixture.client()
        guard case .record(let saved) = try await client.modify([CloudKitOperation(.create, Self.family(1))])[0] else {
            Issue.record("create failed")
            return
        }
        var stale = Self.family(1, code: "NEWONE")
        stale.recordChangeTag = "not-the-tag"
        guard case .failure(let conflict) = try await client.modify([CloudKitOperation(.update, stale)])[0] else {
            Issue.record("expected CONFLICT")
            return
        }
        #expect(conflict.code == .conflict)
        stale.recordChangeTag = saved.recordChangeTag
        guard case .record(let updated) = try await client.modify([CloudKitOperation(.update, stale)])[0] else {
            Issue.record("update with the right tag failed")
            return
        }
        #expect(updated.string("code") == "NEWONE")

        let orphan = RecordMapping.membership(id: "22222222-2222-7222-8222-222222222222", familyID: "33333333-3333-7333-8333-333333333333",
                                              userID: "44444444-4444-7444-8444-444444444444", role: .parentAdmin, status: .active,
                                              joinedAt: .now, lastRoleChangeAt: nil)
        guard case .failure(let missing) = try await client.modify([CloudKitOperation(.create, orphan)])[0] else {
            Issue.record("expected VALIDATING_REFERENCE_ERROR")
            return
        }
        #expect(missing.code == .validatingReferenceError)
        let lookedUp = try await client.lookup(recordNames: [Self.family(1).recordName, "55555555-5555-7555-8555-555555555555"])
        guard case .record = lookedUp[0], case .failure(let notFound) = lookedUp[1] else {
            Issue.record("expected a record then NOT_FOUND")
            return
        }
        #expect(notFound.code == .notFound)
    }

    @Test func transientFaultsAreRetriedUntilTheWorkIsDone() async throws {
        var options = CloudKitEmulator.Options()
        options.faults = try EmulatorFaults.parse("503=0.2,500=0.1,drop=0.1,seed=42")
        let fixture = try await EmulatorFixture.start(options)
        defer { Task { await fixture.emulator.stop() } }
        let client = try fixture.client(policy: RetryPolicy(maxAttempts: 12, baseDelay: 0.005, maxDelay: 0.05, maxTotalSeconds: 600))
        for chunk in stride(from: 1, through: 400, by: 20) {
            let operations = (chunk..<(chunk + 20)).map { CloudKitOperation(.forceReplace, Self.family($0)) }
            let results = try await client.modify(operations)
            #expect(results.allSatisfy { if case .record = $0 { return true } else { return false } })
        }
        #expect(await fixture.emulator.records(container: container).count == 400)
        let requests = await fixture.emulator.requestCounts()["records/modify"] ?? 0
        #expect(requests > 20, "some requests met an injected fault and were sent again")
    }

    @Test func aConnectionClosedMidResponseIsANetworkError() async throws {
        var options = CloudKitEmulator.Options()
        options.faults = try EmulatorFaults.parse("drop=1")
        let fixture = try await EmulatorFixture.start(options)
        defer { Task { await fixture.emulator.stop() } }
        // A far time budget: the test counts attempts, and a loaded machine must not end them.
        let client = try fixture.client(policy: RetryPolicy(maxAttempts: 2, baseDelay: 0.001, maxDelay: 0.01, maxTotalSeconds: 600))
        let error = await #expect(throws: CloudKitError.self) { try await client.caller() }
        #expect(error?.category == .network, "\(String(describing: error))")
        let requests = await fixture.emulator.requestCounts()["users/caller"]
        #expect(requests == 2, "retried once")
    }

    @Test func throttlingWaitsForRetryAfter() async throws {
        var options = CloudKitEmulator.Options()
        options.faults = try EmulatorFaults.parse("429=1,retry-after=0.3")
        let fixture = try await EmulatorFixture.start(options)
        defer { Task { await fixture.emulator.stop() } }
        let client = try fixture.client(policy: RetryPolicy(maxAttempts: 3, baseDelay: 0.001, maxDelay: 0.01, maxTotalSeconds: 600))
        let started = ContinuousClock.now
        let error = await #expect(throws: CloudKitError.self) { try await client.caller() }
        #expect(ContinuousClock.now - started >= .milliseconds(600), "two waits of retryAfter = 0.3 s")
        guard case .gaveUp(let attempts, let last)? = error else { Issue.record("expected gaveUp, got \(String(describing: error))"); return }
        #expect(attempts == 3 && last.category == .transient)
    }

    @Test func anUnreachableRemoteIsANetworkErrorBoundedInTime() async throws {
        let fixture = try await EmulatorFixture.start()
        await fixture.emulator.stop()
        let client = try fixture.client(policy: RetryPolicy(maxAttempts: 50, baseDelay: 0.05, maxDelay: 0.2, maxTotalSeconds: 1))
        let error = await #expect(throws: CloudKitError.self) { try await client.caller() }
        #expect(error?.category == .network)
        // 50 attempts would wait over 5 s: fewer, and the total-time bound stopped them (no clock read).
        guard case .gaveUp(let attempts, _)? = error else { Issue.record("expected gaveUp, got \(String(describing: error))"); return }
        #expect(attempts < 50)
    }

    @Test func recordsSurviveARestartWithADataFile() async throws {
        let folder = try TemporaryDirectory("emulator-data")
        var options = CloudKitEmulator.Options()
        options.dataFile = folder.file("records.json")
        let first = try await EmulatorFixture.start(options)
        _ = try await first.client().modify([CloudKitOperation(.create, Self.family(1))])
        await first.emulator.stop()
        let second = try await CloudKitEmulator.start(options)
        defer { Task { await second.stop() } }
        #expect(await second.records(container: container).map(\.recordName) == [Self.family(1).recordName])
    }

    @Test func faultListsParseAndRejectNonsense() throws {
        let faults = try EmulatorFaults.parse("503=0.1,429=0.2,retry-after=2,500=0.05,drop=0.05,latency=20ms,seed=9")
        #expect(faults.unavailable == 0.1 && faults.throttled == 0.2 && faults.throttleRetryAfter == 2)
        #expect(faults.latency == .milliseconds(20) && faults.seed == 9)
        #expect(try EmulatorFaults.parse("down").dropConnection == 1)
        #expect(throws: EmulatorError.self) { try EmulatorFaults.parse("503=0.7,429=0.7") }
        #expect(throws: EmulatorError.self) { try EmulatorFaults.parse("teapot=0.1") }
    }
}

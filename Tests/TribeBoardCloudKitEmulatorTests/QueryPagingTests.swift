import Foundation
import Testing
import TribeBoardCloudKitEmulator

/// records/query pages, followed by their continuation markers: every record of the type once, in
/// name order, the last page without a marker; a filtered query pages the same way.
@Suite("Emulator query paging")
struct QueryPagingTests {
    static let container = "iCloud.net.dataenvy.TribeBoard"

    static func record(_ name: String, type: String, code: String) -> WireRecord {
        WireRecord(recordName: name, recordType: type, fields: ["code": .init(value: .string(code), type: "STRING")])
    }

    /// Every page of a query, following markers; fails on a repeated marker.
    static func pages(_ client: RawCloudKit, type: String, limit: Int, filter: String = "") async throws -> [[String]] {
        var pages: [[String]] = []
        var marker: String?
        var markers = Set<String>()
        repeat {
            let continuation = marker.map { #", "continuationMarker": "\#($0)""# } ?? ""
            let answer = try await client.post("records/query", """
                {"zoneID": {"zoneName": "_defaultZone"}, "resultsLimit": \(limit)\(continuation),
                 "query": {"recordType": "\(type)"\(filter)}}
                """)
            #expect(answer.status == 200)
            pages.append(answer.records.compactMap { $0["recordName"] as? String })
            marker = answer.json["continuationMarker"] as? String
            if let marker { #expect(markers.insert(marker).inserted) }
        } while marker != nil && pages.count < 100
        return pages
    }

    @Test func pagesHoldEveryRecordOfTheTypeOnceInNameOrder() async throws {
        let harness = try await EmulatorHarness.start()
        defer { Task { await harness.emulator.stop() } }
        // Names in no order, three types interleaved, seeded in two rounds (loaded, then added).
        let names = (0..<600).map { _ in UUID().uuidString }
        let records = names.enumerated().map { Self.record($1, type: ["Family", "UserProfile", "Membership"][$0 % 3], code: "C\($0 % 7)") }
        await harness.emulator.seedRecords(Array(records[..<300]), container: Self.container)
        await harness.emulator.seedRecords(Array(records[300...]), container: Self.container)
        let families = records.filter { $0.recordType == "Family" }.map(\.recordName).sorted()

        let pages = try await Self.pages(harness.client, type: "Family", limit: 64)
        #expect(pages.map(\.count) == [64, 64, 64, 8])
        #expect(pages.flatMap { $0 } == families)

        // An exact fit ends without a marker on its last full page.
        let exact = try await Self.pages(harness.client, type: "Family", limit: 50)
        #expect(exact.map(\.count) == [50, 50, 50, 50])

        // EQUALS on code (from the index) pages in name order too.
        let filter = #", "filterBy": [{"fieldName": "code", "comparator": "EQUALS", "fieldValue": {"value": "C3", "type": "STRING"}}]"#
        let coded = records.filter { $0.recordType == "Family" && $0.fields?["code"]?.value.string == "C3" }.map(\.recordName).sorted()
        let filtered = try await Self.pages(harness.client, type: "Family", limit: 10, filter: filter)
        #expect(filtered.flatMap { $0 } == coded && filtered.count == (coded.count + 9) / 10)
    }

    @Test func recordsDeletedBehindTheMarkerDoNotMakeTheNextPageSkipAny() async throws {
        let harness = try await EmulatorHarness.start()
        defer { Task { await harness.emulator.stop() } }
        let names = (0..<30).map { String(format: "R%03d", $0) }
        await harness.emulator.seedRecords(names.map { Self.record($0, type: "Family", code: "C") }, container: Self.container)
        let first = try await harness.client.post("records/query", #"{"resultsLimit": 10, "query": {"recordType": "Family"}}"#)
        #expect(first.records.compactMap { $0["recordName"] as? String } == Array(names[..<10]))
        let marker = try #require(first.json["continuationMarker"] as? String)
        // A reader deleting what it has read (as migrate --delete-source or an operator might).
        let deletes = names[..<10].map { #"{"operationType": "forceDelete", "record": {"recordName": "\#($0)"}}"# }
        let deleted = try await harness.client.post("records/modify", #"{"operations": [\#(deletes.joined(separator: ","))]}"#)
        #expect(deleted.records.count == 10 && deleted.records.allSatisfy { ($0["deleted"] as? NSNumber)?.boolValue == true })
        let second = try await harness.client.post("records/query", #"{"resultsLimit": 10, "continuationMarker": "\#(marker)", "query": {"recordType": "Family"}}"#)
        #expect(second.records.compactMap { $0["recordName"] as? String } == Array(names[10..<20]))
    }
}

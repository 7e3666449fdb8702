import Foundation
import Testing
@testable import TribeBoardCloudKitEmulator

/// The query index against a plain scan: every query answered from the index (EQUALS, IN,
/// BEGINS_WITH and NOT_BEGINS_WITH, beside the type's walk) pages through the same records, in the
/// same order, as reading every record of the type and keeping those the filters take, also when
/// records are written, changed, retyped and deleted between pages, and across a reload of the
/// saved file. And a BEGINS_WITH page, or a page of the remainder a whole-type read asks for
/// (NOT_BEGINS_WITH each first letter), reads about what it returns, not the whole type.
@Suite("Emulator query index")
struct QueryIndexTests {
    static let location = Location(container: "iCloud.test", environment: "development", database: "public", zone: "_defaultZone")
    static let caller = Caller(userRecordName: "_developer", now: 1_700_000_000_000)

    /// Code values meant to sit at the edges of a prefix's range: lower case, empty, a number, a
    /// list, a combining mark after a prefix letter (`A` + ring composes to `Å`, `e` + low line
    /// and `A` + tilde overlay do not compose and sort after `ez`, `AZ`), precomposed and
    /// decomposed `é`, DEL, CR LF (one character), the scalars either side of U+0300, and no field.
    static let codes: [WireValue?] = [
        .string("A"), .string("AB"), .string("ABC"), .string("AZ"), .string("A\u{30A}"), .string("Å"), .string("B"),
        .string("b"), .string("e"), .string("ez"), .string("e\u{332}"), .string("e\u{332}x"), .string("eあ"),
        .string("é"), .string("e\u{301}"), .string("\u{7F}"), .string("\u{7F}A"), .string("9"), .string(""),
        .string("Z9"), .number(5), .array([.string("A")]), nil, .string("A\u{334}"), .string("A\r\nB"),
        .string("A\r"), .string("A\u{2FF}"), .string("A\u{300}x"), .string("Ay\u{301}"),
    ]
    static let prefixes = ["A", "AB", "B", "e", "é", "e\u{332}", "\u{7F}", "", "9", "5", "Z", "A\r", "Ay"]
    /// The first letters a whole-type read gives its prefix queries (its remainder: none of them).
    static let letters = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) } + (0...9).map(String.init)

    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func record(_ name: String, type: String, code: WireValue?) -> WireRecord {
        var fields: [String: WireRecord.Field] = ["name": .init(value: .string(name.lowercased()), type: "STRING")]
        if let code { fields["code"] = .init(value: code, type: nil) }
        return WireRecord(recordName: name, recordType: type, fields: fields)
    }

    static func filter(_ comparator: String, _ value: WireValue) -> QueryRequestBody.Filter {
        .init(fieldName: "code", comparator: comparator, fieldValue: .init(value: value, type: nil))
    }

    static func randomFilters(_ random: inout Generator) -> [QueryRequestBody.Filter] {
        let prefix = prefixes.randomElement(using: &random) ?? ""
        let code = codes.compactMap { $0 }.randomElement(using: &random) ?? .string("")
        let other = prefixes.randomElement(using: &random) ?? ""
        switch Int.random(in: 0..<8, using: &random) {
        case 7: return (letters + [prefix]).map { filter("NOT_BEGINS_WITH", .string($0)) }
        case 0: return []
        case 1: return [filter("EQUALS", code)]
        case 2: return [filter("BEGINS_WITH", .string(prefix))]
        case 3: return [filter("NOT_BEGINS_WITH", .string(prefix)), filter("BEGINS_WITH", .string(other))]
        case 4: return [filter("IN", .array([code, .string(prefix)]))]
        case 5: return [filter("NOT_BEGINS_WITH", .string(prefix)), filter("NOT_BEGINS_WITH", .string(other))]
        default: return [filter("BEGINS_WITH", .string(prefix)), filter("NOT_EQUALS", code)]
        }
    }

    /// The plain scan: every record of the type the filters take, in the documented order (by the
    /// code then the name when an EQUALS or BEGINS_WITH reads the code's index; when only
    /// NOT_BEGINS_WITH does, by the code then the name, then the records without a comparable code
    /// by name; else by name), after the last one returned.
    static func scan(_ database: EmulatorDatabase, type: String, filters: [QueryRequestBody.Filter],
                     after last: WireRecord?) -> [String] {
        let comparators = Set(filters.map(\.comparator))
        let byCode = !comparators.isDisjoint(with: ["EQUALS", "BEGINS_WITH"]) && !comparators.contains("IN")
        let outside = comparators.isDisjoint(with: ["EQUALS", "BEGINS_WITH", "IN"]) && comparators.contains("NOT_BEGINS_WITH")
            && filters.allSatisfy { $0.comparator != "NOT_BEGINS_WITH" || !($0.fieldValue.value.comparable ?? "").isEmpty }
        func key(_ record: WireRecord) -> (Int, String, String) {
            let code = record.fields?["code"]?.value.comparable
            if outside { return (code == nil ? 1 : 0, code ?? "", record.recordName) }
            return (0, byCode ? code ?? "" : "", record.recordName)
        }
        return (database.zones[location.zoneKey] ?? [:]).values
            .filter { record in record.recordType == type && filters.allSatisfy { EmulatorDatabase.matches(record, filter: $0) } }
            .map(key).filter { candidate in last.map { key($0) < candidate } ?? true }.sorted(by: <).map(\.2)
    }

    static func write(_ database: inout EmulatorDatabase, _ random: inout Generator) {
        let name = String(format: "R%03d", Int.random(in: 0..<260, using: &random))
        let type = Bool.random(using: &random) ? "Family" : "Profile"
        let gone = Int.random(in: 0..<5, using: &random) == 0
        database.put(gone ? nil : record(name, type: type, code: codes.randomElement(using: &random) ?? nil),
                     named: name, zone: location.zoneKey)
    }

    @Test func pagesFromTheIndexAreThePlainScansPagesWhateverIsWrittenBetweenThem() throws {
        var random = Generator(state: 40)
        var database = EmulatorDatabase()
        for _ in 0..<400 { Self.write(&database, &random) }
        for round in 0..<300 {
            let type = round % 4 == 3 ? "Profile" : "Family"
            let filters = Self.randomFilters(&random)
            let limit = Int.random(in: 1...9, using: &random)
            var marker: String?
            var last: WireRecord?
            var pages = 0
            repeat {
                let request = QueryRequestBody(resultsLimit: limit, query: .init(recordType: type, filterBy: filters), continuationMarker: marker)
                let page = try database.query(request, at: Self.location, policy: ContainerPolicy(), caller: Self.caller)
                let expected = Self.scan(database, type: type, filters: filters, after: last)
                let names = page.records.map(\.recordName)
                #expect(names == Array(expected.prefix(limit)), "round \(round), page \(pages), filters \(filters.map(\.comparator))")
                #expect((page.marker != nil) == (expected.count > limit), "round \(round), page \(pages)")
                marker = page.marker
                last = page.records.last ?? last
                pages += 1
                // Others write between pages; now and then the emulator restarts from its file.
                for _ in 0..<Int.random(in: 0...6, using: &random) { Self.write(&database, &random) }
                if Int.random(in: 0..<10, using: &random) == 0 {
                    database = try JSONDecoder().decode(EmulatorDatabase.self, from: JSONEncoder().encode(database))
                }
            } while marker != nil && pages < 500
            #expect(marker == nil, "round \(round) did not end")
        }
    }

    @Test func aBeginsWithPageReadsWhatItReturnsNotTheWholeType() throws {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var database = EmulatorDatabase()
        let records: [WireRecord] = (0..<8000).map { (i: Int) -> WireRecord in
            let name = String(format: "F%05d", (i * 7919) % 8000)
            let code = String(alphabet[i % alphabet.count]) + String(i)
            return Self.record(name, type: "Family", code: .string(code))
        }
        database.seed(records, at: Self.location, mode: .permissive, developer: "_developer")
        let wanted = records.filter { $0.fields?["code"]?.value.string?.hasPrefix("Q") == true }.count
        var marker: String?
        var read: [String] = []
        var examined = 0
        repeat {
            let request = QueryRequestBody(resultsLimit: 200, query: .init(recordType: "Family", filterBy: [Self.filter("BEGINS_WITH", .string("Q"))]),
                                           continuationMarker: marker)
            let page = try database.query(request, at: Self.location, policy: ContainerPolicy(), caller: Self.caller)
            read += page.records.map(\.recordName)
            examined += page.examined
            marker = page.marker
        } while marker != nil
        #expect(read.count == wanted && Set(read).count == wanted)
        // Each page reads its 200 and the one after it that proves a next page; a walk of the type
        // would read thousands.
        #expect(examined <= wanted + (wanted + 199) / 200)
    }

    @Test func theRemaindersPageReadsWhatItReturnsNotTheWholeType() throws {
        var database = EmulatorDatabase()
        // 8,000 codes of the app's alphabet, 40 lower-case, 20 without a code.
        let records: [WireRecord] = (0..<8060).map { (i: Int) -> WireRecord in
            let name = String(format: "F%05d", (i * 7919) % 8060)
            let code: WireValue? = switch i {
            case ..<8000: .string(Self.letters[i % Self.letters.count] + String(i))
            case ..<8040: .string("q\(i)")
            default: nil
            }
            return Self.record(name, type: "Family", code: code)
        }
        database.seed(records, at: Self.location, mode: .permissive, developer: "_developer")
        let filters = Self.letters.map { Self.filter("NOT_BEGINS_WITH", .string($0)) }
        var marker: String?
        var read: [String] = []
        var examined = 0
        repeat {
            let request = QueryRequestBody(resultsLimit: 25, query: .init(recordType: "Family", filterBy: filters), continuationMarker: marker)
            let page = try database.query(request, at: Self.location, policy: ContainerPolicy(), caller: Self.caller)
            read += page.records.map(\.recordName)
            examined += page.examined
            marker = page.marker
        } while marker != nil
        let expected = records.filter { record in filters.allSatisfy { EmulatorDatabase.matches(record, filter: $0) } }.map(\.recordName)
        #expect(expected.count == 60 && Set(read) == Set(expected) && read.count == 60)
        // The 40 lower-case codes and the 20 without one, and each page's one more: the 8,000
        // codes beginning with a letter are stepped over, never read (the walk read 8,060 a page).
        #expect(examined <= 60 + 3)
    }
}

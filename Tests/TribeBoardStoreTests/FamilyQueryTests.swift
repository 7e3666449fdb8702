import Foundation
import Testing
import TribeBoardTestSupport
@testable import TribeBoardStore

/// A family named by its code is found as the app finds a typed code (the join kit's rule):
/// pasted with a zero-width space, typed in full-width forms or in lower case.
struct FamilyQueryTests {
    @Test(arguments: ["QX7K2M9A", " qx7k2m9a\n", "\u{200B}QX7K2M9A\u{FEFF}", "ＱＸ７Ｋ２Ｍ９Ａ", "qx7k2m9a\u{2060}"])
    func aCodeAsTypedFindsItsFamily(typed: String) throws {
        let folder = try TemporaryDirectory("family-query")
        let store = try TribeBoardStore.openOrCreate(at: folder.file("store.sqlite")).store
        try store.writer.write { db in try StoreTests.insertFamily(db, id: "8C1F3A52-0F4E-4C39-9D0B-3B7A1F2E6D10", code: "QX7K2M9A") }
        #expect(try store.namedFamily(typed)?.code == "QX7K2M9A", "\(typed.unicodeScalars.map(\.value))")
        #expect(try store.familyHistory(matching: typed)?.family.code == "QX7K2M9A")
        // A record id in lower case is the same id.
        #expect(try store.namedFamily("8c1f3a52-0f4e-4c39-9d0b-3b7a1f2e6d10")?.code == "QX7K2M9A")
    }
}

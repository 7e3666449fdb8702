import Foundation
import Testing
@testable import TribeBoardAudit

@Suite("Audit: record ids held compactly")
struct CompactIDTests {
    /// Foundation's reading where it gives the id back: it also takes a leading space or "0x"
    /// (`sscanf`), and such an id then printed as another family's.
    private static func throughFoundation(_ id: String) -> CompactID {
        if id.utf8.count == 36, let uuid = UUID(uuidString: id), uuid.uuidString == id { return .uuid(uuid) }
        return .text(id)
    }

    static let ids: [String] = {
        var ids = (0..<200).map { _ in UUID().uuidString }
        ids += ["00000000-0000-0000-0000-000000000000", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
                "0A1B2C3D-4E5F-4000-8000-00000000000A", "0a1b2c3d-4e5f-4000-8000-00000000000a",
                "0A1B2C3D-4E5F-4000-8000-00000000000a", "0A1B2C3D4E5F-4000-8000-00000000000A-",
                "0A1B2C3D-4E5F-4000-8000-00000000000G", "0A1B2C3D-4E5F-4000-8000+00000000000A",
                "{A1B2C3D-4E5F-4000-8000-00000000000A}", "0A1B2C3D-4E5F-4000-8000-00000000000",
                "0A1B2C3D-4E5F-4000-8000-00000000000AB", " A1B2C3D-4E5F-4000-8000-00000000000A",
                "0A1B2C3D-4E5F-4000-8000-00000000000\u{0}", "0A1B2C3D-4E5F-4000-8000-0000000000Ä",
                "0A1B2C3D-4E5F-4000-8000-0000000000０A", "0x1B2C3D-4E5F-4000-8000-00000000000A",
                "family-1", "", "--------------------------------------"]
        return ids
    }()

    @Test("ids print back unchanged; the upper-case UUIDs among them are held as 16 bytes")
    func agreesWithFoundation() {
        for id in Self.ids {
            let compact = CompactID(id)
            #expect(compact == Self.throughFoundation(id), "\(id.debugDescription)")
            #expect(compact.string == id, "\(id.debugDescription)")
        }
        #expect(Self.ids.filter { if case .uuid = CompactID($0) { true } else { false } }.count == 203)
    }
}

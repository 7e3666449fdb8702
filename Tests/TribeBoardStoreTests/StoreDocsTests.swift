import Foundation
import GRDB
import Testing
import TribeBoardTestSupport
@testable import TribeBoardStore

/// docs/store.md's table of tables is what support staff read before `sqlite3`: every table a
/// new store has, with every column, is in it (a migration adding a column fails here until the
/// page names it).
struct StoreDocsTests {
    static var page: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/store.md")
    }

    @Test func thePageNamesEveryTableAndColumn() throws {
        let folder = try TemporaryDirectory("store-docs")
        let store = try TribeBoardStore.openOrCreate(at: folder.file("s.sqlite")).store
        let rows = try String(contentsOf: Self.page, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("| `") }
        let tables = try store.writer.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%'")
        }
        #expect(tables.count >= 9)
        for table in tables {
            let row = rows.first { $0.hasPrefix("| `\(table)` |") }
            #expect(row != nil, "docs/store.md has no row for \(table)")
            let columns = try store.writer.read { db in try db.columns(in: table).map(\.name) }
            let missing = columns.filter { row?.contains("`\($0)`") != true }
            #expect(missing.isEmpty, "docs/store.md's \(table) row does not name \(missing)")
        }
    }
}

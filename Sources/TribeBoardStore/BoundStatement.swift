import Foundation
import GRDB
import GRDBSQLite

/// A GRDB prepared statement bound and stepped through SQLite's C API.
///
/// A bulk run executes the same few statements about ten times per family; GRDB's per-call work
/// (looking the statement up by its SQL text, boxing arguments, building `Row` values) was most of
/// the store writer's time, which is the pipeline's critical path. Errors still surface as GRDB's
/// `DatabaseError` with SQLite's result code, so constraint handling reads the same.
///
/// `TRIBEBOARD_BENCH_GRDB_STATEMENTS=1` runs the same statements through GRDB's own API instead,
/// so that `make bench` measures what this type earns (BENCHMARKS.md); nothing else reads it.
package struct BoundStatement {
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    private static let throughGRDB = ProcessInfo.processInfo.environment["TRIBEBOARD_BENCH_GRDB_STATEMENTS"] == "1"

    private let statement: Statement
    private var handle: OpaquePointer { statement.sqliteStatement }
    /// The table the first column's `id` comes from: a value that is not text is then reported
    /// as that row's (`StoreError.unreadableValue`).
    private let table: String?

    package init(_ db: Database, _ sql: String, table: String? = nil) throws {
        statement = try db.cachedStatement(sql: sql)
        self.table = table
    }

    /// Runs the statement with `values` (String, Int, Double or nil); for INSERT and UPDATE.
    package func execute(_ values: [BindableValue]) throws {
        if Self.throughGRDB { return try statement.execute(arguments: StatementArguments(values.map(\.databaseValue))) }
        try bind(values)
        let code = sqlite3_step(handle)
        let failure = code == SQLITE_DONE ? nil : error(code)
        reset()
        if let failure { throw failure }
    }

    /// The text columns of the first row, or nil when there is none. A column that is not text
    /// (NULL, a number) is an error, never an empty string.
    package func firstRow(_ values: [BindableValue], columns: Int32) throws -> [String]? {
        if Self.throughGRDB {
            guard let row = try Row.fetchOne(statement, arguments: StatementArguments(values.map(\.databaseValue))) else { return nil }
            return try (0..<Int(columns)).map { index throws in
                guard case .string(let text) = (row[index] as DatabaseValue).storage else {
                    throw notText(Int32(index), value: row[index], id: row[0] as DatabaseValue)
                }
                return text
            }
        }
        try bind(values)
        let code = sqlite3_step(handle)
        guard code == SQLITE_ROW else {
            let failure = code == SQLITE_DONE ? nil : error(code)
            reset()
            if let failure { throw failure }
            return nil
        }
        var row: [String] = []
        for column in 0..<columns {
            guard sqlite3_column_type(handle, column) == SQLITE_TEXT, let text = StatementRow(handle: handle).text(column) else {
                let failure = notText(column, value: DatabaseValue(sqliteStatement: handle, index: column),
                                      id: DatabaseValue(sqliteStatement: handle, index: 0))
                reset()
                throw failure
            }
            row.append(text)
        }
        reset()
        return row
    }

    /// Steps through every row, handing each to `body` without copying columns it does not read.
    package func forEachRow(_ values: [BindableValue], _ body: (StatementRow) throws -> Void) throws {
        try bind(values)
        defer { reset() }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw error(code) }
            try body(StatementRow(handle: handle))
        }
    }

    private func bind(_ values: [BindableValue]) throws {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            // By byte count, not up to the first NUL.
            case .text(let text): code = sqlite3_bind_text(handle, index, text, Int32(text.utf8.count), Self.transient)
            case .integer(let number): code = sqlite3_bind_int64(handle, index, Int64(number))
            case .real(let number): code = sqlite3_bind_double(handle, index, number)
            case .null: code = sqlite3_bind_null(handle, index)
            }
            guard code == SQLITE_OK else {
                let failure = error(code)
                reset()
                throw failure
            }
        }
    }

    private func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    private func notText(_ column: Int32, value: DatabaseValue, id: DatabaseValue) -> any Error {
        let names = statement.columnNames
        if let table, names.first == "id", Int(column) < names.count {
            guard case .string(let rowID) = id.storage else {
                return StoreError.unreadableValue(table: table, rowID: "?", column: "id", found: StoreError.describe(id, column: "id"))
            }
            return StoreError.unreadableValue(table: table, rowID: rowID, column: names[Int(column)],
                                              found: StoreError.describe(value, column: names[Int(column)]))
        }
        return DatabaseError(resultCode: .SQLITE_MISMATCH, message: "column \(column + 1) is not text (NULL, a number or a blob)", sql: statement.sql)
    }

    private func error(_ code: Int32) -> DatabaseError {
        let connection = sqlite3_db_handle(handle)
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        return DatabaseError(resultCode: ResultCode(rawValue: extended), message: message, sql: statement.sql)
    }
}

/// The current row of a stepping statement; valid only inside `forEachRow`'s body.
package struct StatementRow {
    let handle: OpaquePointer

    package func text(_ column: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, column) else { return nil }
        let length = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self)
    }

    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
}

package enum BindableValue {
    case text(String)
    case integer(Int)
    case real(Double)
    case null

    package static func text(_ value: String?) -> BindableValue { value.map { .text($0) } ?? .null }

    var databaseValue: DatabaseValue {
        switch self {
        case .text(let text): return text.databaseValue
        case .integer(let number): return number.databaseValue
        case .real(let number): return number.databaseValue
        case .null: return .null
        }
    }
}

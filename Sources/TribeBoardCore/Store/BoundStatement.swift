import GRDB
import GRDBSQLite

/// A GRDB prepared statement bound and stepped through SQLite's C API.
///
/// A bulk run executes the same few statements about ten times per family; GRDB's per-call work
/// (looking the statement up by its SQL text, boxing arguments, building `Row` values) was most of
/// the store writer's time, which is the pipeline's critical path. Errors still surface as GRDB's
/// `DatabaseError` with SQLite's result code, so constraint handling reads the same.
struct BoundStatement {
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private let statement: Statement
    private var handle: OpaquePointer { statement.sqliteStatement }

    init(_ db: Database, _ sql: String) throws {
        statement = try db.cachedStatement(sql: sql)
    }

    /// Runs the statement with `values` (String, Int, Double or nil); for INSERT and UPDATE.
    func execute(_ values: [BindableValue]) throws {
        try bind(values)
        let code = sqlite3_step(handle)
        let failure = code == SQLITE_DONE ? nil : error(code)
        reset()
        if let failure { throw failure }
    }

    /// The text columns of the first row, or nil when there is none.
    func firstRow(_ values: [BindableValue], columns: Int32) throws -> [String]? {
        try bind(values)
        let code = sqlite3_step(handle)
        guard code == SQLITE_ROW else {
            let failure = code == SQLITE_DONE ? nil : error(code)
            reset()
            if let failure { throw failure }
            return nil
        }
        let current = StatementRow(handle: handle)
        let row = (0..<columns).map { current.text($0) ?? "" }
        reset()
        return row
    }

    /// Steps through every row, handing each to `body` without copying columns it does not read.
    func forEachRow(_ values: [BindableValue], _ body: (StatementRow) throws -> Void) throws {
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

    private func error(_ code: Int32) -> DatabaseError {
        let connection = sqlite3_db_handle(handle)
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        return DatabaseError(resultCode: ResultCode(rawValue: extended), message: message, sql: statement.sql)
    }
}

/// The current row of a stepping statement; valid only inside `forEachRow`'s body.
struct StatementRow {
    let handle: OpaquePointer

    func text(_ column: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, column) else { return nil }
        let length = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self)
    }

    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
}

enum BindableValue {
    case text(String)
    case integer(Int)
    case real(Double)
    case null

    static func text(_ value: String?) -> BindableValue { value.map { .text($0) } ?? .null }
}
